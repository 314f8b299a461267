//! Adjudication of a phase: on the master's request or by the scheduler at the deadline, in one transaction.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use serde_json::{Value, json};
use sqlx::Row;

use super::orders::all_orders_in;
use super::*;

/// Adjudicates the game's current phase now: result, new state, reports and the messages to the
/// players are written in one transaction.
pub async fn adjudicate_game(state: &AppState, id: &str) -> ApiResult<Value> {
    let g = game(state, id).await?;
    if g.status != "active" {
        return Err(ApiError::conflict("the game is not running"));
    }
    let v = variant(&g.variant)?;
    let (game_state, position) = current_position(&v, &g)?;
    let phase = position.phase.to_string();
    let mut tx = state.store.pool.begin().await?;
    let rows = sqlx::query("SELECT power, lines FROM orders WHERE game_id = $1 AND phase = $2 ORDER BY power")
        .bind(id)
        .bind(&phase)
        .fetch_all(&mut *tx)
        .await?;
    let mut orders: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in &rows {
        orders.insert(
            r.get(0),
            serde_json::from_str(&r.get::<String, _>(1)).unwrap_or_default(),
        );
    }
    let input = AdjudicationInput {
        variant: Some(g.variant.clone()),
        state: game_state.clone(),
        orders,
        ..AdjudicationInput::default()
    };
    let (output, report) = adjudicate_with(&v, &input)
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()))?;
    let report_en = render(&v, &report, Lang::En);
    let report_de = render(&v, &report, Lang::De);
    let result_json = serde_json::to_string(&output).unwrap_or_default();
    let finished = output.winner.is_some() || output.next.phase == "COMPLETED";
    let seconds = match report.next.phase.kind {
        spielleiter_engine::PhaseKind::Movement => g.seconds[0],
        spielleiter_engine::PhaseKind::Retreat => g.seconds[1],
        spielleiter_engine::PhaseKind::Adjustment => g.seconds[2],
    };
    let now = now_ms();
    let inserted = sqlx::query(
        "INSERT INTO phases (game_id, phase, state_json, result_json, report_en, report_de, adjudicated_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(id)
    .bind(&phase)
    .bind(serde_json::to_string(&game_state).unwrap_or_default())
    .bind(&result_json)
    .bind(&report_en)
    .bind(&report_de)
    .bind(now)
    .execute(&mut *tx)
    .await;
    if inserted.is_err() {
        // The phase was adjudicated by a concurrent request: nothing is written twice.
        return Err(ApiError::conflict(format!("{phase} is adjudicated already")));
    }
    let next_state = serde_json::to_string(&output.next).unwrap_or_default();
    let result = output.result.as_ref().and_then(|r| serde_json::to_string(r).ok());
    sqlx::query("UPDATE games SET state_json = $1, deadline_ms = $2, status = $3, result_json = $4 WHERE id = $5")
        .bind(&next_state)
        .bind(now + seconds * 1000)
        .bind(if finished { "finished" } else { "active" })
        .bind(result)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    let members = sqlx::query("SELECT account_id FROM members WHERE game_id = $1")
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
    for m in &members {
        sqlx::query(
            "INSERT INTO outbox (id, game_id, account_id, subject, body, created_ms) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(new_id())
        .bind(id)
        .bind(m.get::<String, _>(0))
        .bind(format!("Diplomacy results {} {phase}", g.name))
        .bind(&report_en)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(
        json!({"phase": phase, "result": serde_json::from_str::<Value>(&result_json).unwrap_or(Value::Null), "report": report_en}),
    )
}

pub(crate) async fn adjudicate_now(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let me = account(&state, &headers).await?;
    let g = game(&state, &id).await?;
    if g.master != me {
        return Err(ApiError::forbidden(
            "only the game master adjudicates before the deadline",
        ));
    }
    adjudicate_game(&state, &id).await.map(Json)
}

/// The games whose deadline has passed, or (early adjudication) whose orders are all in.
pub async fn due_games(state: &AppState) -> ApiResult<Vec<String>> {
    let rows = sqlx::query("SELECT id, deadline_ms, early FROM games WHERE status = 'active'")
        .fetch_all(&state.store.pool)
        .await?;
    let now = now_ms();
    let mut due = Vec::new();
    for r in rows {
        let id: String = r.get(0);
        let deadline: Option<i64> = r.get(1);
        let early: i64 = r.get(2);
        if deadline.is_some_and(|d| d <= now) {
            due.push(id);
        } else if early != 0 {
            let g = game(state, &id).await?;
            let v = variant(&g.variant)?;
            if let Ok((_, position)) = current_position(&v, &g) {
                if all_orders_in(state, &g, &v, &position).await? {
                    due.push(id);
                }
            }
        }
    }
    Ok(due)
}
