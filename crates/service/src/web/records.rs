//! A game's record to download from its page: every report as text in the reader's language,
//! or every phase as JSON (the state before it and its result), as the API gives it.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use super::Viewer;
use crate::api::{AppState, results};
use crate::pictures::file_stem;

/// A file to save: its name made of the game's name (as the mailed maps name it) and `suffix`.
fn download(game_name: &str, suffix: &str, content_type: &'static str, body: Vec<u8>) -> Response {
    let stem = file_stem(game_name);
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{stem}-{suffix}\""),
            ),
            (header::CACHE_CONTROL, "no-store".to_string()),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
        ],
        body,
    )
        .into_response()
}

/// `GET /games/{id}/record.txt`: every report of the game, in the reader's language.
pub(crate) async fn text(State(state): State<AppState>, viewer: Viewer, Path(id): Path<String>) -> Response {
    let me = match viewer.account() {
        Ok(a) => a.clone(),
        Err(r) => return r,
    };
    match results::record(&state, &me.id, &id, viewer.t.engine_lang()).await {
        Ok((g, text)) => download(&g.name, "record.txt", "text/plain; charset=utf-8", text.into_bytes()),
        Err(e) => viewer.error(&e, "/games"),
    }
}

/// `GET /games/{id}/history.json`: every adjudicated phase, as `GET /api/games/{id}/history`.
pub(crate) async fn json(State(state): State<AppState>, viewer: Viewer, Path(id): Path<String>) -> Response {
    let me = match viewer.account() {
        Ok(a) => a.clone(),
        Err(r) => return r,
    };
    match results::all_phases(&state, &me.id, &id).await {
        Ok(history) => {
            let body = serde_json::to_vec_pretty(&history).unwrap_or_default();
            download(&history.game, "history.json", "application/json", body)
        }
        Err(e) => viewer.error(&e, "/games"),
    }
}
