//! The deadline scheduler: adjudicates every game whose deadline has passed (missing orders are
//! holds, missing retreats disbands, missing disbands civil disorder), or whose orders are all in
//! when the game adjudicates early.

use std::time::Duration;

use crate::api::{AppState, Trigger, adjudicate_game, due_games};

/// Checks for due games every `tick` until the process ends.
pub async fn run(state: AppState, tick: Duration) {
    let mut interval = tokio::time::interval(tick);
    loop {
        interval.tick().await;
        match due_games(&state).await {
            Ok(ids) => {
                for due in ids {
                    // Each adjudication runs as its own task, so that a panic in one game is
                    // reported and does not stop the deadlines of the others.
                    let state = state.clone();
                    let id = due.id.clone();
                    let task = tokio::spawn(async move {
                        let trigger = if due.early {
                            Trigger::Early(&due.phase)
                        } else {
                            Trigger::Deadline(&due.phase)
                        };
                        adjudicate_game(&state, &due.id, trigger).await.map(|_| ())
                    });
                    match task.await {
                        Ok(Ok(())) => {}
                        // Another process or request was first, or the master extended or paused.
                        Ok(Err(e)) if e.code == "conflict" => {}
                        Ok(Err(e)) => eprintln!("adjudicating game {id}: {e}"),
                        Err(e) => eprintln!("adjudicating game {id} failed: {e}"),
                    }
                }
            }
            Err(e) => eprintln!("looking for due games: {e}"),
        }
    }
}
