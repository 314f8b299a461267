//! Games before they run: creation, joining, the start.

use sqlx::Row;

use super::games::unreadable;
use crate::app::games::NewGameRecord;
use crate::domain::{DomainError, GameStatus, Role};

type Tx = sqlx::Transaction<'static, sqlx::Any>;

/// Stores a new game; false if its name is taken.
pub(super) async fn insert_game(tx: &mut Tx, g: &NewGameRecord) -> Result<bool, DomainError> {
    let taken = sqlx::query("SELECT id FROM games WHERE name_key = $1")
        .bind(&g.name_key)
        .fetch_optional(&mut **tx)
        .await?;
    if taken.is_some() {
        return Ok(false);
    }
    let s = &g.settings;
    let inserted = sqlx::query(
        "INSERT INTO games (id, name, variant, master_id, status, press, movement_seconds, retreat_seconds, adjustment_seconds, created_ms, early, nmr_limit, grace_seconds, time_zone, deadline_at, reminder_hours, name_key, control_rule, victory, retreats_with_moves, year_at_once, ready_names, calendar) \
         VALUES ($1, $2, $3, $4, 'forming', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)",
    )
    .bind(&g.id)
    .bind(&s.name)
    .bind(&s.variant)
    .bind(&g.master)
    .bind(s.press.as_str())
    .bind(s.seconds[0])
    .bind(s.seconds[1])
    .bind(s.seconds[2])
    .bind(g.created_ms)
    .bind(i64::from(s.early))
    .bind(s.nmr_limit)
    .bind(s.grace_seconds)
    .bind(&s.time_zone)
    .bind(&s.deadline_at)
    .bind(s.reminder_hours)
    .bind(&g.name_key)
    .bind(&s.options.control_rule)
    .bind(s.options.victory.map(i64::from))
    .bind(i64::from(s.options.retreats_with_moves))
    .bind(i64::from(s.options.year_at_once))
    .bind(i64::from(s.options.ready_names))
    .bind(&s.options.calendar)
    .execute(&mut **tx)
    .await;
    super::inserted(inserted)
}

/// Locks a game's row if it has `status`.
pub(super) async fn lock_status(tx: &mut Tx, game: &str, status: GameStatus) -> Result<bool, DomainError> {
    let locked = sqlx::query("UPDATE games SET status = status WHERE id = $1 AND status = $2")
        .bind(game)
        .bind(status.as_str())
        .execute(&mut **tx)
        .await?;
    Ok(locked.rows_affected() == 1)
}

/// Adds a member; false if the account is one already.
pub(super) async fn add_member(
    tx: &mut Tx,
    game: &str,
    account: &str,
    role: Role,
    preferences: &[String],
    now_ms: i64,
) -> Result<bool, DomainError> {
    let wishes = serde_json::to_string(preferences).map_err(|e| unreadable("a player's wishes", e))?;
    let inserted = sqlx::query(
        "INSERT INTO members (game_id, account_id, role, preferences, joined_ms) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(game)
    .bind(account)
    .bind(role.as_str())
    .bind(wishes)
    .bind(now_ms)
    .execute(&mut **tx)
    .await;
    super::inserted(inserted)
}

/// Removes a member from a forming game.
pub(super) async fn remove_member(tx: &mut Tx, game: &str, account: &str) -> Result<bool, DomainError> {
    let done = sqlx::query(
        "DELETE FROM members WHERE game_id = $1 AND account_id = $2 \
         AND EXISTS (SELECT 1 FROM games WHERE id = $1 AND status = 'forming')",
    )
    .bind(game)
    .bind(account)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Replaces a member's wishes.
pub(super) async fn set_wishes(
    tx: &mut Tx,
    game: &str,
    account: &str,
    preferences: &[String],
) -> Result<bool, DomainError> {
    let wishes = serde_json::to_string(preferences).map_err(|e| unreadable("a player's wishes", e))?;
    let done = sqlx::query(
        "UPDATE members SET preferences = $1 WHERE game_id = $2 AND account_id = $3 \
         AND EXISTS (SELECT 1 FROM games WHERE id = $2 AND status = 'forming')",
    )
    .bind(wishes)
    .bind(game)
    .bind(account)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Starts a forming game.
pub(super) async fn start_game(
    tx: &mut Tx,
    game: &str,
    seed: i64,
    state: &spielleiter_engine::interchange::GameState,
    deadline_ms: i64,
    phase: &str,
) -> Result<bool, DomainError> {
    let state = serde_json::to_string(state).map_err(|e| unreadable("a game's state", e))?;
    let started = sqlx::query(
        "UPDATE games SET status = 'active', lot_seed = $1, state_json = $2, deadline_ms = $3, phase = $4 \
         WHERE id = $5 AND status = 'forming'",
    )
    .bind(seed)
    .bind(state)
    .bind(deadline_ms)
    .bind(phase)
    .bind(game)
    .execute(&mut **tx)
    .await?;
    Ok(started.rows_affected() == 1)
}

/// The players' wishes in the order they joined (wishes that cannot be read are an error, never
/// silently none).
pub(super) async fn wishes(tx: &mut Tx, game: &str) -> Result<Vec<(String, Vec<String>)>, DomainError> {
    let rows = sqlx::query(
        "SELECT account_id, preferences FROM members WHERE game_id = $1 AND role = 'player' ORDER BY joined_ms, account_id",
    )
    .bind(game)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter()
        .map(|r| {
            let wishes: String = r.try_get("preferences")?;
            let wishes = serde_json::from_str(&wishes).map_err(|e| unreadable("a player's wishes", e))?;
            Ok((r.try_get("account_id")?, wishes))
        })
        .collect()
}

/// Gives a player a power.
pub(super) async fn assign_power(tx: &mut Tx, game: &str, account: &str, power: &str) -> Result<(), DomainError> {
    sqlx::query("UPDATE members SET power = $1 WHERE game_id = $2 AND account_id = $3")
        .bind(power)
        .bind(game)
        .bind(account)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
