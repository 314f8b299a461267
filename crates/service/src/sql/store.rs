//! The database: one data-access path for SQLite and PostgreSQL (sqlx `Any`), versioned migrations.

use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Row};

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

/// The migrations of one backend: all of them but those written for the other one (whose file
/// names end in `_sqlite` or `_postgres`: what one database does with triggers the other does
/// with constraints).
fn migrations(sqlite: bool) -> sqlx::migrate::Migrator {
    let mut migrator = sqlx::migrate!("./migrations");
    let other = if sqlite { "postgres" } else { "sqlite" };
    let own: Vec<_> = migrator
        .migrations
        .iter()
        .filter(|m| !m.description.ends_with(other))
        .cloned()
        .collect();
    migrator.migrations = own.into();
    migrator
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
        migrations(sqlite).run(&pool).await?;
        let store = Store { pool };
        store.fill_phase_column().await?;
        store.fill_name_keys().await?;
        Ok(store)
    }

    /// Games started before migration 0003 have no `phase` column value: it is read from their
    /// stored state (portable SQL has no JSON functions, so this is done here).
    async fn fill_phase_column(&self) -> Result<(), sqlx::Error> {
        let rows = sqlx::query("SELECT id, state_json FROM games WHERE phase IS NULL AND state_json IS NOT NULL")
            .fetch_all(&self.pool)
            .await?;
        for r in rows {
            let id: String = r.get(0);
            let state: String = r.get(1);
            let phase = serde_json::from_str::<serde_json::Value>(&state)
                .ok()
                .and_then(|v| v.get("phase").and_then(|p| p.as_str()).map(str::to_string));
            if let Some(phase) = phase {
                sqlx::query("UPDATE games SET phase = $1 WHERE id = $2")
                    .bind(phase)
                    .bind(id)
                    .execute(&self.pool)
                    .await?;
            }
        }
        Ok(())
    }

    /// Accounts and games named before migration 0011 have no `name_key`: it is computed here
    /// (portable SQL cannot normalise Unicode). Two old names that are one name by the new rule
    /// (`Émile` and `émile` on SQLite, whose `LOWER` folds ASCII letters only) both stay: the
    /// later one's key gets `#` and its id, which no typed name gives, so it is found by its exact
    /// name only; the log names it.
    async fn fill_name_keys(&self) -> Result<(), sqlx::Error> {
        const TABLES: [(&str, &str); 2] = [
            (
                "SELECT id, name FROM accounts WHERE name_key IS NULL ORDER BY created_ms, id",
                "UPDATE accounts SET name_key = $1 WHERE id = $2 AND name_key IS NULL",
            ),
            (
                "SELECT id, name FROM games WHERE name_key IS NULL ORDER BY created_ms, id",
                "UPDATE games SET name_key = $1 WHERE id = $2 AND name_key IS NULL",
            ),
        ];
        for (select, update) in TABLES {
            for r in sqlx::query(select).fetch_all(&self.pool).await? {
                let (id, name): (String, String) = (r.get(0), r.get(1));
                let key = crate::names::name_key(&name);
                match sqlx::query(update).bind(&key).bind(&id).execute(&self.pool).await {
                    Err(e) if e.as_database_error().is_some_and(|d| d.is_unique_violation()) => {
                        eprintln!("the name `{name}` ({id}) reads as an older one: it is found by its exact name only");
                        sqlx::query(update)
                            .bind(format!("{key}#{id}"))
                            .bind(&id)
                            .execute(&self.pool)
                            .await?;
                    }
                    other => {
                        other?;
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_word_the_service_cannot_read_is_refused_by_the_database() {
        let store = Store::open("sqlite::memory:").await.expect("a database");
        let insert = |lang: &'static str| {
            sqlx::query(
                "INSERT INTO accounts (id, name, name_key, email, password_hash, created_ms, lang) \
                 VALUES ($1, $1, $1, 'a@b', 'h', 0, $2)",
            )
            .bind(lang)
            .bind(lang)
        };
        insert("de").execute(&store.pool).await.expect("a word it reads");
        let refused = insert("fr")
            .execute(&store.pool)
            .await
            .expect_err("not one of its words");
        assert!(refused.to_string().contains("lang is en or de"), "{refused}");
        let update = sqlx::query("UPDATE accounts SET lang = 'xx'")
            .execute(&store.pool)
            .await;
        assert!(update.is_err(), "an update is checked too");
        let names: Vec<_> = migrations(true).iter().map(|m| m.description.to_string()).collect();
        assert!(names.iter().any(|d| d.ends_with("sqlite")) && !names.iter().any(|d| d.ends_with("postgres")));
        let names: Vec<_> = migrations(false).iter().map(|m| m.description.to_string()).collect();
        assert!(names.iter().any(|d| d.ends_with("postgres")) && !names.iter().any(|d| d.ends_with("sqlite")));
    }
}
