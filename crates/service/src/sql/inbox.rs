//! The inbox on SQL: received mail stored raw (base64) under a unique key, claimed by one
//! process at a time, and marked done (its raw text forgotten) with its reply.

use base64::Engine as _;
use sqlx::{AnyPool, Row};

/// A stored mail as processing reads it.
#[derive(Debug, Clone)]
pub(crate) struct StoredMail {
    /// The mail's bytes; why not, when the stored text is missing or not base64 (never read as
    /// an empty mail).
    pub(crate) raw: Result<Vec<u8>, String>,
    /// The envelope sender, if known.
    pub(crate) envelope_from: Option<String>,
    /// When it was received (milliseconds since 1970).
    pub(crate) received_ms: i64,
}

/// Stores a received mail under `id`; false if a mail with its key is stored already.
pub(crate) async fn store(
    pool: &AnyPool,
    id: &str,
    key: &str,
    raw: &[u8],
    envelope_from: Option<&str>,
    now_ms: i64,
) -> Result<bool, sqlx::Error> {
    let stored = sqlx::query(
        "INSERT INTO inbox (id, message_key, envelope_from, raw, size, received_ms) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(key)
    .bind(envelope_from)
    .bind(base64::engine::general_purpose::STANDARD.encode(raw))
    .bind(raw.len() as i64)
    .bind(now_ms)
    .execute(pool)
    .await;
    match stored {
        Ok(_) => Ok(true),
        Err(e) if super::is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e),
    }
}

/// The ids of up to 100 mails not yet processed and not claimed since `claimed_before`, oldest
/// first.
pub(crate) async fn unprocessed(pool: &AnyPool, claimed_before: i64) -> Result<Vec<String>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id FROM inbox WHERE processed_ms IS NULL AND (claimed_ms IS NULL OR claimed_ms < $1) \
         ORDER BY received_ms, id LIMIT 100",
    )
    .bind(claimed_before)
    .fetch_all(pool)
    .await?;
    rows.iter().map(|r| r.try_get("id")).collect()
}

/// Claims a mail at `mine` unless it is processed or claimed since `claimed_before`; false if
/// another process has it.
pub(crate) async fn claim(pool: &AnyPool, id: &str, mine: i64, claimed_before: i64) -> Result<bool, sqlx::Error> {
    let claimed = sqlx::query(
        "UPDATE inbox SET claimed_ms = $1 WHERE id = $2 AND processed_ms IS NULL AND (claimed_ms IS NULL OR claimed_ms < $3)",
    )
    .bind(mine)
    .bind(id)
    .bind(claimed_before)
    .execute(pool)
    .await?;
    Ok(claimed.rows_affected() > 0)
}

/// A claimed mail's stored text.
pub(crate) async fn stored(pool: &AnyPool, id: &str) -> Result<StoredMail, sqlx::Error> {
    let row = sqlx::query("SELECT raw, envelope_from, received_ms FROM inbox WHERE id = $1")
        .bind(id)
        .fetch_one(pool)
        .await?;
    let text: Option<String> = row.try_get("raw")?;
    let raw = text.ok_or_else(|| "its stored text is gone".to_string()).and_then(|t| {
        base64::engine::general_purpose::STANDARD
            .decode(t)
            .map_err(|e| format!("its stored text cannot be read: {e}"))
    });
    Ok(StoredMail {
        raw,
        envelope_from: row.try_get("envelope_from")?,
        received_ms: row.try_get("received_ms")?,
    })
}

/// Marks a mail claimed at `mine` as processed and forgets its raw text; false if the claim
/// ran out and another process took it.
pub(crate) async fn finish(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    now_ms: i64,
    mine: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE inbox SET processed_ms = $1, raw = NULL WHERE id = $2 AND claimed_ms = $3")
        .bind(now_ms)
        .bind(id)
        .bind(mine)
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() > 0)
}
