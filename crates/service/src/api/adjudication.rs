//! Adjudication of a phase, on the master's request or by the scheduler at the deadline: the
//! result, the new state, missed turns, the reports and the messages to send are written in one
//! transaction, so a crash at any moment loses no accepted order and publishes no result twice.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde_json::Value;
use sqlx::Row;

use spielleiter_engine::PhaseKind;
use spielleiter_engine::game::PhaseReport;
use spielleiter_engine::report::private_notices;

use super::*;
use crate::app::ports::{GameUnit, SystemClock};
use crate::app::position::to_order;
pub use crate::app::turns::DueGame;
use crate::app::turns::record_turns;
use crate::domain::play::Readiness;
use crate::domain::{GameStatus, Notification, PhaseResult};
use crate::error::refusals::*;
use crate::sql::SqlUnit;

/// Adjudicates the game's current phase now. Powers with something to order that sent nothing
/// have missed a turn; after the game's limit of missed turns in a row they are in civil disorder
/// (their player may still come back by sending orders, or the master replaces the player).
///
/// Only the phase the trigger names is adjudicated: a caller that found a phase due must not
/// adjudicate the next one when another request or process was first. A deadline adjudication
/// also checks, under the lock, that the deadline still stands (no extension, no pause since).
pub async fn adjudicate_game(state: &AppState, id: &str, trigger: Trigger<'_>) -> ApiResult<Adjudicated> {
    let g = game(state, id).await?;
    if g.status != crate::domain::GameStatus::Active {
        return Err(ApiError::conflict("the game is not running").de("Die Partie läuft nicht"));
    }
    let v = variant(&g.variant)?;
    let (game_state, position) = current_position(&v, &g)?;
    let phase = position.phase.to_string();
    if trigger.phase() != phase {
        return Err(
            ApiError::conflict(format!("{} is adjudicated already", trigger.phase()))
                .de(format!("{} ist schon ausgewertet", trigger.phase())),
        );
    }
    let mut unit = SqlUnit::begin(&state.store).await?;
    claim_phase(unit.tx(), trigger, id, &phase).await?;
    let orders = stored_orders(unit.tx(), id, &phase).await?;
    let input = AdjudicationInput {
        variant: Some(g.variant.clone()),
        state: game_state,
        orders,
        pending_retreats: g.pending.pending_retreats.clone(),
        pending_orders: g.pending.pending_orders.clone(),
        ..AdjudicationInput::default()
    };
    let done = run_engine(&v, &input, id, &phase)?;
    store_phase(unit.tx(), id, &phase, &input, &done).await?;
    let ordered = |p: &str| input.orders.contains_key(p) || g.pending.covers(p, &phase);
    let (missing, disorder) = record_turns(&mut unit, &g, &to_order(&v, &position), ordered).await?;
    let tx = unit.tx();
    // Draw votes and concessions are for the position they were given in.
    sqlx::query("UPDATE members SET draw_vote = 0, concede_to = NULL WHERE game_id = $1")
        .bind(id)
        .execute(&mut **tx)
        .await?;
    let next = advance_game(tx, &g, &done).await?;
    let news = Notification::Result(Box::new(PhaseResult {
        game: g.name.clone(),
        phase: phase.clone(),
        next_phase: next.phase.clone(),
        report_en: done.report_en.clone(),
        report_de: done.report_de.clone(),
        missing: missing.clone(),
        disorder: disorder.clone(),
        deadline: next.deadline_text.clone(),
    }));
    // Each result carries the maps of the phase: its orders with their outcomes, and the
    // position after them.
    notify_all(tx, &g, &news, Some(&phase)).await?;
    tell_senders(tx, &g, &v, &phase, &done.report).await?;
    if !state.adjudication_delay.is_zero() {
        eprintln!("adjudicating {} {phase}: holding the transaction open", g.name);
        tokio::time::sleep(state.adjudication_delay).await;
    }
    unit.commit().await?;
    state.changed(&g.id);
    Ok(Adjudicated {
        phase,
        result: serde_json::to_value(&done.published).unwrap_or(Value::Null),
        report: done.report_en,
        missing,
        civil_disorder: disorder,
    })
}

/// What an adjudication did: the phase, its published result, the English report, the powers
/// that missed it and those now in civil disorder.
#[derive(serde::Serialize)]
pub struct Adjudicated {
    phase: String,
    result: Value,
    report: String,
    missing: Vec<String>,
    civil_disorder: Vec<String>,
}

