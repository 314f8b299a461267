//! Deadline reminders: a game's `reminder_hours` before each deadline, the players of powers
//! whose orders are missing get a mail, once per phase (several processes never send two: the
//! phase is marked reminded in the same transaction that queues the mails).

use std::time::Duration;

use crate::api::AppState;
use crate::error::ApiError;
use crate::store::now_ms;

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
    let mut reminded = 0;
    for id in crate::sql::reads::reminder_candidates(&state.store.pool, now).await? {
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
    Ok(crate::app::turns::remind(&state.store, &crate::app::ports::SystemClock, id).await?)
}
