//! The JSON HTTP API: accounts and sessions, games, orders, adjudication and results.

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::Row;

use spielleiter_engine::adjudication::adjudicate_with;
use spielleiter_engine::game::PhaseOrders;
use spielleiter_engine::interchange::{AdjudicationInput, GameState, position_from_state, state_from_position};
use spielleiter_engine::report::{Lang, render};
use spielleiter_engine::{Position, Variant};

use crate::auth::{hash_password, new_id, new_token, token_hash, verify_password};
use crate::error::ApiError;
use crate::lot;
use crate::store::{Store, now_ms};

/// Shared state of the request handlers.
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub store: Store,
}

/// The routes of the API.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/api/accounts", post(create_account))
        .route("/api/sessions", post(create_session))
        .route("/api/games", post(create_game))
        .route("/api/games/{id}", get(show_game))
        .route("/api/games/{id}/join", post(join_game))
        .route("/api/games/{id}/start", post(start_game))
        .route("/api/games/{id}/orders", put(submit_orders).get(my_orders))
        .route("/api/games/{id}/adjudicate", post(adjudicate_now))
        .route("/api/games/{id}/phases/{phase}", get(show_phase))
        .route("/api/games/{id}/history", get(history))
        .route("/api/games/{id}/press", post(send_press).get(read_press))
        .route("/api/games/{id}/draw", post(vote_draw))
        .with_state(state)
}

type ApiResult<T> = Result<T, ApiError>;

fn variant(name: &str) -> ApiResult<Variant> {
    match spielleiter_engine::variant::builtin(name) {
        Some(Ok(v)) => Ok(v),
        _ => Err(ApiError::bad_request(
            "unknown_variant",
            format!("unknown variant `{name}`"),
        )),
    }
}

/// The account of the request's `Authorization: Bearer TOKEN`.
async fn account(state: &AppState, headers: &HeaderMap) -> ApiResult<String> {
    let token = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .ok_or_else(ApiError::unauthorized)?;
    let row = sqlx::query("SELECT account_id FROM sessions WHERE token_hash = $1 AND expires_ms > $2")
        .bind(token_hash(token.trim()))
        .bind(now_ms())
        .fetch_optional(&state.store.pool)
        .await?;
    row.map(|r| r.get::<String, _>(0)).ok_or_else(ApiError::unauthorized)
}

#[derive(Deserialize)]
struct NewAccount {
    name: String,
    email: String,
    password: String,
}

async fn create_account(
    State(state): State<AppState>,
    Json(body): Json<NewAccount>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let name = body.name.trim();
    if name.is_empty()
        || name.chars().count() > 40
        || !name
            .chars()
            .all(|c| c.is_alphanumeric() || c == ' ' || c == '_' || c == '-')
    {
        return Err(ApiError::bad_request(
            "bad_name",
            "a name has 1 to 40 letters, digits, spaces, _ or -",
        ));
    }
    if body.password.chars().count() < 8 {
        return Err(ApiError::bad_request(
            "weak_password",
            "a password has at least 8 characters",
        ));
    }
    if !body.email.contains('@') {
        return Err(ApiError::bad_request("bad_email", "an e-mail address has an @"));
    }
    let taken = sqlx::query("SELECT id FROM accounts WHERE name = $1")
        .bind(name)
        .fetch_optional(&state.store.pool)
        .await?;
    if taken.is_some() {
        return Err(ApiError::conflict(format!("the name `{name}` is taken")));
    }
    let hash = hash_password(&body.password).map_err(|e| ApiError::bad_request("bad_password", e))?;
    let id = new_id();
    sqlx::query("INSERT INTO accounts (id, name, email, password_hash, created_ms) VALUES ($1, $2, $3, $4, $5)")
        .bind(&id)
        .bind(name)
        .bind(body.email.trim())
        .bind(hash)
        .bind(now_ms())
        .execute(&state.store.pool)
        .await?;
    Ok((StatusCode::CREATED, Json(json!({"id": id, "name": name}))))
}

#[derive(Deserialize)]
struct Login {
    name: String,
    password: String,
}

