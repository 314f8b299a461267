//! The deadline scheduler: adjudicates every game whose deadline has passed (missing orders are
//! holds, missing retreats disbands, missing disbands civil disorder), or whose orders are all in
//! when the game adjudicates early.

use std::time::Duration;

use crate::api::{AppState, adjudicate_game, due_games};

/// Checks for due games every `tick` until the process ends.
pub async fn run(state: AppState, tick: Duration) {
    let mut interval = tokio::time::interval(tick);
    loop {
        interval.tick().await;
        match due_games(&state).await {
            Ok(ids) => {
                for (id, phase) in ids {
                    // A conflict means another process or request adjudicated it first.
                    if let Err(e) = adjudicate_game(&state, &id, Some(&phase)).await {
                        if e.code != "conflict" {
                            eprintln!("adjudicating game {id}: {e}");
                        }
                    }
                }
            }
            Err(e) => eprintln!("looking for due games: {e}"),
        }
    }
}