/// Claims the phase in the transaction: this locks the game's row, so order submissions and
/// other adjudications of the game wait, and only one adjudication of a phase gets past this
/// point. A deadline claim also checks that the deadline still stands.
async fn claim_phase(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    trigger: Trigger<'_>,
    id: &str,
    phase: &str,
) -> ApiResult<()> {
    let claimed = match trigger {
        Trigger::Master(_) => {
            sqlx::query("UPDATE games SET phase = $1 WHERE id = $2 AND phase = $1 AND status = 'active'")
        }
        Trigger::Deadline(_) => sqlx::query(
            "UPDATE games SET phase = $1 WHERE id = $2 AND phase = $1 AND status = 'active' \
             AND paused_remaining_ms IS NULL AND deadline_ms <= $3",
        ),
        Trigger::Early(_) => sqlx::query(
            "UPDATE games SET phase = $1 WHERE id = $2 AND phase = $1 AND status = 'active' \
             AND paused_remaining_ms IS NULL",
        ),
    }
    .bind(phase)
    .bind(id);
    let claimed = match trigger {
        Trigger::Deadline(_) => claimed.bind(now_ms()),
        _ => claimed,
    };
    if claimed.execute(&mut **tx).await?.rows_affected() == 0 {
        return Err(
            ApiError::conflict(format!("{phase} is not due: adjudicated already, extended or paused")).de(format!(
                "{phase} ist nicht fällig: schon ausgewertet, verlängert oder angehalten"
            )),
        );
    }
    Ok(())
}

/// The orders each power stored for the phase. A row that cannot be read is an error: read as
/// no orders, it would look like a missed turn.
async fn stored_orders(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    phase: &str,
) -> ApiResult<BTreeMap<String, Vec<String>>> {
    let rows = sqlx::query("SELECT power, lines FROM orders WHERE game_id = $1 AND phase = $2 ORDER BY power")
        .bind(id)
        .bind(phase)
        .fetch_all(&mut **tx)
        .await?;
    let mut orders = BTreeMap::new();
    for r in &rows {
        let lines: Vec<String> =
            serde_json::from_str(&r.get::<String, _>(1)).map_err(|e| ApiError::unreadable("a power's orders", e))?;
        orders.insert(r.get(0), lines);
    }
    Ok(orders)
}

/// One phase adjudicated by the engine: its output, report, the published result (without what
/// waits for later phases and without secrets) and what only the senders are told.
struct Done {
    output: spielleiter_engine::interchange::AdjudicationOutput,
    report: PhaseReport,
    report_en: String,
    report_de: String,
    published: spielleiter_engine::interchange::AdjudicationOutput,
    notices: BTreeMap<String, Vec<spielleiter_engine::interchange::RejectedOrder>>,
    /// What the phase's pictures show.
    outcome: crate::pictures::Outcome,
}

/// Runs the engine on the phase and splits what is published from what is not.
fn run_engine(v: &Variant, input: &AdjudicationInput, id: &str, phase: &str) -> ApiResult<Done> {
    let (output, report) = adjudicate_with(v, input).map_err(|e| {
        eprintln!("adjudicating game {id} {phase}: {e}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "the judge could not adjudicate this phase",
        )
        .de("Der Spielleiter konnte diese Phase nicht auswerten")
    })?;
    // The published result leaves out the orders that wait for later phases: they are secret
    // until their phase is adjudicated (they are kept with the game). What is told only to its
    // sender (retreats in advance not used, orders for a phase not played) is kept apart.
    let mut published = output.clone();
    published.pending_orders.clear();
    published.pending_retreats.clear();
    // Political factors, influence and control are never published (Hegemony, research D-22).
    published.next = published.next.without_secrets();
    let notices = std::mem::take(&mut published.notices);
    Ok(Done {
        outcome: crate::pictures::Outcome::of(v, &report, &published.next),
        report_en: render(v, &report, Lang::En),
        report_de: render(v, &report, Lang::De),
        output,
        report,
        published,
        notices,
    })
}