async fn create_session(State(state): State<AppState>, Json(body): Json<Login>) -> ApiResult<Json<Value>> {
    let row = sqlx::query("SELECT id, password_hash FROM accounts WHERE name = $1")
        .bind(body.name.trim())
        .fetch_optional(&state.store.pool)
        .await?;
    let Some(row) = row else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "bad_login",
            "unknown name or wrong password",
        ));
    };
    let id: String = row.get(0);
    let stored: String = row.get(1);
    if !verify_password(&body.password, &stored) {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "bad_login",
            "unknown name or wrong password",
        ));
    }
    let token = new_token();
    let now = now_ms();
    sqlx::query("INSERT INTO sessions (token_hash, account_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)")
        .bind(token_hash(&token))
        .bind(&id)
        .bind(now)
        .bind(now + 30 * 24 * 3600 * 1000)
        .execute(&state.store.pool)
        .await?;
    Ok(Json(json!({"token": token, "account": id})))
}

#[derive(Deserialize)]
struct NewGame {
    name: String,
    #[serde(default = "standard")]
    variant: String,
    #[serde(default = "full")]
    press: String,
    #[serde(default = "day")]
    movement_seconds: i64,
    #[serde(default = "day")]
    retreat_seconds: i64,
    #[serde(default = "day")]
    adjustment_seconds: i64,
    /// Adjudicate as soon as every power that has something to order has sent orders.
    #[serde(default)]
    early: bool,
}

fn standard() -> String {
    "standard".into()
}
fn full() -> String {
    "full".into()
}
fn day() -> i64 {
    24 * 3600
}

async fn create_game(
    State(state): State<AppState>,
    headers: HeaderMap,
    Json(body): Json<NewGame>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let me = account(&state, &headers).await?;
    variant(&body.variant)?;
    if !matches!(body.press.as_str(), "full" | "grey" | "none") {
        return Err(ApiError::bad_request("bad_press", "press is full, grey or none"));
    }
    if [body.movement_seconds, body.retreat_seconds, body.adjustment_seconds]
        .iter()
        .any(|&m| !(1..=60 * 24 * 3600).contains(&m))
    {
        return Err(ApiError::bad_request(
            "bad_deadline",
            "deadlines are 1 second to 60 days",
        ));
    }
    let name = body.name.trim();
    if name.is_empty() || name.len() > 40 {
        return Err(ApiError::bad_request(
            "bad_name",
            "a game's name has 1 to 40 characters",
        ));
    }
    let taken = sqlx::query("SELECT id FROM games WHERE name = $1")
        .bind(name)
        .fetch_optional(&state.store.pool)
        .await?;
    if taken.is_some() {
        return Err(ApiError::conflict(format!("a game `{name}` exists")));
    }
    let id = new_id();
    sqlx::query(
        "INSERT INTO games (id, name, variant, master_id, status, press, movement_seconds, retreat_seconds, adjustment_seconds, created_ms, early) \
         VALUES ($1, $2, $3, $4, 'forming', $5, $6, $7, $8, $9, $10)",
    )
    .bind(&id)
    .bind(name)
    .bind(&body.variant)
    .bind(&me)
    .bind(&body.press)
    .bind(body.movement_seconds)
    .bind(body.retreat_seconds)
    .bind(body.adjustment_seconds)
    .bind(now_ms())
    .bind(i64::from(body.early))
    .execute(&state.store.pool)
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({"id": id, "name": name, "variant": body.variant, "status": "forming"})),
    ))
}

struct GameRow {
    id: String,
    name: String,
    variant: String,
    master: String,
    status: String,
    press: String,
    lot_seed: Option<i64>,
    state_json: Option<String>,
    deadline_ms: Option<i64>,
    seconds: [i64; 3],
    early: bool,
}

