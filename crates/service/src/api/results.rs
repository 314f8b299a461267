//! Results: the report of each adjudicated phase in English and German, and a game's full history.

use axum::Json;
use axum::extract::{Path, State};

use super::*;
use crate::app;
pub(crate) use crate::app::results::{History, PhaseView};
use crate::error::refusals::*;
use crate::sql::SqlUnit;

#[utoipa::path(
    get,
    path = "/api/games/{id}/phases/{phase}",
    tag = "results",
    summary = "The result of an adjudicated phase: JSON, and the report in English and German (members and master; everyone after the end).",
    params(("id" = String, Path, description = "The game's id"), ("phase" = String, Path, description = "A phase such as S1901M")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), Unauthorized, Forbidden, NotFound)
)]
pub(crate) async fn show_phase(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path((id, phase)): Path<(String, String)>,
) -> ApiResult<Json<PhaseView>> {
    let mut unit = SqlUnit::begin(&state.store).await?;
    Ok(Json(app::results::phase(&mut unit, &me, &id, &phase).await?))
}

#[utoipa::path(
    get,
    path = "/api/games/{id}/history",
    tag = "results",
    summary = "Every adjudicated phase of the game: the state before it and its result (members and master; everyone after the end).",
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), Unauthorized, Forbidden, NotFound)
)]
pub(crate) async fn history(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<History>> {
    all_phases(&state, &me, &id).await.map(Json)
}

/// Every adjudicated phase of a game: the state before it and its result.
pub(crate) async fn all_phases(state: &AppState, me: &str, id: &str) -> ApiResult<History> {
    let mut unit = SqlUnit::begin(&state.store).await?;
    Ok(app::results::history(&mut unit, me, id).await?)
}

/// A game's record as text: a heading, then the report of every adjudicated phase in `lang`,
/// oldest first. For those who may read its history.
pub(crate) async fn record(state: &AppState, me: &str, id: &str, lang: Lang) -> ApiResult<(Game, String)> {
    let mut unit = SqlUnit::begin(&state.store).await?;
    let record = app::results::record(&mut unit, me, id, lang).await?;
    let text = crate::i18n::record_text(&record, lang);
    Ok((record.game, text))
}
