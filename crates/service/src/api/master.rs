//! The game master's controls of a running game: extend the deadline (capped), pause and resume
//! the clock, and give a power to a new player. Each change is announced to the game's members.

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::Row;

use super::*;
use crate::domain::Notification;
use crate::error::refusals::*;

/// The longest single extension.
const MAX_EXTENSION_SECONDS: i64 = 7 * 24 * 3600;
/// Extensions allowed per phase.
const MAX_EXTENSIONS: i64 = 3;

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

/// The game, if the caller is its master and it is running.
async fn running_game_of_master(state: &AppState, me: &str, id: &str, what: &str) -> ApiResult<Game> {
    let g = game(state, id).await?;
    master_only(&g, me, what)?;
    if g.status != crate::domain::GameStatus::Active {
        return Err(ApiError::conflict("the game is not running").de("Die Partie läuft nicht"));
    }
    Ok(g)
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
) -> ApiResult<Json<Value>> {
    extend_deadline(&state, &me, &id, body.seconds).await.map(Json)
}

/// Extends the current deadline of `me`'s running game by `seconds` and tells its members.
pub(crate) async fn extend_deadline(state: &AppState, me: &str, id: &str, seconds: i64) -> ApiResult<Value> {
    let g = running_game_of_master(state, me, id, "extends deadlines").await?;
    if !(1..=MAX_EXTENSION_SECONDS).contains(&seconds) {
        return Err(
            ApiError::bad_request("bad_extension", "an extension is 1 second to 7 days")
                .de("Eine Verlängerung ist 1 Sekunde bis 7 Tage lang"),
        );
    }
    if g.paused_remaining_ms.is_some() {
        return Err(ApiError::conflict("the game is paused: resume it first").de("Die Partie ruht: erst fortsetzen"));
    }
    // The change and its announcement are one transaction.
    let mut tx = state.store.pool.begin().await?;
    let extended = sqlx::query(
        "UPDATE games SET deadline_ms = deadline_ms + $1, extensions = extensions + 1 \
         WHERE id = $2 AND phase = $3 AND extensions < $4 AND paused_remaining_ms IS NULL",
    )
    .bind(seconds * 1000)
    .bind(id)
    .bind(&g.phase)
    .bind(MAX_EXTENSIONS)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if extended == 0 {
        return Err(ApiError::conflict(format!(
            "a phase's deadline is extended at most {MAX_EXTENSIONS} times, and only while it runs"
        ))
        .de(format!(
            "Die Abgabefrist einer Phase wird höchstens {MAX_EXTENSIONS}-mal verlängert, und nur solange sie läuft"
        )));
    }
    let row = sqlx::query("SELECT deadline_ms, extensions FROM games WHERE id = $1")
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
    let (deadline, extensions): (Option<i64>, i64) = (row.get(0), row.get(1));
    let at = deadline.map(|d| g.deadline_rule().describe(d)).unwrap_or_default();
    let minutes = seconds / 60;
    let news = Notification::DeadlineExtended {
        game: g.name.clone(),
        minutes,
        deadline: at,
    };
    notify_all(&mut tx, &g, &news, None).await?;
    tx.commit().await?;
    Ok(json!({"deadline_ms": deadline, "extensions": extensions, "max_extensions": MAX_EXTENSIONS}))
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
) -> ApiResult<Json<Value>> {
    pause_game(&state, &me, &id).await.map(Json)
}

/// Stops the clock of `me`'s running game, keeping the time left, and tells its members.
pub(crate) async fn pause_game(state: &AppState, me: &str, id: &str) -> ApiResult<Value> {
    let g = running_game_of_master(state, me, id, "pauses the game").await?;
    let remaining = g.deadline_ms.map_or(0, |d| (d - now_ms()).max(0));
    let mut tx = state.store.pool.begin().await?;
    // Only the phase whose deadline was read: an adjudication in between makes this a conflict.
    let paused = sqlx::query(
        "UPDATE games SET paused_remaining_ms = $1, deadline_ms = NULL \
         WHERE id = $2 AND phase = $3 AND paused_remaining_ms IS NULL AND status = 'active'",
    )
    .bind(remaining)
    .bind(id)
    .bind(&g.phase)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if paused == 0 {
        return Err(
            ApiError::conflict("the game is paused already, or its phase has just been adjudicated")
                .de("Die Partie ruht schon, oder ihre Phase wurde gerade ausgewertet"),
        );
    }
    notify_all(&mut tx, &g, &Notification::Paused { game: g.name.clone() }, None).await?;
    tx.commit().await?;
    Ok(json!({"paused": true, "remaining_ms": remaining}))
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
) -> ApiResult<Json<Value>> {
    resume_game(&state, &me, &id).await.map(Json)
}