async fn game(state: &AppState, id: &str) -> ApiResult<GameRow> {
    let row = sqlx::query(
        "SELECT id, name, variant, master_id, status, press, lot_seed, state_json, deadline_ms, movement_seconds, retreat_seconds, adjustment_seconds, early \
         FROM games WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&state.store.pool)
    .await?
    .ok_or_else(|| ApiError::not_found("game"))?;
    Ok(GameRow {
        id: row.get(0),
        name: row.get(1),
        variant: row.get(2),
        master: row.get(3),
        status: row.get(4),
        press: row.get(5),
        lot_seed: row.get(6),
        state_json: row.get(7),
        deadline_ms: row.get(8),
        seconds: [row.get(9), row.get(10), row.get(11)],
        early: row.get::<i64, _>(12) != 0,
    })
}

/// The power an account plays in a game, if any.
async fn power_of(state: &AppState, game_id: &str, account: &str) -> ApiResult<Option<String>> {
    let row = sqlx::query("SELECT power FROM members WHERE game_id = $1 AND account_id = $2 AND role = 'player'")
        .bind(game_id)
        .bind(account)
        .fetch_optional(&state.store.pool)
        .await?;
    Ok(row.and_then(|r| r.get::<Option<String>, _>(0)))
}

#[derive(Deserialize)]
struct Join {
    #[serde(default)]
    preferences: Vec<String>,
    #[serde(default)]
    observer: bool,
}

async fn join_game(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<Join>,
) -> ApiResult<Json<Value>> {
    let me = account(&state, &headers).await?;
    let g = game(&state, &id).await?;
    let v = variant(&g.variant)?;
    let role = if body.observer { "observer" } else { "player" };
    if role == "player" {
        if g.status != "forming" {
            return Err(ApiError::conflict("the game has started: join as an observer"));
        }
        let players = sqlx::query("SELECT COUNT(*) FROM members WHERE game_id = $1 AND role = 'player'")
            .bind(&id)
            .fetch_one(&state.store.pool)
            .await?
            .get::<i64, _>(0);
        if players as usize >= v.map.powers().len() {
            return Err(ApiError::conflict("the game is full"));
        }
    }
    let mut preferences = Vec::new();
    for p in &body.preferences {
        let key = v
            .map
            .power_by_name(p)
            .map(|id| v.map.power(id).key.to_ascii_uppercase())
            .ok_or_else(|| ApiError::bad_request("unknown_power", format!("unknown power `{p}`")))?;
        if !preferences.contains(&key) {
            preferences.push(key);
        }
    }
    let existing = sqlx::query("SELECT role FROM members WHERE game_id = $1 AND account_id = $2")
        .bind(&id)
        .bind(&me)
        .fetch_optional(&state.store.pool)
        .await?;
    if existing.is_some() {
        return Err(ApiError::conflict("you are in this game already"));
    }
    sqlx::query("INSERT INTO members (game_id, account_id, role, preferences, joined_ms) VALUES ($1, $2, $3, $4, $5)")
        .bind(&id)
        .bind(&me)
        .bind(role)
        .bind(serde_json::to_string(&preferences).unwrap_or_default())
        .bind(now_ms())
        .execute(&state.store.pool)
        .await?;
    Ok(Json(json!({"game": id, "role": role, "preferences": preferences})))
}

async fn start_game(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let me = account(&state, &headers).await?;
    let g = game(&state, &id).await?;
    if g.master != me {
        return Err(ApiError::forbidden("only the game master starts the game"));
    }
    if g.status != "forming" {
        return Err(ApiError::conflict("the game has started already"));
    }
    let v = variant(&g.variant)?;
    let rows = sqlx::query("SELECT account_id, preferences FROM members WHERE game_id = $1 AND role = 'player' ORDER BY joined_ms, account_id")
        .bind(&id)
        .fetch_all(&state.store.pool)
        .await?;
    if rows.len() < 2 {
        return Err(ApiError::conflict("a game needs at least two players"));
    }
    let accounts: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    let preferences: Vec<Vec<String>> = rows
        .iter()
        .map(|r| serde_json::from_str(&r.get::<String, _>(1)).unwrap_or_default())
        .collect();
    let powers: Vec<String> = v.map.powers().iter().map(|p| p.key.to_ascii_uppercase()).collect();
    // The lot's seed is drawn now, stored and published with the game.
    let seed = rand::random::<u32>() as i64;
    let assigned = lot::assign(seed as u64, &preferences, &powers);
    let position = Position::initial(&v);
    let state_json = serde_json::to_string(&state_from_position(&v, &position)).unwrap_or_default();
    let deadline = now_ms() + g.seconds[0] * 1000;
    let mut tx = state.store.pool.begin().await?;
    for (account, power) in accounts.iter().zip(&assigned) {
        sqlx::query("UPDATE members SET power = $1 WHERE game_id = $2 AND account_id = $3")
            .bind(power)
            .bind(&id)
            .bind(account)
            .execute(&mut *tx)
            .await?;
    }
    sqlx::query("UPDATE games SET status = 'active', lot_seed = $1, state_json = $2, deadline_ms = $3 WHERE id = $4")
        .bind(seed)
        .bind(&state_json)
        .bind(deadline)
        .bind(&id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Json(
        json!({"game": id, "status": "active", "lot_seed": seed, "phase": position.phase.to_string()}),
    ))
}

async fn show_game(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let me = account(&state, &headers).await?;
    let g = game(&state, &id).await?;
    let rows = sqlx::query(
        "SELECT a.name, m.role, m.power FROM members m JOIN accounts a ON a.id = m.account_id WHERE m.game_id = $1 ORDER BY m.joined_ms, a.name",
    )
    .bind(&id)
    .fetch_all(&state.store.pool)
    .await?;
    let members: Vec<Value> = rows
        .iter()
        .map(|r| json!({"name": r.get::<String, _>(0), "role": r.get::<String, _>(1), "power": r.get::<Option<String>, _>(2)}))
        .collect();
    let state_value: Value = g
        .state_json
        .as_deref()
        .and_then(|s| serde_json::from_str(s).ok())
        .unwrap_or(Value::Null);
    Ok(Json(json!({
        "id": g.id, "name": g.name, "variant": g.variant, "status": g.status, "press": g.press,
        "lot_seed": g.lot_seed, "lot": "SplitMix64 shuffle of the players in join order, then first free wish",
        "members": members, "state": state_value, "deadline_ms": g.deadline_ms,
        "my_power": power_of(&state, &id, &me).await?, "master": g.master == me, "early": g.early,
        "result": result_of(&state, &id).await?,
    })))
}

fn current_position(v: &Variant, g: &GameRow) -> ApiResult<(GameState, Position)> {
    let text = g
        .state_json
        .as_deref()
        .ok_or_else(|| ApiError::conflict("the game has not started"))?;
    let state: GameState = serde_json::from_str(text).map_err(|_| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "stored state is unreadable",
        )
    })?;
    if state.phase == "COMPLETED" {
        return Err(ApiError::conflict("the game is over"));
    }
    let position = position_from_state(v, &state).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("stored state: {e}"),
        )
    })?;
    Ok((state, position))
}

