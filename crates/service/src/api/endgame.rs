//! The end of a game by agreement: a draw voted by every survivor and shared by all of them
//! (DIAS), or a concession of the game to one power by every other survivor. Survivors in civil
//! disorder have no say.

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;

use super::*;
use crate::app;
pub(crate) use crate::app::endgame::{Conceded, DrawVoted};
use crate::error::refusals::*;

/// A draw vote: yes, or no (which withdraws an earlier yes).
#[derive(Deserialize, utoipa::ToSchema)]
pub(crate) struct DrawVote {
    vote: bool,
}

/// A concession of the game to a power; none withdraws an earlier concession.
#[derive(Deserialize, utoipa::ToSchema)]
pub(crate) struct Concession {
    to: Option<String>,
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/draw",
    tag = "endgame",
    summary = "Vote for (or withdraw from) a draw of all survivors.",
    request_body = DrawVote,
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), Unauthorized, Forbidden, NotFound, Conflict, BadJson)
)]
pub(crate) async fn vote_draw(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<DrawVote>,
) -> ApiResult<Json<DrawVoted>> {
    vote(&state, &me, &id, body.vote).await.map(Json)
}

/// Records `me`'s draw vote (yes, or no to withdraw a yes) and ends the game in a draw when every
/// deciding survivor has voted yes.
pub(crate) async fn vote(state: &AppState, me: &str, id: &str, yes: bool) -> ApiResult<DrawVoted> {
    Ok(app::endgame::vote(&state.store, me, id, yes).await?)
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/concede",
    tag = "endgame",
    summary = "Concede the game to a power (or withdraw the concession).",
    request_body = Concession,
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), BadRequest, Unauthorized, Forbidden, NotFound, Conflict, BadJson)
)]
pub(crate) async fn concede(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Concession>,
) -> ApiResult<Json<Conceded>> {
    concede_to(&state, &me, &id, body.to.as_deref()).await.map(Json)
}

/// Concedes the game to the power `to` (none: withdraws the concession); the game ends when every
/// other deciding survivor has conceded to the same power.
pub(crate) async fn concede_to(state: &AppState, me: &str, id: &str, to: Option<&str>) -> ApiResult<Conceded> {
    Ok(app::endgame::concede(&state.store, me, id, to).await?)
}
