//! Adjudicated phases: claiming a phase, reading its orders, storing its record, moving the game
//! on.

use std::collections::BTreeMap;

use sqlx::Row;

use super::games::unreadable;
use crate::app::adjudication::{Advance, Claim, PhaseRecord};
use crate::app::results::StoredResult;
use crate::domain::DomainError;

type Tx = sqlx::Transaction<'static, sqlx::Any>;

/// A value as JSON for a column (a value that cannot be written is reported, never stored as
/// an empty text).
fn json(what: &str, value: &impl serde::Serialize) -> Result<String, DomainError> {
    serde_json::to_string(value).map_err(|e| unreadable(what, e))
}

/// Claims the phase: the `UPDATE` locks the game's row, so only one adjudication of a phase
/// gets past it; the claim's conditions are checked under the lock.
pub(super) async fn claim(tx: &mut Tx, game: &str, phase: &str, claim: Claim) -> Result<bool, DomainError> {
    let query = match claim {
        Claim::Now => sqlx::query("UPDATE games SET phase = $1 WHERE id = $2 AND phase = $1 AND status = 'active'"),
        Claim::NotPaused => sqlx::query(
            "UPDATE games SET phase = $1 WHERE id = $2 AND phase = $1 AND status = 'active' \
             AND paused_remaining_ms IS NULL",
        ),
        Claim::DeadlinePassed(_) => sqlx::query(
            "UPDATE games SET phase = $1 WHERE id = $2 AND phase = $1 AND status = 'active' \
             AND paused_remaining_ms IS NULL AND deadline_ms <= $3",
        ),
    }
    .bind(phase)
    .bind(game);
    let query = match claim {
        Claim::DeadlinePassed(now) => query.bind(now),
        _ => query,
    };
    Ok(query.execute(&mut **tx).await?.rows_affected() == 1)
}

/// The orders each power stored for the phase.
pub(super) async fn stored_orders(
    tx: &mut Tx,
    game: &str,
    phase: &str,
) -> Result<BTreeMap<String, Vec<String>>, DomainError> {
    let rows = sqlx::query("SELECT power, lines FROM orders WHERE game_id = $1 AND phase = $2 ORDER BY power")
        .bind(game)
        .bind(phase)
        .fetch_all(&mut **tx)
        .await?;
    let mut orders = BTreeMap::new();
    for r in &rows {
        let lines: String = r.try_get("lines")?;
        let lines: Vec<String> = serde_json::from_str(&lines).map_err(|e| unreadable("a power's orders", e))?;
        orders.insert(r.try_get("power")?, lines);
    }
    Ok(orders)
}

