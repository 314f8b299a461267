//! Games: creation with settings, joining with power preferences, the start with its published lot, and the game view.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::Value;
use sqlx::Row;

use super::*;
use crate::domain::Notification;
use crate::error::refusals::*;

#[derive(Deserialize, utoipa::ToSchema)]
pub(crate) struct NewGame {
    pub(crate) name: String,
    #[serde(default = "standard")]
    pub(crate) variant: String,
    #[serde(default = "full")]
    pub(crate) press: String,
    #[serde(default = "day")]
    pub(crate) movement_seconds: i64,
    #[serde(default = "day")]
    pub(crate) retreat_seconds: i64,
    #[serde(default = "day")]
    pub(crate) adjustment_seconds: i64,
    /// Adjudicate as soon as every power that has something to order has sent orders.
    #[serde(default)]
    pub(crate) early: bool,
    /// Missed turns in a row after which a power is in civil disorder.
    #[serde(default = "two")]
    pub(crate) nmr_limit: i64,
    /// Extra time once after a deadline that a played power missed.
    #[serde(default)]
    pub(crate) grace_seconds: i64,
    /// The game's time zone (IANA name such as `Europe/Berlin`); deadlines are shown in it.
    #[serde(default = "utc")]
    pub(crate) time_zone: String,
    /// A local time of day (`HH:MM`) every deadline is moved to: the first one after the phase's
    /// length.
    #[serde(default)]
    pub(crate) deadline_at: Option<String>,
    /// Hours before a deadline at which powers whose orders are missing are reminded by mail
    /// (0: no reminders).
    #[serde(default = "reminder_default")]
    pub(crate) reminder_hours: i64,
}

fn reminder_default() -> i64 {
    24
}

fn utc() -> String {
    "UTC".into()
}