/// Stores the adjudicated phase: the state before it, the published result, the reports, the
/// input (for drawing its pictures) and the senders' notices.
async fn store_phase(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    phase: &str,
    input: &AdjudicationInput,
    done: &Done,
) -> ApiResult<()> {
    let inserted = sqlx::query(
        "INSERT INTO phases (game_id, phase, state_json, result_json, report_en, report_de, adjudicated_ms, input_json, notices_json, outcome_json) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(id)
    .bind(phase)
    .bind(serde_json::to_string(&input.state).unwrap_or_default())
    .bind(serde_json::to_string(&done.published).unwrap_or_default())
    .bind(&done.report_en)
    .bind(&done.report_de)
    .bind(now_ms())
    .bind(serde_json::to_string(input).unwrap_or_default())
    .bind(serde_json::to_string(&done.notices).unwrap_or_default())
    .bind(serde_json::to_string(&done.outcome).unwrap_or_default())
    .execute(&mut **tx)
    .await;
    match inserted {
        Ok(_) => Ok(()),
        Err(e) if is_unique_violation(&e) => {
            Err(ApiError::conflict(format!("{phase} is adjudicated already"))
                .de(format!("{phase} ist schon ausgewertet")))
        }
        Err(e) => Err(e.into()),
    }
}

/// Where the game goes after the phase: its next phase (`COMPLETED` at the end) and deadline.
struct Next {
    phase: String,
    deadline_text: Option<String>,
}

/// Moves the game on to its next phase: state, deadline (none when finished or paused, then the
/// whole next phase's time kept), status, result and the orders waiting for later phases.
async fn advance_game(tx: &mut sqlx::Transaction<'_, sqlx::Any>, g: &Game, done: &Done) -> ApiResult<Next> {
    let output = &done.output;
    let finished = output.winner.is_some() || output.next.phase == "COMPLETED";
    let seconds = match done.report.next.phase.kind {
        PhaseKind::Movement => g.seconds[0],
        PhaseKind::Retreat => g.seconds[1],
        PhaseKind::Adjustment => g.seconds[2],
    };
    let next_phase = if finished {
        "COMPLETED".to_string()
    } else {
        output.next.phase.clone()
    };
    let rule = g.deadline_rule();
    let paused = g.paused_remaining_ms.is_some() && !finished;
    let next_deadline = (!finished && !paused).then(|| rule.next(now_ms(), seconds));
    let pending = Pending {
        pending_retreats: output.pending_retreats.clone(),
        pending_orders: output.pending_orders.clone(),
    };
    sqlx::query(
        "UPDATE games SET state_json = $1, phase = $2, deadline_ms = $3, status = $4, result_json = $5, \
         extensions = 0, in_grace = 0, pending_json = $6, paused_remaining_ms = $7 WHERE id = $8",
    )
    .bind(serde_json::to_string(&output.next).unwrap_or_default())
    .bind(&next_phase)
    .bind(next_deadline)
    .bind(
        if finished {
            GameStatus::Finished
        } else {
            GameStatus::Active
        }
        .as_str(),
    )
    .bind(output.result.as_ref().and_then(|r| serde_json::to_string(r).ok()))
    .bind(serde_json::to_string(&pending).unwrap_or_default())
    .bind(paused.then_some(seconds * 1000))
    .bind(&g.id)
    .execute(&mut **tx)
    .await?;
    Ok(Next {
        phase: next_phase,
        deadline_text: next_deadline.map(|d| rule.describe(d)),
    })
}

/// What asks for an adjudication, with the phase it found due.
#[derive(Debug, Clone, Copy)]
pub enum Trigger<'a> {
    /// The game master, now.
    Master(&'a str),
    /// The scheduler: the deadline (and any grace period) has passed.
    Deadline(&'a str),
    /// Every awaited power has sent orders, in a game that adjudicates early.
    Early(&'a str),
}

impl<'a> Trigger<'a> {
    fn phase(&self) -> &'a str {
        match *self {
            Trigger::Master(p) | Trigger::Deadline(p) | Trigger::Early(p) => p,
        }
    }
}

/// Mails each played power what the adjudication tells only it: its retreats ordered in advance
/// that were not used and its orders for phases not played, with the reasons. Nobody else
/// learns of them.
async fn tell_senders(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    g: &Game,
    v: &Variant,
    phase: &str,
    report: &PhaseReport,
) -> ApiResult<()> {
    let rows = sqlx::query(
        "SELECT account_id, power FROM members WHERE game_id = $1 AND role = 'player' AND power IS NOT NULL",
    )
    .bind(&g.id)
    .fetch_all(&mut **tx)
    .await?;
    for r in rows {
        let power_key: String = r.get(1);
        let Some(power) = v.map.power_by_name(&power_key) else {
            continue;
        };
        let en = private_notices(report, power, Lang::En);
        if en.is_empty() {
            continue;
        }
        let news = Notification::OrdersNotUsed {
            game: g.name.clone(),
            phase: phase.to_string(),
            power: power_key.clone(),
            lines_en: en,
            lines_de: private_notices(report, power, Lang::De),
        };
        notify(tx, &g.id, &r.get::<String, _>(0), &news).await?;
    }
    Ok(())
}

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
    master_only(&g, me, "adjudicates before the deadline")?;
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
    let rows = sqlx::query(
        "SELECT id FROM games WHERE status = 'active' AND paused_remaining_ms IS NULL AND (deadline_ms <= $1 OR early = 1)",
    )
    .bind(now_ms())
    .fetch_all(&state.store.pool)
    .await?;
    let mut due = Vec::new();
    for r in rows {
        let id: String = r.get(0);
        match crate::app::turns::check_due(&state.store, &SystemClock, &id).await {
            Ok(Some(d)) => due.push(d),
            Ok(None) => {}
            Err(e) => eprintln!("checking the deadline of game {id}: {e:?}"),
        }
    }
    Ok(due)
}
