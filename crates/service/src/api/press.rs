//! Press: private messages, broadcasts and game-master announcements, with grey and no-press games.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::Row;

use super::*;
use crate::error::refusals::*;

#[derive(Deserialize, utoipa::ToSchema)]
pub(crate) struct Press {
    /// Recipient powers; empty: everyone (a broadcast).
    #[serde(default)]
    to: Vec<String>,
    body: String,
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/press",
    tag = "press",
    summary = "Send press to some powers or to all (grey press hides the sender; refused in no-press games).",
    request_body = Press,
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 201, description = "Done", body = Object), BadRequest, Unauthorized, Forbidden, NotFound, BadJson)
)]
pub(crate) async fn send_press(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Press>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let g = game(&state, &id).await?;
    let v = variant(&g.variant)?;
    let power = power_of(&state, &id, &me).await?;
    let master = g.master == me;
    if power.is_none() && !master {
        return Err(ApiError::forbidden("only the game's players and master send press"));
    }
    if g.press == "none" && !master {
        return Err(ApiError::forbidden("this is a no-press game"));
    }
    if body.body.trim().is_empty() || body.body.len() > 20_000 {
        return Err(ApiError::bad_request(
            "bad_press",
            "a message has 1 to 20000 characters",
        ));
    }
    let mut recipients = Vec::new();
    for to in &body.to {
        let key = power_key(&v, to)?;
        recipients.push(key);
    }
    let phase = g
        .state_json
        .as_deref()
        .and_then(|s| serde_json::from_str::<GameState>(s).ok())
        .map(|s| s.phase)
        .unwrap_or_default();
    let press_id = new_id();
    sqlx::query(
        "INSERT INTO press (id, game_id, phase, from_account, from_power, recipients, grey, body, sent_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(&press_id)
    .bind(&id)
    .bind(&phase)
    .bind(&me)
    .bind(power)
    .bind(serde_json::to_string(&recipients).unwrap_or_default())
    .bind(i64::from(g.press == "grey"))
    .bind(body.body.trim())
    .bind(now_ms())
    .execute(&state.store.pool)
    .await?;
    Ok((StatusCode::CREATED, Json(json!({"id": press_id, "to": recipients}))))
}

#[utoipa::path(
    get,
    path = "/api/games/{id}/press",
    tag = "press",
    summary = "The press the caller may read: sent by, or to, the caller's power, and broadcasts.",
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), Unauthorized, Forbidden, NotFound)
)]
pub(crate) async fn read_press(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let g = game(&state, &id).await?;
    member_or_master(&state, &g, &me).await?;
    let mine = power_of(&state, &id, &me).await?;
    let rows = sqlx::query(
        "SELECT from_account, from_power, recipients, grey, body, sent_ms, phase FROM press WHERE game_id = $1 ORDER BY sent_ms, id",
    )
    .bind(&id)
    .fetch_all(&state.store.pool)
    .await?;
    let mut messages = Vec::new();
    for r in rows {
        let from_account: String = r.get(0);
        let from_power: Option<String> = r.get(1);
        let recipients: Vec<String> = serde_json::from_str(&r.get::<String, _>(2)).unwrap_or_default();
        let grey = r.get::<i64, _>(3) != 0;
        // A power's press belongs to the power: a replacing player reads what the power sent, the
        // replaced one no longer does. The master's own messages have no power.
        let sent_by_me = match (&from_power, &mine) {
            (Some(from), Some(my_power)) => from == my_power,
            (Some(_), None) => false,
            (None, _) => from_account == me,
        };
        let to_me = recipients.is_empty() || mine.as_ref().is_some_and(|p| recipients.contains(p));
        // Private press is for its sender and recipients only.
        if !sent_by_me && !to_me {
            continue;
        }
        let from = if from_power.is_none() {
            json!("Game master")
        } else if grey && !sent_by_me {
            Value::Null
        } else {
            json!(from_power)
        };
        messages.push(json!({"from": from, "to": recipients, "body": r.get::<String, _>(4),
                             "sent_ms": r.get::<i64, _>(5), "phase": r.get::<String, _>(6)}));
    }
    Ok(Json(json!({"messages": messages})))
}