fn two() -> i64 {
    2
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

#[utoipa::path(
    post,
    path = "/api/games",
    tag = "games",
    summary = "Create a game; the caller is its master.",
    request_body = NewGame,
    security(("token" = [])),
    responses((status = 201, description = "Done", body = Object), BadRequest, Unauthorized, Conflict, BadJson)
)]
pub(crate) async fn create_game(
    State(state): State<AppState>,
    Caller(me): Caller,
    ApiJson(body): ApiJson<NewGame>,
) -> ApiResult<(StatusCode, Json<CreatedGame>)> {
    let created = create(&state, &me, &body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// A game's name as given, trimmed, with its key ([`crate::names::name_key`]), when it has 1 to
/// 40 characters and no game has it (as names are compared).
async fn free_game_name<'a>(state: &AppState, name: &'a str) -> ApiResult<(&'a str, String)> {
    let name = name.trim();
    if !crate::names::is_game_name(name) {
        return Err(ApiError::bad_request(
            "bad_name",
            "a game's name has 1 to 40 visible characters (no line breaks, control or direction marks)",
        )
        .de("Der Name einer Partie hat 1 bis 40 sichtbare Zeichen (keine Zeilenumbrüche, Steuer- oder Richtungszeichen)"));
    }
    let key = crate::names::name_key(name);
    let taken = sqlx::query("SELECT id FROM games WHERE name_key = $1")
        .bind(&key)
        .fetch_optional(&state.store.pool)
        .await?;
    if taken.is_some() {
        return Err(
            ApiError::conflict(format!("a game `{name}` exists")).de(format!("Eine Partie `{name}` gibt es schon"))
        );
    }
    Ok((name, key))
}

/// A game created: its id, name and variant, forming.
#[derive(serde::Serialize)]
pub(crate) struct CreatedGame {
    /// The new game's id.
    pub(crate) id: String,
    name: String,
    variant: String,
    status: crate::domain::GameStatus,
}

/// A member added: the game, the role, and the preferences as read.
#[derive(serde::Serialize)]
pub(crate) struct Joined {
    game: String,
    role: &'static str,
    /// The powers wished for, in order, as the variant names them.
    pub(crate) preferences: Vec<String>,
}

/// A game started: its lot's seed and first phase.
#[derive(serde::Serialize)]
pub(crate) struct Started {
    game: String,
    status: crate::domain::GameStatus,
    lot_seed: i64,
    phase: String,
}

/// Creates a game with `me` as its master after checking every setting.
pub(crate) async fn create(state: &AppState, me: &str, body: &NewGame) -> ApiResult<CreatedGame> {
    variant(&body.variant)?;
    if !matches!(body.press.as_str(), "full" | "grey" | "none") {
        return Err(
            ApiError::bad_request("bad_press", "press is full, grey or none").de("Presse ist full, grey oder none")
        );
    }
    if [body.movement_seconds, body.retreat_seconds, body.adjustment_seconds]
        .iter()
        .any(|&m| !(1..=60 * 24 * 3600).contains(&m))
    {
        return Err(
            ApiError::bad_request("bad_deadline", "deadlines are 1 second to 60 days")
                .de("Abgabefristen sind 1 Sekunde bis 60 Tage lang"),
        );
    }
    if !(1..=10).contains(&body.nmr_limit) {
        return Err(
            ApiError::bad_request("bad_nmr_limit", "civil disorder comes after 1 to 10 missed turns")
                .de("Anarchie folgt nach 1 bis 10 versäumten Zügen"),
        );
    }
    if !(0..=7 * 24 * 3600).contains(&body.grace_seconds) {
        return Err(
            ApiError::bad_request("bad_grace", "a grace period is 0 seconds to 7 days")
                .de("Eine Nachfrist ist 0 Sekunden bis 7 Tage lang"),
        );
    }
    if !(0..=14 * 24).contains(&body.reminder_hours) {
        return Err(
            ApiError::bad_request("bad_reminder", "reminders come 0 (none) to 336 hours before a deadline")
                .de("Erinnerungen kommen 0 (keine) bis 336 Stunden vor einer Abgabefrist"),
        );
    }
    crate::deadlines::DeadlineRule::new(&body.time_zone, body.deadline_at.as_deref())
        .map_err(|e| ApiError::bad_request("bad_deadline", e.to_string()))?;
    let (name, key) = free_game_name(state, &body.name).await?;
    let id = new_id();
    sqlx::query(
        "INSERT INTO games (id, name, variant, master_id, status, press, movement_seconds, retreat_seconds, adjustment_seconds, created_ms, early, nmr_limit, grace_seconds, time_zone, deadline_at, reminder_hours, name_key) \
         VALUES ($1, $2, $3, $4, 'forming', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
    )
    .bind(&id)
    .bind(name)
    .bind(&body.variant)
    .bind(me)
    .bind(&body.press)
    .bind(body.movement_seconds)
    .bind(body.retreat_seconds)
    .bind(body.adjustment_seconds)
    .bind(now_ms())
    .bind(i64::from(body.early))
    .bind(body.nmr_limit)
    .bind(body.grace_seconds)
    .bind(&body.time_zone)
    .bind(body.deadline_at.as_ref().map(|t| t.trim().to_string()))
    .bind(body.reminder_hours)
    .bind(&key)
    .execute(&state.store.pool)
    .await
    .map_err(|e| {
        if is_unique_violation(&e) {
            ApiError::conflict(format!("a game `{name}` exists")).de(format!("Eine Partie `{name}` gibt es schon"))
        } else {
            e.into()
        }
    })?;
    Ok(CreatedGame {
        id,
        name: name.to_string(),
        variant: body.variant.clone(),
        status: crate::domain::GameStatus::Forming,
    })
}

#[derive(Deserialize, utoipa::ToSchema)]
pub(crate) struct Join {
    #[serde(default)]
    preferences: Vec<String>,
    #[serde(default)]
    observer: bool,
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/join",
    tag = "games",
    summary = "Join as a player (with a preference list of powers) or as an observer.",
    request_body = Join,
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), BadRequest, Unauthorized, NotFound, Conflict, BadJson)
)]
pub(crate) async fn join_game(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Join>,
) -> ApiResult<Json<Joined>> {
    join(&state, &me, &id, &body.preferences, body.observer).await.map(Json)
}

