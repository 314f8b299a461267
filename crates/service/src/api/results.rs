//! Results: the report of each adjudicated phase in English and German, and a game's full history.

use axum::Json;
use axum::extract::{Path, State};
use serde_json::{Value, json};
use sqlx::Row;

use super::*;
use crate::error::refusals::*;

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
) -> ApiResult<Json<Value>> {
    let g = game(&state, &id).await?;
    may_read_history(&state, &g, &me).await?;
    let row = sqlx::query(
        "SELECT result_json, report_en, report_de, notices_json FROM phases WHERE game_id = $1 AND phase = $2",
    )
    .bind(&id)
    .bind(phase.to_ascii_uppercase())
    .fetch_optional(&state.store.pool)
    .await?
    .ok_or_else(|| ApiError::not_found("adjudicated phase", "Keine ausgewertete Phase dieses Namens"))?;
    let result: Value = serde_json::from_str(&row.get::<String, _>(0)).unwrap_or(Value::Null);
    let notices = own_notices(&state, &g, &me, row.get(3)).await?;
    Ok(Json(
        json!({"phase": phase.to_ascii_uppercase(), "result": result, "report_en": row.get::<String, _>(1),
               "report_de": row.get::<String, _>(2), "notices": notices}),
    ))
}

/// The notices of a phase for the caller's own power (retreats in advance not used, orders for a
/// phase not played): never another power's.
async fn own_notices(state: &AppState, g: &Game, me: &str, stored: Option<String>) -> ApiResult<Value> {
    let Some(power) = power_of(state, &g.id, me).await? else {
        return Ok(json!([]));
    };
    let mut all: std::collections::BTreeMap<String, Value> = match stored {
        Some(text) => serde_json::from_str(&text).map_err(|e| ApiError::unreadable("this phase's notices", e))?,
        None => Default::default(),
    };
    Ok(all.remove(&power).unwrap_or_else(|| json!([])))
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

/// One adjudicated phase in a game's history: the state before it (as every player may see it)
/// and its published result, both in the JSON interchange.
#[derive(serde::Serialize)]
pub(crate) struct HistoryPhase {
    phase: String,
    before: Value,
    result: Value,
}

/// A game's history: every adjudicated phase.
#[derive(serde::Serialize)]
pub(crate) struct History {
    /// The game's name.
    pub(crate) game: String,
    variant: String,
    phases: Vec<HistoryPhase>,
}

/// Every adjudicated phase of a game: the state before it and its result.
pub(crate) async fn all_phases(state: &AppState, me: &str, id: &str) -> ApiResult<History> {
    let g = game(state, id).await?;
    may_read_history(state, &g, me).await?;
    let rows = sqlx::query(
        "SELECT phase, state_json, result_json FROM phases WHERE game_id = $1 ORDER BY adjudicated_ms, phase",
    )
    .bind(id)
    .fetch_all(&state.store.pool)
    .await?;
    let mut phases = Vec::new();
    for r in &rows {
        // A stored result that cannot be read is an error, never a phase without result.
        let result = serde_json::from_str::<Value>(&r.get::<String, _>(2))
            .map_err(|e| ApiError::unreadable("a phase's result", e))?;
        phases.push(HistoryPhase {
            phase: r.get(0),
            before: published_state(Some(&r.get::<String, _>(1))),
            result,
        });
    }
    Ok(History {
        game: g.name,
        variant: g.variant,
        phases,
    })
}

/// A game's record as text: a heading, then the report of every adjudicated phase in `lang`,
/// oldest first. For those who may read its history.
pub(crate) async fn record(state: &AppState, me: &str, id: &str, lang: Lang) -> ApiResult<(Game, String)> {
    let g = game(state, id).await?;
    may_read_history(state, &g, me).await?;
    let v = variant(&g.variant)?;
    let rows = sqlx::query("SELECT report_en, report_de FROM phases WHERE game_id = $1 ORDER BY adjudicated_ms, phase")
        .bind(id)
        .fetch_all(&state.store.pool)
        .await?;
    let (title, column) = match lang {
        Lang::En => (format!("Diplomacy game {} ({})", g.name, v.title), 0),
        Lang::De => (format!("Diplomacy-Partie {} ({})", g.name, v.title_de), 1),
    };
    let mut text = format!("{title}\n{}\n", "=".repeat(title.chars().count()));
    for r in &rows {
        text.push('\n');
        text.push_str(r.get::<String, _>(column).trim_end());
        text.push('\n');
    }
    Ok((g, text))
}
