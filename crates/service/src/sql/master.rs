//! The master's changes to a running game: deadline, clock, players.

use sqlx::Row;

use crate::domain::{DomainError, Game};
use crate::names::name_key;

type Tx = sqlx::Transaction<'static, sqlx::Any>;

/// Moves the deadline of the phase the game was read in, if it may still be extended.
pub(super) async fn extend_deadline(tx: &mut Tx, g: &Game, ms: i64, max: i64) -> Result<bool, DomainError> {
    let extended = sqlx::query(
        "UPDATE games SET deadline_ms = deadline_ms + $1, extensions = extensions + 1 \
         WHERE id = $2 AND phase = $3 AND extensions < $4 AND paused_remaining_ms IS NULL",
    )
    .bind(ms)
    .bind(&g.id)
    .bind(&g.phase)
    .bind(max)
    .execute(&mut **tx)
    .await?;
    Ok(extended.rows_affected() == 1)
}

/// Stops the clock of the phase the game was read in.
pub(super) async fn pause(tx: &mut Tx, g: &Game, remaining_ms: i64) -> Result<bool, DomainError> {
    let paused = sqlx::query(
        "UPDATE games SET paused_remaining_ms = $1, deadline_ms = NULL \
         WHERE id = $2 AND phase = $3 AND paused_remaining_ms IS NULL AND status = 'active'",
    )
    .bind(remaining_ms)
    .bind(&g.id)
    .bind(&g.phase)
    .execute(&mut **tx)
    .await?;
    Ok(paused.rows_affected() == 1)
}

/// Starts the clock of a paused game.
pub(super) async fn resume(tx: &mut Tx, game: &str, deadline_ms: i64) -> Result<bool, DomainError> {
    let resumed = sqlx::query(
        "UPDATE games SET paused_remaining_ms = NULL, deadline_ms = $1 WHERE id = $2 AND paused_remaining_ms IS NOT NULL",
    )
    .bind(deadline_ms)
    .bind(game)
    .execute(&mut **tx)
    .await?;
    Ok(resumed.rows_affected() == 1)
}

/// The account with this name: its exact name first, else the same name as names compare.
pub(super) async fn account_named(tx: &mut Tx, name: &str) -> Result<Option<String>, DomainError> {
    let row = sqlx::query(
        "SELECT id FROM accounts WHERE name_key = $1 OR name = $2 ORDER BY CASE WHEN name = $2 THEN 0 ELSE 1 END LIMIT 1",
    )
    .bind(name_key(name))
    .bind(name.trim())
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(|r| r.try_get("id")).transpose()?)
}

/// Makes `account` the player of `power`.
pub(super) async fn seat_player(
    tx: &mut Tx,
    game: &str,
    power: &str,
    account: &str,
    was_observer: bool,
    now_ms: i64,
) -> Result<(), DomainError> {
    if was_observer {
        sqlx::query("DELETE FROM members WHERE game_id = $1 AND account_id = $2")
            .bind(game)
            .bind(account)
            .execute(&mut **tx)
            .await?;
    }
    let replaced = sqlx::query(
        "UPDATE members SET account_id = $1, missed = 0, civil_disorder = 0, draw_vote = 0, concede_to = NULL \
         WHERE game_id = $2 AND power = $3 AND role = 'player'",
    )
    .bind(account)
    .bind(game)
    .bind(power)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if replaced == 0 {
        // A power nobody played (in civil disorder from the start) gets its first player.
        sqlx::query(
            "INSERT INTO members (game_id, account_id, role, preferences, power, joined_ms) VALUES ($1, $2, 'player', '[]', $3, $4)",
        )
        .bind(game)
        .bind(account)
        .bind(power)
        .bind(now_ms)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}