#[derive(Deserialize)]
struct Orders {
    orders: Vec<String>,
}

#[derive(Serialize)]
struct Echo {
    input: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    order: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    suggestion: Option<String>,
}

async fn submit_orders(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<Orders>,
) -> ApiResult<Json<Value>> {
    let me = account(&state, &headers).await?;
    let g = game(&state, &id).await?;
    if g.status != "active" {
        return Err(ApiError::conflict("the game is not running"));
    }
    let power_key = power_of(&state, &id, &me)
        .await?
        .ok_or_else(|| ApiError::forbidden("only the game's players give orders"))?;
    let v = variant(&g.variant)?;
    let (_, position) = current_position(&v, &g)?;
    let power = v
        .map
        .power_by_name(&power_key)
        .ok_or_else(|| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", "stored power is unknown"))?;
    if body.orders.len() > 500 || body.orders.iter().any(|l| l.len() > 500) {
        return Err(ApiError::bad_request(
            "too_long",
            "at most 500 lines of at most 500 characters",
        ));
    }
    let mut read = PhaseOrders::default();
    read.read(&v, &position, Some(power), body.orders.iter().map(String::as_str));
    let mut echo: Vec<Echo> = read
        .lines
        .iter()
        .map(|l| match &l.result {
            Ok(o) => Echo {
                input: l.text.clone(),
                order: Some(o.display(&v.map).to_string()),
                error: None,
                position: None,
                suggestion: None,
            },
            Err(e) => Echo {
                input: l.text.clone(),
                order: None,
                error: Some(e.kind.to_string()),
                position: Some(e.position),
                suggestion: e.suggestion.clone(),
            },
        })
        .collect();
    echo.extend(read.advance_errors.iter().map(|(_, text, e)| Echo {
        input: text.clone(),
        order: None,
        error: Some(e.kind.to_string()),
        position: Some(e.position),
        suggestion: e.suggestion.clone(),
    }));
    let errors = echo.iter().filter(|e| e.error.is_some()).count();
    // Every line is kept as sent (replacing the power's earlier orders for this phase); they are
    // read again against the position when the phase is adjudicated.
    let phase = position.phase.to_string();
    let mut tx = state.store.pool.begin().await?;
    sqlx::query("DELETE FROM orders WHERE game_id = $1 AND power = $2 AND phase = $3")
        .bind(&id)
        .bind(&power_key)
        .bind(&phase)
        .execute(&mut *tx)
        .await?;
    sqlx::query("INSERT INTO orders (game_id, power, phase, lines, updated_ms) VALUES ($1, $2, $3, $4, $5)")
        .bind(&id)
        .bind(&power_key)
        .bind(&phase)
        .bind(serde_json::to_string(&body.orders).unwrap_or_default())
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    let adjudicated =
        g.early && all_orders_in(&state, &g, &v, &position).await? && adjudicate_game(&state, &id).await.is_ok();
    Ok(Json(
        json!({"phase": phase, "power": power_key, "orders": echo, "errors": errors,
                   "later_phases": read.later.len(), "advance_retreats": read.advance.len(),
                   "adjudicated": adjudicated}),
    ))
}

async fn my_orders(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let me = account(&state, &headers).await?;
    let g = game(&state, &id).await?;
    let power_key = power_of(&state, &id, &me)
        .await?
        .ok_or_else(|| ApiError::forbidden("only the game's players have orders"))?;
    let v = variant(&g.variant)?;
    let (_, position) = current_position(&v, &g)?;
    let phase = position.phase.to_string();
    let row = sqlx::query("SELECT lines FROM orders WHERE game_id = $1 AND power = $2 AND phase = $3")
        .bind(&id)
        .bind(&power_key)
        .bind(&phase)
        .fetch_optional(&state.store.pool)
        .await?;
    let lines: Vec<String> = row
        .map(|r| serde_json::from_str(&r.get::<String, _>(0)).unwrap_or_default())
        .unwrap_or_default();
    Ok(Json(json!({"phase": phase, "power": power_key, "orders": lines})))
}

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

async fn adjudicate_now(
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

async fn member_or_master(state: &AppState, g: &GameRow, me: &str) -> ApiResult<()> {
    if g.master == me {
        return Ok(());
    }
    let row = sqlx::query("SELECT role FROM members WHERE game_id = $1 AND account_id = $2")
        .bind(&g.id)
        .bind(me)
        .fetch_optional(&state.store.pool)
        .await?;
    row.map(|_| ())
        .ok_or_else(|| ApiError::forbidden("only the game's members see its results"))
}

async fn show_phase(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((id, phase)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let me = account(&state, &headers).await?;
    let g = game(&state, &id).await?;
    member_or_master(&state, &g, &me).await?;
    let row = sqlx::query("SELECT result_json, report_en, report_de FROM phases WHERE game_id = $1 AND phase = $2")
        .bind(&id)
        .bind(phase.to_ascii_uppercase())
        .fetch_optional(&state.store.pool)
        .await?
        .ok_or_else(|| ApiError::not_found("adjudicated phase"))?;
    let result: Value = serde_json::from_str(&row.get::<String, _>(0)).unwrap_or(Value::Null);
    Ok(Json(
        json!({"phase": phase.to_ascii_uppercase(), "result": result, "report_en": row.get::<String, _>(1), "report_de": row.get::<String, _>(2)}),
    ))
}

async fn history(State(state): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let me = account(&state, &headers).await?;
    let g = game(&state, &id).await?;
    member_or_master(&state, &g, &me).await?;
    let rows = sqlx::query(
        "SELECT phase, state_json, result_json FROM phases WHERE game_id = $1 ORDER BY adjudicated_ms, phase",
    )
    .bind(&id)
    .fetch_all(&state.store.pool)
    .await?;
    let phases: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "phase": r.get::<String, _>(0),
                "before": serde_json::from_str::<Value>(&r.get::<String, _>(1)).unwrap_or(Value::Null),
                "result": serde_json::from_str::<Value>(&r.get::<String, _>(2)).unwrap_or(Value::Null),
            })
        })
        .collect();
    Ok(Json(json!({"game": g.name, "variant": g.variant, "phases": phases})))
}