/// Adds `me` to a forming game as a player with a preference list of powers, or to any game as
/// an observer.
pub(crate) async fn join(state: &AppState, me: &str, id: &str, wanted: &[String], observer: bool) -> ApiResult<Joined> {
    let g = game(state, id).await?;
    let v = variant(&g.variant)?;
    let role = if observer { "observer" } else { "player" };
    let mut preferences = Vec::new();
    for p in wanted {
        let key = power_key(&v, p)?;
        if !preferences.contains(&key) {
            preferences.push(key);
        }
    }
    let mut tx = state.store.pool.begin().await?;
    if role == "player" {
        // Locks the game's row: concurrent joins are counted one after the other.
        let forming = sqlx::query("UPDATE games SET status = status WHERE id = $1 AND status = 'forming'")
            .bind(id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if forming == 0 {
            return Err(ApiError::conflict("the game has started: join as an observer")
                .de("Die Partie hat begonnen: als Beobachter beitreten"));
        }
        let players = sqlx::query("SELECT COUNT(*) FROM members WHERE game_id = $1 AND role = 'player'")
            .bind(id)
            .fetch_one(&mut *tx)
            .await?
            .get::<i64, _>(0);
        if players as usize >= v.map.powers().len() {
            return Err(ApiError::conflict("the game is full").de("Die Partie ist voll"));
        }
    }
    let inserted = sqlx::query(
        "INSERT INTO members (game_id, account_id, role, preferences, joined_ms) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(id)
    .bind(me)
    .bind(role)
    .bind(serde_json::to_string(&preferences).unwrap_or_default())
    .bind(now_ms())
    .execute(&mut *tx)
    .await;
    match inserted {
        Ok(_) => {}
        Err(e) if is_unique_violation(&e) => {
            return Err(ApiError::conflict("you are in this game already").de("Sie sind schon in dieser Partie"));
        }
        Err(e) => return Err(e.into()),
    }
    tx.commit().await?;
    Ok(Joined {
        game: id.to_string(),
        role,
        preferences,
    })
}

#[utoipa::path(
    post,
    path = "/api/games/{id}/start",
    tag = "games",
    summary = "(Master) Start: powers by preference, ties by a seeded lot whose seed is published.",
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), Unauthorized, Forbidden, NotFound, Conflict)
)]
pub(crate) async fn start_game(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Started>> {
    start(&state, &me, &id).await.map(Json)
}

/// Starts a forming game (master only): powers by preference, ties by a seeded lot.
pub(crate) async fn start(state: &AppState, me: &str, id: &str) -> ApiResult<Started> {
    let g = game(state, id).await?;
    master_only(&g, me, crate::domain::MasterAction::Start)?;
    if g.status != crate::domain::GameStatus::Forming {
        return Err(ApiError::conflict("the game has started already").de("Die Partie hat schon begonnen"));
    }
    let v = variant(&g.variant)?;
    let position = Position::initial(&v);
    let state_json = serde_json::to_string(&state_from_position(&v, &position)).unwrap_or_default();
    let rule = g.deadline_rule();
    let deadline = rule.next(now_ms(), g.seconds[0]);
    // The lot's seed is drawn now, stored and published with the game.
    let seed = rand::random::<u32>() as i64;
    let mut tx = state.store.pool.begin().await?;
    // Claims the start (a second start, or a join at the same moment, waits and then finds the
    // game running).
    let started = sqlx::query(
        "UPDATE games SET status = 'active', lot_seed = $1, state_json = $2, deadline_ms = $3, phase = $4 \
         WHERE id = $5 AND status = 'forming'",
    )
    .bind(seed)
    .bind(&state_json)
    .bind(deadline)
    .bind(position.phase.to_string())
    .bind(id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if started == 0 {
        return Err(ApiError::conflict("the game has started already").de("Die Partie hat schon begonnen"));
    }
    let rows = sqlx::query(
        "SELECT account_id, preferences FROM members WHERE game_id = $1 AND role = 'player' ORDER BY joined_ms, account_id",
    )
    .bind(id)
    .fetch_all(&mut *tx)
    .await?;
    let powers: Vec<String> = v.map.powers().iter().map(|p| p.key.to_ascii_uppercase()).collect();
    if rows.len() < 2 || rows.len() > powers.len() {
        return Err(
            ApiError::conflict(format!("a game of this variant needs 2 to {} players", powers.len())).de(format!(
                "Eine Partie dieser Variante braucht 2 bis {} Spieler",
                powers.len()
            )),
        );
    }
    let accounts: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    let mut preferences: Vec<Vec<String>> = Vec::new();
    for r in &rows {
        // Wishes that cannot be read are an error, never silently none.
        let wishes =
            serde_json::from_str(&r.get::<String, _>(1)).map_err(|e| ApiError::unreadable("a player's wishes", e))?;
        preferences.push(wishes);
    }
    let assigned = lot::assign(seed as u64, &preferences, &powers);
    for (account, power) in accounts.iter().zip(&assigned) {
        sqlx::query("UPDATE members SET power = $1 WHERE game_id = $2 AND account_id = $3")
            .bind(power)
            .bind(id)
            .bind(account)
            .execute(&mut *tx)
            .await?;
        let news = Notification::GameStarted {
            game: g.name.clone(),
            power: power.clone(),
            seed,
            first_deadline: rule.describe(deadline),
        };
        notify(&mut tx, id, account, &news).await?;
    }
    tx.commit().await?;
    state.changed(id);
    Ok(Started {
        game: id.to_string(),
        status: crate::domain::GameStatus::Active,
        lot_seed: seed,
        phase: position.phase.to_string(),
    })
}

#[utoipa::path(
    get,
    path = "/api/games/{id}",
    tag = "games",
    summary = "The game: settings, members, current state, deadline, result; the caller's power.",
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), Unauthorized, NotFound)
)]
pub(crate) async fn show_game(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<GameView>> {
    view(&state, &me, &id).await.map(Json)
}

/// A member of a game as every member sees it.
#[derive(serde::Serialize)]
pub(crate) struct MemberView {
    /// The account's name.
    pub(crate) name: String,
    /// `player` or `observer`.
    pub(crate) role: String,
    /// The power played, once the lot was drawn.
    pub(crate) power: Option<String>,
    /// Turns missed in a row.
    pub(crate) missed_turns: i64,
    /// Whether the power is in civil disorder.
    pub(crate) civil_disorder: bool,
}

/// The time each kind of phase gets.
#[derive(serde::Serialize)]
pub(crate) struct PhaseTimes {
    movement_seconds: i64,
    retreat_seconds: i64,
    adjustment_seconds: i64,
}

/// The game as one account sees it: settings, members, the published state, the deadline, the
/// result, and the account's own power and draw vote.
#[derive(serde::Serialize)]
pub(crate) struct GameView {
    id: String,
    name: String,
    variant: String,
    status: crate::domain::GameStatus,
    press: crate::domain::PressPolicy,
    lot_seed: Option<i64>,
    lot: &'static str,
    /// The members, in the order they joined.
    pub(crate) members: Vec<MemberView>,
    /// The current state as every player may see it (the JSON interchange, secrets left out).
    state: Value,
    deadline_ms: Option<i64>,
    /// The account's power, if it plays.
    pub(crate) my_power: Option<String>,
    /// Whether the account is the game master.
    pub(crate) master: bool,
    /// Whether the account is a member (player or observer).
    pub(crate) member: bool,
    early: bool,
    nmr_limit: i64,
    grace_seconds: i64,
    in_grace: bool,
    /// Whether the game master paused the game.
    pub(crate) paused: bool,
    extensions: i64,
    /// The account's own draw vote (votes are secret: it sees only its own).
    pub(crate) my_draw_vote: bool,
    time_zone: String,
    deadline_at: Option<String>,
    /// The deadline in the game's time zone, in words.
    pub(crate) deadline_local: Option<String>,
    deadlines: PhaseTimes,
    /// How the game ended, once it did.
    pub(crate) result: Option<spielleiter_engine::interchange::GameEnd>,
}

/// The game as `me` sees it: settings, members, state, deadline, result, `me`'s power.
pub(crate) async fn view(state: &AppState, me: &str, id: &str) -> ApiResult<GameView> {
    view_of(state, me, &game(state, id).await?).await
}

/// [`view`] of a game already read.
pub(crate) async fn view_of(state: &AppState, me: &str, g: &Game) -> ApiResult<GameView> {
    let id = g.id.as_str();
    let rows = sqlx::query(
        "SELECT a.name, m.role, m.power, m.missed, m.civil_disorder, m.account_id, m.draw_vote FROM members m JOIN accounts a ON a.id = m.account_id WHERE m.game_id = $1 ORDER BY m.joined_ms, a.name",
    )
    .bind(id)
    .fetch_all(&state.store.pool)
    .await?;
    let members: Vec<MemberView> = rows
        .iter()
        .map(|r| MemberView {
            name: r.get(0),
            role: r.get(1),
            power: r.get(2),
            missed_turns: r.get(3),
            civil_disorder: r.get::<i64, _>(4) != 0,
        })
        .collect();
    // `me`'s own row: its power, and its draw vote (votes are secret: `me` sees only its own).
    let mine = rows.iter().find(|r| r.get::<String, _>(5) == me);
    let my_power = mine
        .filter(|r| r.get::<String, _>(1) == "player")
        .and_then(|r| r.get::<Option<String>, _>(2));
    let my_draw_vote = mine.is_some_and(|r| r.get::<i64, _>(6) != 0);
    Ok(GameView {
        id: g.id.clone(),
        name: g.name.clone(),
        variant: g.variant.clone(),
        status: g.status,
        press: g.press,
        lot_seed: g.lot_seed,
        lot: "SplitMix64 shuffle of the players in join order, then first free wish",
        members,
        state: published_state(g.state_json.as_deref()),
        deadline_ms: g.deadline_ms,
        my_power,
        master: g.master == me,
        member: mine.is_some(),
        early: g.early,
        nmr_limit: g.nmr_limit,
        grace_seconds: g.grace_seconds,
        in_grace: g.in_grace,
        paused: g.paused_remaining_ms.is_some(),
        extensions: g.extensions,
        my_draw_vote,
        time_zone: g.time_zone.clone(),
        deadline_at: g.deadline_at.clone(),
        deadline_local: g.deadline_ms.map(|d| g.deadline_rule().describe(d)),
        deadlines: PhaseTimes {
            movement_seconds: g.seconds[0],
            retreat_seconds: g.seconds[1],
            adjustment_seconds: g.seconds[2],
        },
        result: result_of(state, id).await?,
    })
}
