//! The game master's controls of a running game: extend the deadline (capped), pause and resume
//! the clock, and give a power to a new player. Each change is announced to the game's members.

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;

use super::*;
use crate::app;
use crate::app::master::{Clocked, Extended, Replaced};
use crate::app::ports::SystemClock;
use crate::error::refusals::*;

/// An extension of the current deadline.
#[derive(Deserialize, utoipa::ToSchema)]
pub(crate) struct Extension {
    seconds: i64,
}

/// A power handed to another account.
#[derive(Deserialize, utoipa::ToSchema)]
pub(crate) struct Replacement {
    power: String,
    /// The account name of the new player.
    player: String,
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/extend",
    tag = "master",
    summary = "(Master) Extend the current deadline: at most 7 days, 3 times a phase.",
    request_body = Extension,
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), BadRequest, Unauthorized, Forbidden, NotFound, Conflict, BadJson)
)]
pub(crate) async fn extend(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Extension>,
) -> ApiResult<Json<Extended>> {
    extend_deadline(&state, &me, &id, body.seconds).await.map(Json)
}

/// Extends the current deadline of `me`'s running game by `seconds` and tells its members.
pub(crate) async fn extend_deadline(state: &AppState, me: &str, id: &str, seconds: i64) -> ApiResult<Extended> {
    Ok(app::master::extend(&state.store, me, id, seconds).await?)
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/pause",
    tag = "master",
    summary = "(Master) Pause the clock; orders are still taken.",
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), Unauthorized, Forbidden, NotFound, Conflict)
)]
pub(crate) async fn pause(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Clocked>> {
    pause_game(&state, &me, &id).await.map(Json)
}

/// Stops the clock of `me`'s running game, keeping the time left, and tells its members.
pub(crate) async fn pause_game(state: &AppState, me: &str, id: &str) -> ApiResult<Clocked> {
    Ok(app::master::pause(&state.store, &SystemClock, me, id).await?)
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/resume",
    tag = "master",
    summary = "(Master) Resume the clock with the time that was left (at least a minute).",
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), Unauthorized, Forbidden, NotFound, Conflict)
)]
pub(crate) async fn resume(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Clocked>> {
    resume_game(&state, &me, &id).await.map(Json)
}

/// Starts the clock of `me`'s paused game again and tells its members.
pub(crate) async fn resume_game(state: &AppState, me: &str, id: &str) -> ApiResult<Clocked> {
    Ok(app::master::resume(&state.store, &SystemClock, me, id).await?)
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/replace",
    tag = "master",
    summary = "(Master) Give a power to another account.",
    request_body = Replacement,
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), BadRequest, Unauthorized, Forbidden, NotFound, Conflict, BadJson)
)]
pub(crate) async fn replace(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Replacement>,
) -> ApiResult<Json<Replaced>> {
    replace_player(&state, &me, &id, &body.power, &body.player)
        .await
        .map(Json)
}

/// Gives `power` of `me`'s running game to the account named `player` and tells its members.
pub(crate) async fn replace_player(
    state: &AppState,
    me: &str,
    id: &str,
    power: &str,
    player: &str,
) -> ApiResult<Replaced> {
    Ok(app::master::replace(&state.store, &SystemClock, me, id, power, player).await?)
}
