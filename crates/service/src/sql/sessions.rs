//! Sessions: the account a token opens, and ending a session.

use sqlx::{AnyPool, Row};

use crate::domain::DomainError;

/// The account a session opens: its id, name and language (as stored).
#[derive(Debug, Clone, sqlx::FromRow)]
pub(crate) struct SessionAccount {
    /// The account's id.
    pub(crate) id: String,
    /// Its name.
    pub(crate) name: String,
    /// Its language, as stored (`en`, `de`).
    pub(crate) lang: String,
}

/// The account of the session with this token hash, if it has not expired at `now_ms`.
pub(crate) async fn account_of(
    pool: &AnyPool,
    token_hash: &str,
    now_ms: i64,
) -> Result<Option<SessionAccount>, DomainError> {
    Ok(sqlx::query_as(
        "SELECT a.id, a.name, a.lang FROM sessions s JOIN accounts a ON a.id = s.account_id \
         WHERE s.token_hash = $1 AND s.expires_ms > $2",
    )
    .bind(token_hash)
    .bind(now_ms)
    .fetch_optional(pool)
    .await?)
}

/// The account id of the session with this token hash, if it has not expired at `now_ms`.
pub(crate) async fn account_id_of(
    pool: &AnyPool,
    token_hash: &str,
    now_ms: i64,
) -> Result<Option<String>, DomainError> {
    let row = sqlx::query("SELECT account_id FROM sessions WHERE token_hash = $1 AND expires_ms > $2")
        .bind(token_hash)
        .bind(now_ms)
        .fetch_optional(pool)
        .await?;
    Ok(row.map(|r| r.try_get("account_id")).transpose()?)
}

/// Ends the session with this token hash (nothing happens for an unknown one).
pub(crate) async fn end(pool: &AnyPool, token_hash: &str) -> Result<(), DomainError> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(pool)
        .await?;
    Ok(())
}

/// The game's status and phase as stored (what open pages compare to know they are out of
/// date), if the game exists.
pub(crate) async fn game_version(pool: &AnyPool, game: &str) -> Result<Option<(String, Option<String>)>, DomainError> {
    let row = sqlx::query("SELECT status, phase FROM games WHERE id = $1")
        .bind(game)
        .fetch_optional(pool)
        .await?;
    Ok(row
        .map(|r| Ok::<_, sqlx::Error>((r.try_get("status")?, r.try_get("phase")?)))
        .transpose()?)
}