/// Whether every played power with something to order in this phase has sent orders (powers
/// without a player are in civil disorder and are not waited for).
async fn all_orders_in(state: &AppState, g: &GameRow, v: &Variant, position: &Position) -> ApiResult<bool> {
    let played = sqlx::query("SELECT power FROM members WHERE game_id = $1 AND role = 'player'")
        .bind(&g.id)
        .fetch_all(&state.store.pool)
        .await?;
    let played: Vec<String> = played.iter().filter_map(|r| r.get::<Option<String>, _>(0)).collect();
    let needed: Vec<_> = spielleiter_engine::game::powers_to_order(v, position)
        .into_iter()
        .filter(|&p| played.iter().any(|k| k.eq_ignore_ascii_case(&v.map.power(p).key)))
        .collect();
    let rows = sqlx::query("SELECT power FROM orders WHERE game_id = $1 AND phase = $2")
        .bind(&g.id)
        .bind(position.phase.to_string())
        .fetch_all(&state.store.pool)
        .await?;
    let sent: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    Ok(needed
        .iter()
        .all(|&p| sent.iter().any(|s| s.eq_ignore_ascii_case(&v.map.power(p).key))))
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

#[derive(Deserialize)]
struct Press {
    /// Recipient powers; empty: everyone (a broadcast).
    #[serde(default)]
    to: Vec<String>,
    body: String,
}

async fn send_press(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<Press>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let me = account(&state, &headers).await?;
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
        let key = v
            .map
            .power_by_name(to)
            .map(|p| v.map.power(p).key.to_ascii_uppercase())
            .ok_or_else(|| ApiError::bad_request("unknown_power", format!("unknown power `{to}`")))?;
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

async fn read_press(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let me = account(&state, &headers).await?;
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
        let sent_by_me = from_account == me;
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

#[derive(Deserialize)]
struct DrawVote {
    vote: bool,
}

async fn vote_draw(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Json(body): Json<DrawVote>,
) -> ApiResult<Json<Value>> {
    let me = account(&state, &headers).await?;
    let g = game(&state, &id).await?;
    if g.status != "active" {
        return Err(ApiError::conflict("the game is not running"));
    }
    let power = power_of(&state, &id, &me)
        .await?
        .ok_or_else(|| ApiError::forbidden("only the game's players vote"))?;
    let v = variant(&g.variant)?;
    let (_, position) = current_position(&v, &g)?;
    sqlx::query("UPDATE members SET draw_vote = $1 WHERE game_id = $2 AND account_id = $3")
        .bind(i64::from(body.vote))
        .bind(&id)
        .bind(&me)
        .execute(&state.store.pool)
        .await?;
    // A draw needs the votes of every survivor, and all survivors share it (DIAS).
    let survivors: Vec<String> = spielleiter_engine::game::survivors(&v, &position)
        .into_iter()
        .map(|p| v.map.power(p).key.to_ascii_uppercase())
        .collect();
    let rows = sqlx::query("SELECT power FROM members WHERE game_id = $1 AND role = 'player' AND draw_vote = 1")
        .bind(&id)
        .fetch_all(&state.store.pool)
        .await?;
    let yes: Vec<String> = rows.iter().filter_map(|r| r.get::<Option<String>, _>(0)).collect();
    // Powers without a player (civil disorder) cannot vote: the survivors with players decide.
    let played = sqlx::query("SELECT power FROM members WHERE game_id = $1 AND role = 'player'")
        .bind(&id)
        .fetch_all(&state.store.pool)
        .await?;
    let played: Vec<String> = played.iter().filter_map(|r| r.get::<Option<String>, _>(0)).collect();
    let drawn = survivors.iter().filter(|s| played.contains(s)).all(|s| yes.contains(s));
    if drawn {
        let result = json!({"kind": "draw", "powers": survivors});
        sqlx::query("UPDATE games SET status = 'finished', result_json = $1 WHERE id = $2 AND status = 'active'")
            .bind(result.to_string())
            .bind(&id)
            .execute(&state.store.pool)
            .await?;
    }
    Ok(Json(
        json!({"power": power, "vote": body.vote, "drawn": drawn, "survivors": survivors}),
    ))
}

async fn result_of(state: &AppState, id: &str) -> ApiResult<Value> {
    let row = sqlx::query("SELECT result_json FROM games WHERE id = $1")
        .bind(id)
        .fetch_one(&state.store.pool)
        .await?;
    Ok(row
        .get::<Option<String>, _>(0)
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or(Value::Null))
}
