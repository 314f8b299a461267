//! The database: one data-access path for SQLite and PostgreSQL (sqlx `Any`), versioned migrations.

use sqlx::AnyPool;
use sqlx::any::AnyPoolOptions;

/// The service's database.
#[derive(Clone)]
pub struct Store {
    /// The connection pool.
    pub pool: AnyPool,
}

/// Milliseconds since 1970.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

impl Store {
    /// Connects to `url` (`sqlite://path?mode=rwc` or `postgres://…`) and brings the schema up to
    /// date.
    pub async fn open(url: &str) -> Result<Store, sqlx::Error> {
        sqlx::any::install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let pool = AnyPoolOptions::new()
            // SQLite allows one writer at a time; one connection keeps transactions in order.
            .max_connections(if sqlite { 1 } else { 8 })
            .connect(url)
            .await?;
        if sqlite {
            sqlx::query("PRAGMA foreign_keys = ON").execute(&pool).await?;
            sqlx::query("PRAGMA journal_mode = WAL").execute(&pool).await?;
        }
        sqlx::migrate!("./migrations").run(&pool).await?;
        Ok(Store { pool })
    }
}
