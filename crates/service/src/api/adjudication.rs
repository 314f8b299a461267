//! Adjudication of a phase, on the master's request or by the scheduler at the deadline: the
//! result, the new state, missed turns, the reports and the messages to send are written in one
//! transaction, so a crash at any moment loses no accepted order and publishes no result twice.

use axum::Json;
use axum::extract::{Path, State};

use super::*;
use crate::app::ports::{SystemClock, Unit};
pub use crate::app::turns::DueGame;
use crate::domain::play::Readiness;
use crate::error::refusals::*;
use crate::sql::SqlUnit;

/// Adjudicates the game's current phase now (see [`crate::app::adjudication::adjudicate`]),
/// in one transaction, and tells the open pages.
pub async fn adjudicate_game(state: &AppState, id: &str, trigger: Trigger<'_>) -> ApiResult<Adjudicated> {
    let mut unit = SqlUnit::begin(&state.store).await?;
    let done = crate::app::adjudication::adjudicate(&mut unit, &SystemClock, id, trigger).await?;
    if !state.adjudication_delay.is_zero() {
        let name = crate::sql::games::game(&mut **unit.tx(), id).await?.name;
        eprintln!("adjudicating {name} {}: holding the transaction open", done.phase);
        tokio::time::sleep(state.adjudication_delay).await;
    }
    unit.commit().await?;
    state.changed(id);
    Ok(done)
}

pub use crate::app::adjudication::{Adjudicated, Trigger};

#[utoipa::path(
    post,
    path = "/api/games/{id}/adjudicate",
    tag = "adjudication",
    summary = "(Master) Adjudicate the current phase now.",
    params(
        ("id" = String, Path, description = "The game's id"),
        AdjudicateQuery
    ),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), Unauthorized, Forbidden, NotFound, Conflict)
)]
pub(crate) async fn adjudicate_now(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<AdjudicateQuery>,
) -> ApiResult<Json<Adjudicated>> {
    adjudicate_as_master(&state, &me, &id, query.phase.as_deref(), true)
        .await
        .map(Json)
}

/// Adjudicates `me`'s game now, if its current phase is still `phase` (none: whatever is
/// current). Unless `missing_confirmed`, refuses while orders are awaited (each would count as a
/// missed turn), naming the powers to the master.
pub(crate) async fn adjudicate_as_master(
    state: &AppState,
    me: &str,
    id: &str,
    phase: Option<&str>,
    missing_confirmed: bool,
) -> ApiResult<Adjudicated> {
    let g = game(state, id).await?;
    master_only(&g, me, crate::domain::MasterAction::Adjudicate)?;
    if !missing_confirmed {
        let awaited = readiness(state, &g).await?.awaited;
        if !awaited.is_empty() {
            let powers = awaited.join(", ");
            return Err(ApiError::conflict(format!(
                "orders are still awaited from {powers}: confirm to adjudicate without them"
            ))
            .de(format!(
                "Es fehlen noch Befehle von {powers}: zum Auswerten ohne sie bestätigen"
            )));
        }
    }
    let phase = match phase {
        Some(p) => p.trim().to_ascii_uppercase(),
        None => g.phase.clone().unwrap_or_default(),
    };
    adjudicate_game(state, id, Trigger::Master(&phase)).await
}

/// Which phase the master means to adjudicate.
#[derive(serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct AdjudicateQuery {
    /// The phase the master sees (`S1901M`): when it has been adjudicated meanwhile (a repeated
    /// click, the deadline), the request is refused instead of adjudicating the next phase.
    phase: Option<String>,
}

/// The readiness of a game's current phase.
pub(crate) async fn readiness(state: &AppState, g: &Game) -> ApiResult<Readiness> {
    let mut unit = SqlUnit::begin(&state.store).await?;
    Ok(crate::app::turns::readiness(&mut unit, g).await?)
}

/// The games to adjudicate now: deadline passed (after the grace period, if the game has one and
/// a played power is late), or, in games that adjudicate early, every awaited power has ordered.
/// Starting a grace period is done here too. Paused games are never due. A game whose check
/// fails is reported in the log and left for the next round.
pub async fn due_games(state: &AppState) -> ApiResult<Vec<DueGame>> {
    let ids = crate::sql::reads::deadline_candidates(&state.store.pool, now_ms()).await?;
    let mut due = Vec::new();
    for id in ids {
        match crate::app::turns::check_due(&state.store, &SystemClock, &id).await {
            Ok(Some(d)) => due.push(d),
            Ok(None) => {}
            Err(e) => eprintln!("checking the deadline of game {id}: {e:?}"),
        }
    }
    Ok(due)
}