/// Stores the record of an adjudicated phase; false if the phase has one already.
pub(super) async fn store(tx: &mut Tx, r: &PhaseRecord) -> Result<bool, DomainError> {
    let inserted = sqlx::query(
        "INSERT INTO phases (game_id, phase, state_json, result_json, report_en, report_de, adjudicated_ms, input_json, notices_json, outcome_json) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(&r.game)
    .bind(&r.phase)
    .bind(json("a phase's state", &r.before)?)
    .bind(json("a phase's result", &r.published)?)
    .bind(&r.report_en)
    .bind(&r.report_de)
    .bind(r.adjudicated_ms)
    .bind(json("a phase's input", &r.input)?)
    .bind(json("a phase's notices", &r.notices)?)
    .bind(json("a phase's outcome", &r.outcome)?)
    .execute(&mut **tx)
    .await;
    super::inserted(inserted)
}

/// Moves the game on to its next phase.
pub(super) async fn advance(tx: &mut Tx, game: &str, next: &Advance) -> Result<(), DomainError> {
    let result = next.result.as_ref().map(|r| json("a game's result", r)).transpose()?;
    sqlx::query(
        "UPDATE games SET state_json = $1, phase = $2, deadline_ms = $3, status = $4, result_json = $5, \
         extensions = 0, in_grace = 0, pending_json = $6, paused_remaining_ms = $7 WHERE id = $8",
    )
    .bind(json("a game's state", &next.state)?)
    .bind(&next.phase)
    .bind(next.deadline_ms)
    .bind(next.status.as_str())
    .bind(result)
    .bind(json("orders waiting for later phases", &next.pending)?)
    .bind(next.paused_remaining_ms)
    .bind(game)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Replaces a power's orders for the phase, if the game is still in it: the `UPDATE` waits for
/// an adjudication in progress, which moves the phase on.
pub(super) async fn replace_orders(
    tx: &mut Tx,
    game: &str,
    power: &str,
    phase: &str,
    lines: &[String],
    now_ms: i64,
    ready: bool,
) -> Result<bool, DomainError> {
    if !claim(tx, game, phase, Claim::Now).await? {
        return Ok(false);
    }
    sqlx::query("DELETE FROM orders WHERE game_id = $1 AND power = $2 AND phase = $3")
        .bind(game)
        .bind(power)
        .bind(phase)
        .execute(&mut **tx)
        .await?;
    sqlx::query("INSERT INTO orders (game_id, power, phase, lines, updated_ms, ready) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(game)
        .bind(power)
        .bind(phase)
        .bind(json("a power's orders", &lines)?)
        .bind(now_ms)
        .bind(i64::from(ready))
        .execute(&mut **tx)
        .await?;
    Ok(true)
}

/// Marks a power's orders for the phase ready or not, if the game is still in it; a power
/// without orders stored gets an empty set (its units hold).
pub(super) async fn set_ready(
    tx: &mut Tx,
    game: &str,
    power: &str,
    phase: &str,
    ready: bool,
    now_ms: i64,
) -> Result<bool, DomainError> {
    if !claim(tx, game, phase, Claim::Now).await? {
        return Ok(false);
    }
    let updated =
        sqlx::query("UPDATE orders SET ready = $1, updated_ms = $2 WHERE game_id = $3 AND power = $4 AND phase = $5")
            .bind(i64::from(ready))
            .bind(now_ms)
            .bind(game)
            .bind(power)
            .bind(phase)
            .execute(&mut **tx)
            .await?;
    // Without orders stored, a mark makes an empty set (its units hold); taking a mark back
    // that was never made sends nothing.
    if updated.rows_affected() == 0 && ready {
        return replace_orders(tx, game, power, phase, &[], now_ms, ready).await;
    }
    Ok(true)
}

/// The lines a power stored for the phase, if any.
pub(super) async fn orders_of(
    tx: &mut Tx,
    game: &str,
    power: &str,
    phase: &str,
) -> Result<Option<Vec<String>>, DomainError> {
    let row = sqlx::query("SELECT lines FROM orders WHERE game_id = $1 AND power = $2 AND phase = $3")
        .bind(game)
        .bind(power)
        .bind(phase)
        .fetch_optional(&mut **tx)
        .await?;
    // Lines that cannot be read are an error: shown as none, the player would think nothing was
    // sent; adjudicated as none, they would be a missed turn.
    row.map(|r| {
        let lines: String = r.try_get("lines")?;
        serde_json::from_str(&lines).map_err(|e| unreadable("a power's orders", e))
    })
    .transpose()
}

/// A `phases` row read back.
#[derive(sqlx::FromRow)]
struct ResultRecord {
    phase: String,
    state_json: String,
    result_json: String,
    report_en: String,
    report_de: String,
    notices_json: Option<String>,
}

impl ResultRecord {
    /// The row as a stored result; a column that cannot be read is an error, never a default.
    fn read(self) -> Result<StoredResult, DomainError> {
        let before = serde_json::from_str(&self.state_json).map_err(|e| unreadable("a phase's state", e))?;
        let result = serde_json::from_str(&self.result_json).map_err(|e| unreadable("a phase's result", e))?;
        let notices = match self.notices_json {
            Some(text) => serde_json::from_str(&text).map_err(|e| unreadable("a phase's notices", e))?,
            None => BTreeMap::new(),
        };
        Ok(StoredResult {
            phase: self.phase,
            before,
            result,
            report_en: self.report_en,
            report_de: self.report_de,
            notices,
        })
    }
}

/// An adjudicated phase of the game, if it has one of that name.
pub(super) async fn result(tx: &mut Tx, game: &str, phase: &str) -> Result<Option<StoredResult>, DomainError> {
    let row: Option<ResultRecord> = sqlx::query_as(
        "SELECT phase, state_json, result_json, report_en, report_de, notices_json FROM phases \
         WHERE game_id = $1 AND phase = $2",
    )
    .bind(game)
    .bind(phase)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(ResultRecord::read).transpose()
}

/// Every adjudicated phase of the game, oldest first.
pub(super) async fn results(tx: &mut Tx, game: &str) -> Result<Vec<StoredResult>, DomainError> {
    let rows: Vec<ResultRecord> = sqlx::query_as(
        "SELECT phase, state_json, result_json, report_en, report_de, notices_json FROM phases \
         WHERE game_id = $1 ORDER BY adjudicated_ms, phase",
    )
    .bind(game)
    .fetch_all(&mut **tx)
    .await?;
    rows.into_iter().map(ResultRecord::read).collect()
}