/// Starts the clock of `me`'s paused game again and tells its members.
pub(crate) async fn resume_game(state: &AppState, me: &str, id: &str) -> ApiResult<Value> {
    let g = running_game_of_master(state, me, id, "resumes the game").await?;
    let Some(remaining) = g.paused_remaining_ms else {
        return Err(ApiError::conflict("the game is not paused").de("Die Partie ruht nicht"));
    };
    // At least a minute, so nobody is surprised by an adjudication the moment play resumes.
    let deadline = now_ms() + remaining.max(60_000);
    let mut tx = state.store.pool.begin().await?;
    let resumed = sqlx::query(
        "UPDATE games SET paused_remaining_ms = NULL, deadline_ms = $1 WHERE id = $2 AND paused_remaining_ms IS NOT NULL",
    )
    .bind(deadline)
    .bind(id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if resumed == 0 {
        return Err(ApiError::conflict("the game is not paused").de("Die Partie ruht nicht"));
    }
    let at = g.deadline_rule().describe(deadline);
    let news = Notification::Resumed {
        game: g.name.clone(),
        deadline: at,
    };
    notify_all(&mut tx, &g, &news, None).await?;
    tx.commit().await?;
    Ok(json!({"paused": false, "deadline_ms": deadline}))
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
) -> ApiResult<Json<Value>> {
    replace_player(&state, &me, &id, &body.power, &body.player)
        .await
        .map(Json)
}

/// Gives `power` of `me`'s running game to the account named `player` and tells the members.
pub(crate) async fn replace_player(
    state: &AppState,
    me: &str,
    id: &str,
    power: &str,
    player: &str,
) -> ApiResult<Value> {
    let g = running_game_of_master(state, me, id, "replaces players").await?;
    let v = variant(&g.variant)?;
    let power = power_key(&v, power)?;
    let new = super::accounts::find_by_name(state, player)
        .await?
        .map(|(id, _, _)| id)
        .ok_or_else(|| ApiError::not_found("account", "Dieses Konto gibt es nicht"))?;
    let mut tx = state.store.pool.begin().await?;
    let existing = sqlx::query("SELECT role FROM members WHERE game_id = $1 AND account_id = $2")
        .bind(id)
        .bind(&new)
        .fetch_optional(&mut *tx)
        .await?
        .map(|r| r.get::<String, _>(0));
    match existing.as_deref() {
        Some("player") => {
            return Err(ApiError::conflict("that account plays in this game already")
                .de("Dieses Konto spielt schon in dieser Partie"));
        }
        // An observer becomes the player.
        Some(_) => {
            sqlx::query("DELETE FROM members WHERE game_id = $1 AND account_id = $2")
                .bind(id)
                .bind(&new)
                .execute(&mut *tx)
                .await?;
        }
        None => {}
    }
    let replaced = sqlx::query(
        "UPDATE members SET account_id = $1, missed = 0, civil_disorder = 0, draw_vote = 0, concede_to = NULL \
         WHERE game_id = $2 AND power = $3 AND role = 'player'",
    )
    .bind(&new)
    .bind(id)
    .bind(&power)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if replaced == 0 {
        // A power nobody played (in civil disorder from the start) gets its first player.
        sqlx::query(
            "INSERT INTO members (game_id, account_id, role, preferences, power, joined_ms) VALUES ($1, $2, 'player', '[]', $3, $4)",
        )
        .bind(id)
        .bind(&new)
        .bind(&power)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
    }
    // The power's earlier sessions lose nothing: its orders are the power's, not the player's.
    let player = player.trim();
    let news = Notification::NewPlayer {
        game: g.name.clone(),
        player: player.to_string(),
        power: power.clone(),
    };
    notify_all(&mut tx, &g, &news, None).await?;
    tx.commit().await?;
    Ok(json!({"power": power, "player": player}))
}
