//! Orders: a player submits or replaces the orders of the current phase and is told how each line was read.

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};

use super::adjudication::{Trigger, adjudicate_game};
use super::*;
use crate::app;
use crate::app::ports::{GameUnit, SystemClock, Unit};
use crate::error::refusals::*;
use crate::sql::SqlUnit;

#[derive(Deserialize, utoipa::ToSchema)]
pub(crate) struct Orders {
    orders: Vec<String>,
    /// The orders are final ("ready"): early adjudication waits for every played power's. A
    /// submission without it takes back an earlier mark.
    #[serde(default)]
    ready: bool,
}

/// A mark of the caller's orders for the current phase as final, or its withdrawal.
#[derive(Deserialize, utoipa::ToSchema)]
pub(crate) struct ReadyMark {
    ready: bool,
}

/// What marking orders final did.
#[derive(Serialize)]
pub(crate) struct Marked {
    /// The phase.
    pub(crate) phase: String,
    /// The power.
    pub(crate) power: String,
    /// Whether its orders are final now.
    pub(crate) ready: bool,
    /// Whether every power was ready and the phase was adjudicated at once.
    pub(crate) adjudicated: bool,
}

/// What a submission of orders did: the phase and power they are for, how each line was read,
/// and whether the phase was adjudicated at once.
#[derive(Serialize)]
pub(crate) struct Submission {
    /// The phase ordered for, such as `S1901M`.
    pub(crate) phase: String,
    /// The power that ordered.
    pub(crate) power: String,
    /// One echo per line read.
    pub(crate) orders: Vec<Echo>,
    /// The orders that stand for the phase now, in the interchange notation (a second order
    /// for a unit refused; units left out hold).
    pub(crate) standing: Vec<String>,
    /// How many lines were stored (a line whose orders were all refused second orders is not).
    pub(crate) kept_lines: usize,
    /// How many lines were refused.
    pub(crate) errors: usize,
    /// What the orders standing for the phase leave out or overdo, in a sentence each (units
    /// without orders hold, builds not ordered are waived, …): warnings, nothing refused.
    pub(crate) warnings: Vec<String>,
    /// How many lines are for later phases.
    pub(crate) later_phases: usize,
    /// How many retreats were ordered in advance.
    pub(crate) advance_retreats: usize,
    /// Whether the orders were marked final.
    pub(crate) ready: bool,
    /// Whether every power was done and the phase was adjudicated at once.
    pub(crate) adjudicated: bool,
}

pub(crate) use crate::app::orders::StoredOrders;

pub(crate) use super::echo::{Echo, OrderLines, Reading, echo, echo_checked};

/// The lines `power` stored for `phase` of a game (none stored: empty).
pub(crate) async fn stored(state: &AppState, id: &str, power: &str, phase: &str) -> ApiResult<Vec<String>> {
    let mut unit = SqlUnit::begin(&state.store).await?;
    Ok(unit.orders_of(id, power, phase).await?.unwrap_or_default())
}

#[utoipa::path(
    put,
    path = "/api/games/{id}/orders",
    tag = "orders",
    summary = "Send or replace the caller's orders for the current phase; each line is echoed as read or with its error.",
    request_body = Orders,
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), BadRequest, Unauthorized, Forbidden, NotFound, Conflict, BadJson, RateLimited)
)]
pub(crate) async fn submit_orders(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Orders>,
) -> ApiResult<Json<Submission>> {
    let lines = OrderLines::plain(body.orders);
    submit(&state, &me, &id, &lines, body.ready, Lang::En).await.map(Json)
}

#[utoipa::path(
    put,
    path = "/api/games/{id}/ready",
    tag = "orders",
    summary = "Mark the caller's orders for the current phase final (ready) or take the mark back, without sending them again.",
    request_body = ReadyMark,
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), BadRequest, Unauthorized, Forbidden, NotFound, Conflict, BadJson, RateLimited)
)]
pub(crate) async fn mark_ready(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ReadyMark>,
) -> ApiResult<Json<Marked>> {
    set_ready(&state, &me, &id, body.ready).await.map(Json)
}

