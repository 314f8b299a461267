//! Server-sent events for an open game page: an `state` event whenever the game's status or
//! phase changes (adjudication, start), so the page can show the new map.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use tokio::sync::broadcast;

use super::Viewer;
use crate::api::AppState;

/// What a page compares to know it is out of date: `status:phase`.
pub(crate) async fn version(state: &AppState, id: &str) -> Option<String> {
    let (status, phase) = crate::sql::sessions::game_version(&state.store.pool, id).await.ok()??;
    Some(format!("{status}:{}", phase.unwrap_or_default()))
}

/// `GET /games/{id}/events`: the game's version now, then each time it changes. Changes made
/// by this process arrive at once; those of another process (a second server on the same
/// PostgreSQL) within ten seconds.
pub(crate) async fn stream(State(state): State<AppState>, viewer: Viewer, Path(id): Path<String>) -> Response {
    if let Err(r) = viewer.account() {
        return r;
    }
    // An unknown game is a 404, which stops the browser from reconnecting.
    if let Err(e) = crate::api::game(&state, &id).await {
        return e.into_response();
    }
    let rx = state.game_changed.subscribe();
    let start = (state, id, rx, None::<String>, true);
    let events = futures_util::stream::unfold(start, |(state, id, mut rx, last, mut first)| async move {
        let poll = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            if !first {
                tokio::select! {
                    changed = rx.recv() => match changed {
                        Ok(game) if game != id => continue,
                        Err(broadcast::error::RecvError::Closed) => return None,
                        _ => {}
                    },
                    _ = tokio::time::sleep_until(poll) => {}
                }
            }
            first = false;
            let now = version(&state, &id).await?;
            if last.as_ref() != Some(&now) {
                let event = Event::default().event("state").data(now.clone());
                return Some((Ok::<Event, Infallible>(event), (state, id, rx, Some(now), first)));
            }
        }
    });
    Sse::new(events).keep_alive(KeepAlive::default()).into_response()
}
