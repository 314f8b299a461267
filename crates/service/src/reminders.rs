//! Deadline reminders: a game's `reminder_hours` before each deadline, the players of powers
//! whose orders are missing get a mail, once per phase (several processes never send two: the
//! phase is marked reminded in the same transaction that queues the mails).

use std::time::Duration;

use sqlx::Row;

use crate::api::adjudication::readiness;
use crate::api::{self, AppState};
use crate::domain::Notification;
use crate::error::ApiError;
use crate::store::now_ms;
use spielleiter_engine::report::Lang;

/// Sends due reminders every `tick` until the process ends.
pub async fn run(state: AppState, tick: Duration) {
    loop {
        match send_due(&state).await {
            Ok(0) => {}
            Ok(_) => state.mail_sent.notify_one(),
            Err(e) => eprintln!("sending deadline reminders: {e}"),
        }
        tokio::time::sleep(tick).await;
    }
}

/// Queues the reminders that are due now; returns how many games were reminded.
pub async fn send_due(state: &AppState) -> Result<usize, ApiError> {
    let now = now_ms();
    let rows = sqlx::query(
        "SELECT id FROM games WHERE status = 'active' AND paused_remaining_ms IS NULL AND reminder_hours > 0 \
         AND deadline_ms > $1 AND deadline_ms - reminder_hours * 3600000 <= $1 \
         AND (reminded_phase IS NULL OR reminded_phase <> phase)",
    )
    .bind(now)
    .fetch_all(&state.store.pool)
    .await?;
    let mut reminded = 0;
    for r in rows {
        let id: String = r.get(0);
        // One game that fails does not hold up the reminders of the others.
        match remind(state, &id).await {
            Ok(true) => reminded += 1,
            Ok(false) => {}
            Err(e) => eprintln!("reminding the players of game {id}: {e}"),
        }
    }
    Ok(reminded)
}

async fn remind(state: &AppState, id: &str) -> Result<bool, ApiError> {
    let g = api::game(state, id).await?;
    let v = api::variant(&g.variant)?;
    let Ok((_, position)) = api::current_position(&v, &g) else {
        return Ok(false);
    };
    let phase = position.phase.to_string();
    // A reminder comes at most half a phase before its deadline, so that a phase shorter than
    // the reminder time does not start with one.
    let phase_seconds = match phase.chars().last() {
        Some('R') => g.seconds[1],
        Some('A') => g.seconds[2],
        _ => g.seconds[0],
    };
    let window_ms = (g.reminder_hours * 3_600_000).min(phase_seconds * 1000 / 2);
    if g.deadline_ms.is_none_or(|d| d - window_ms > now_ms()) {
        return Ok(false);
    }
    let late = readiness(state, &g).await?.awaited;
    let mut tx = state.store.pool.begin().await?;
    let mine = sqlx::query(
        "UPDATE games SET reminded_phase = $1 WHERE id = $2 AND phase = $1 AND (reminded_phase IS NULL OR reminded_phase <> $1)",
    )
    .bind(&phase)
    .bind(id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if mine == 0 {
        return Ok(false);
    }
    let deadline = g
        .deadline_ms
        .map(|ms| g.deadline_rule().describe(ms))
        .unwrap_or_default();
    for power in &late {
        let row = sqlx::query(
            "SELECT a.id, a.lang FROM members m JOIN accounts a ON a.id = m.account_id WHERE m.game_id = $1 AND m.role = 'player' AND m.power = $2",
        )
        .bind(id)
        .bind(power)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else { continue };
        let (account, lang): (String, String) = (row.get(0), row.get(1));
        let news = Notification::OrdersMissing {
            game: g.name.clone(),
            phase: phase.clone(),
            power: power.clone(),
            deadline: deadline.clone(),
        };
        let lang: Lang = lang
            .parse()
            .map_err(|e| ApiError::unreadable("an account's language", e))?;
        let (subject, body) = crate::i18n::notification(&news, lang);
        api::queue_message(&mut tx, id, &account, &subject, &body).await?;
    }
    tx.commit().await?;
    Ok(true)
}