/// Marks `me`'s orders for the current phase final or not, and adjudicates at once when the game
/// allows it and every power is ready. The one path for the mark from the API, the web and mail.
pub(crate) async fn set_ready(state: &AppState, me: &str, id: &str, ready: bool) -> ApiResult<Marked> {
    state.limits.orders(me)?;
    let mut unit = SqlUnit::begin(&state.store).await?;
    let desk = app::orders::desk(&mut unit, me, id).await?;
    app::orders::mark_ready(&mut unit, &SystemClock, &desk, ready).await?;
    unit.commit().await?;
    let phase = desk.phase();
    let adjudicated = adjudicate_if_complete(state, &desk.game, &phase).await?;
    Ok(Marked {
        phase,
        power: desk.power_key,
        ready,
        adjudicated,
    })
}

/// Adjudicates the game at once if it adjudicates early and every power's orders are final.
async fn adjudicate_if_complete(state: &AppState, g: &crate::domain::Game, phase: &str) -> ApiResult<bool> {
    let mut unit = SqlUnit::begin(&state.store).await?;
    let complete = app::orders::complete_early(&mut unit, g).await?;
    drop(unit);
    if !complete {
        return Ok(false);
    }
    if adjudicate_game(state, &g.id, Trigger::Early(phase)).await.is_ok() {
        return Ok(true);
    }
    // The scheduler may have adjudicated the phase at once in the meantime (it claims the same
    // phase): adjudicated all the same.
    let now = super::game(state, &g.id).await?;
    Ok(now.phase.as_deref() != Some(phase))
}

/// Stores `lines` as the orders of `me`'s power for the current phase (replacing earlier ones;
/// a second order for a unit refused and left out), adjudicates at once when the game allows it
/// and everyone is done, and tells how each order was read (errors in `lang`). The one path for
/// orders from the API, the web and mail.
pub(crate) async fn submit(
    state: &AppState,
    me: &str,
    id: &str,
    lines: &OrderLines,
    ready: bool,
    lang: Lang,
) -> ApiResult<Submission> {
    state.limits.orders(me)?;
    let desk = app::orders::desk(&mut SqlUnit::begin(&state.store).await?, me, id).await?;
    let phase = desk.phase();
    let in_advance = desk.game.pending.covers(&desk.power_key, &phase);
    let Reading {
        read, echo, kept, gaps, ..
    } = echo_checked(
        desk.variant.clone(),
        desk.position.clone(),
        desk.power,
        lines.clone().with_orders_in_advance(in_advance),
        lang,
    )
    .await?;
    let errors = echo.iter().filter(|e| e.error.is_some()).count();
    let standing = read
        .lines
        .iter()
        .filter_map(|l| l.result.as_ref().ok())
        .map(|o| o.display(&desk.variant.map).to_string())
        .collect();
    let mut unit = SqlUnit::begin(&state.store).await?;
    app::orders::keep(&mut unit, &SystemClock, &desk, &kept, ready).await?;
    unit.commit().await?;
    let adjudicated = adjudicate_if_complete(state, &desk.game, &phase).await?;
    Ok(Submission {
        phase,
        power: desk.power_key,
        orders: echo,
        kept_lines: kept.len(),
        standing,
        errors,
        warnings: gaps,
        later_phases: read.later.len(),
        advance_retreats: read.advance.len(),
        ready,
        adjudicated,
    })
}

#[utoipa::path(
    get,
    path = "/api/games/{id}/orders",
    tag = "orders",
    summary = "The caller's orders for the current phase (never another power's).",
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), Unauthorized, Forbidden, NotFound, Conflict)
)]
pub(crate) async fn my_orders(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<StoredOrders>> {
    mine(&state, &me, &id).await.map(Json)
}

/// Where `me` reads orders against the position in game `id` (see
/// [`app::orders::reading_desk`]).
pub(crate) async fn reading_desk(state: &AppState, me: &str, id: &str) -> ApiResult<app::orders::Desk> {
    Ok(app::orders::reading_desk(&mut SqlUnit::begin(&state.store).await?, me, id).await?)
}

/// `me`'s orders for the current phase, and those waiting for later phases.
pub(crate) async fn mine(state: &AppState, me: &str, id: &str) -> ApiResult<StoredOrders> {
    Ok(app::orders::mine(&mut SqlUnit::begin(&state.store).await?, me, id).await?)
}
