//! The counts behind the rate limits (`crate::limits`): failed log-ins and sign-ups, each a row
//! with the moment it was made and the attempt's token, so that a right password takes its
//! attempt back.

use sqlx::Row;

use crate::store::Store;

/// Forgets failed log-ins made before `before`.
pub(crate) async fn prune_failures(store: &Store, before: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM login_failures WHERE failed_ms < $1")
        .bind(before)
        .execute(&store.pool)
        .await?;
    Ok(())
}

/// Counts a log-in attempt of the name `account_key` from `source` as failed (until forgotten).
pub(crate) async fn add_failure(
    store: &Store,
    account_key: &str,
    source: &str,
    now: i64,
    attempt: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO login_failures (account_key, source, failed_ms, attempt) VALUES ($1, $2, $3, $4)")
        .bind(account_key)
        .bind(source)
        .bind(now)
        .bind(attempt)
        .execute(&store.pool)
        .await?;
    Ok(())
}

/// Takes back the failure counted for an attempt.
pub(crate) async fn forget_failure(store: &Store, attempt: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM login_failures WHERE attempt = $1")
        .bind(attempt)
        .execute(&store.pool)
        .await?;
    Ok(())
}

/// The failures of `account_key` since `since` (from `source` if given): how many, and the
/// oldest.
pub(crate) async fn failures(
    store: &Store,
    account_key: &str,
    source: Option<&str>,
    since: i64,
) -> Result<(i64, Option<i64>), sqlx::Error> {
    let query = match source {
        Some(source) => sqlx::query(
            "SELECT COUNT(*), MIN(failed_ms) FROM login_failures WHERE account_key = $1 AND failed_ms > $2 AND source = $3",
        )
        .bind(account_key)
        .bind(since)
        .bind(source),
        None => sqlx::query(
            "SELECT COUNT(*), MIN(failed_ms) FROM login_failures WHERE account_key = $1 AND failed_ms > $2",
        )
        .bind(account_key)
        .bind(since),
    };
    let row = query.fetch_one(&store.pool).await?;
    Ok((row.try_get(0)?, row.try_get(1)?))
}

/// Makes every counted failure `ms` older (tests of the windows).
#[cfg(test)]
pub(crate) async fn age_failures(store: &Store, ms: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE login_failures SET failed_ms = failed_ms - $1")
        .bind(ms)
        .execute(&store.pool)
        .await?;
    Ok(())
}

/// Forgets sign-ups made before `before`.
pub(crate) async fn prune_sign_ups(store: &Store, before: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sign_ups WHERE made_ms < $1")
        .bind(before)
        .execute(&store.pool)
        .await?;
    Ok(())
}

/// Counts a sign-up from `source` for `address` (lower case).
pub(crate) async fn add_sign_up(
    store: &Store,
    source: &str,
    address: &str,
    now: i64,
    attempt: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO sign_ups (source, address, made_ms, attempt) VALUES ($1, $2, $3, $4)")
        .bind(source)
        .bind(address)
        .bind(now)
        .bind(attempt)
        .execute(&store.pool)
        .await?;
    Ok(())
}

/// Takes back a sign-up that was refused.
pub(crate) async fn forget_sign_up(store: &Store, attempt: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sign_ups WHERE attempt = $1")
        .bind(attempt)
        .execute(&store.pool)
        .await?;
    Ok(())
}

/// Whose sign-ups are counted.
#[derive(Debug, Clone, Copy)]
pub(crate) enum SignUpsOf<'a> {
    /// Those from a source (its stored key).
    Source(&'a str),
    /// Those for an address (lower case).
    Address(&'a str),
}

/// The sign-ups of `of` since `since`: how many, and the oldest.
pub(crate) async fn sign_ups(store: &Store, of: SignUpsOf<'_>, since: i64) -> Result<(i64, Option<i64>), sqlx::Error> {
    let (query, value) = match of {
        SignUpsOf::Source(source) => (
            "SELECT COUNT(*), MIN(made_ms) FROM sign_ups WHERE source = $1 AND made_ms > $2",
            source,
        ),
        SignUpsOf::Address(address) => (
            "SELECT COUNT(*), MIN(made_ms) FROM sign_ups WHERE address = $1 AND made_ms > $2",
            address,
        ),
    };
    let row = sqlx::query(query)
        .bind(value)
        .bind(since)
        .fetch_one(&store.pool)
        .await?;
    Ok((row.try_get(0)?, row.try_get(1)?))
}
