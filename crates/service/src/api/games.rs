//! Games: creation with settings, joining with power preferences, the start with its published lot, and the game view.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::Value;

use super::*;
use crate::app;
use crate::app::ports::SystemClock;
use crate::domain::{DomainError, GameSettings, PressPolicy, RuleOptions, SettingError};
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
    /// Hegemony: how control of a neutral country is determined, `standard` (1.1.2–1.1.4, the
    /// default) or `alternative` (1.1.11); refused for variants without political factors.
    #[serde(default)]
    pub(crate) control_rule: Option<String>,
    /// Hegemony: the victory condition of 4.3.1, 1 to 5 (none: the variant's centre count).
    #[serde(default)]
    pub(crate) victory: Option<u8>,
    /// House rule of our documents (seed 000 §10b), any variant: retreats only with the moves,
    /// no retreat phase; a dislodged unit without a retreat order given with the moves is
    /// disbanded.
    #[serde(default)]
    pub(crate) retreats_with_moves: bool,
    /// House rule: a year's orders at once (seed 003): one deadline per game year; the orders
    /// for the year's later phases go under their headings (`F1901M:`, `W1901A:`), and at the
    /// deadline the year's phases are adjudicated one after another.
    #[serde(default)]
    pub(crate) year_at_once: bool,
    /// Every member sees which powers marked their orders final ("ready"), not only how many.
    #[serde(default)]
    pub(crate) ready_names: bool,
    /// Another calendar of the variant (Colonial: `original`, spring and fall every year instead
    /// of the seed's two-year turns); refused with `bad_option` where the variant has none.
    #[serde(default)]
    pub(crate) calendar: Option<String>,
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

pub(crate) use crate::app::games::{CreatedGame, Joined, Started};

impl NewGame {
    /// A new game of `variant` with every setting at its default (as a body with only these two
    /// fields would be read).
    pub(crate) fn named(name: &str, variant: &str) -> NewGame {
        NewGame {
            name: name.to_string(),
            variant: variant.to_string(),
            press: full(),
            movement_seconds: day(),
            retreat_seconds: day(),
            adjustment_seconds: day(),
            early: false,
            nmr_limit: two(),
            grace_seconds: 0,
            time_zone: utc(),
            deadline_at: None,
            reminder_hours: reminder_default(),
            control_rule: None,
            victory: None,
            retreats_with_moves: false,
            year_at_once: false,
            ready_names: false,
            calendar: None,
        }
    }

    /// Gives every phase (movement, retreats, adjustments) the same time.
    pub(crate) fn set_phase_seconds(&mut self, seconds: i64) {
        self.movement_seconds = seconds;
        self.retreat_seconds = seconds;
        self.adjustment_seconds = seconds;
    }

    /// The settings the body asks for (the press policy read; every bound is checked when the
    /// game is created).
    fn settings(&self) -> Result<GameSettings, DomainError> {
        let press = PressPolicy::from_stored(&self.press).ok_or(DomainError::Setting(SettingError::BadPressPolicy))?;
        Ok(GameSettings {
            name: self.name.clone(),
            variant: self.variant.clone(),
            press,
            seconds: [self.movement_seconds, self.retreat_seconds, self.adjustment_seconds],
            early: self.early,
            nmr_limit: self.nmr_limit,
            grace_seconds: self.grace_seconds,
            time_zone: self.time_zone.clone(),
            deadline_at: self.deadline_at.clone(),
            reminder_hours: self.reminder_hours,
            options: RuleOptions {
                control_rule: self.control_rule.clone(),
                victory: self.victory,
                retreats_with_moves: self.retreats_with_moves,
                year_at_once: self.year_at_once,
                ready_names: self.ready_names,
                calendar: self.calendar.clone().filter(|c| !c.trim().is_empty()),
            },
        })
    }
}

/// Creates a game with `me` as its master after checking every setting.
pub(crate) async fn create(state: &AppState, me: &str, body: &NewGame) -> ApiResult<CreatedGame> {
    variant(&body.variant)?;
    let settings = body.settings()?;
    Ok(app::games::create(&state.store, &SystemClock, me, &settings).await?)
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
    Ok(app::games::join(&state.store, &SystemClock, me, id, wanted, observer).await?)
}

/// A player's new wishes.
#[derive(Deserialize, utoipa::ToSchema)]
pub(crate) struct Wishes {
    /// The powers wished for, first choice first (none: any power).
    #[serde(default)]
    pub(crate) preferences: Vec<String>,
}

#[utoipa::path(
    put,
    path = "/api/games/{id}/wishes",
    tag = "games",
    summary = "Change the caller's wishes in a game that has not started.",
    request_body = Wishes,
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), BadRequest, Unauthorized, NotFound, Conflict, BadJson)
)]
pub(crate) async fn change_wishes(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Wishes>,
) -> ApiResult<Json<serde_json::Value>> {
    let preferences = wishes(&state, &me, &id, &body.preferences).await?;
    Ok(Json(serde_json::json!({ "preferences": preferences })))
}

/// `me`'s wishes in a game, if it joined it as a player (none: not a player).
pub(crate) async fn wishes_of(state: &AppState, me: &str, id: &str) -> ApiResult<Option<Vec<String>>> {
    let mut unit = crate::sql::SqlUnit::begin(&state.store).await?;
    let all = app::ports::GameUnit::wishes(&mut unit, id).await?;
    Ok(all.into_iter().find(|(a, _)| a == me).map(|(_, w)| w))
}

/// Replaces `me`'s wishes in a forming game.
pub(crate) async fn wishes(state: &AppState, me: &str, id: &str, wanted: &[String]) -> ApiResult<Vec<String>> {
    Ok(app::games::change_wishes(&state.store, me, id, wanted).await?)
}

#[utoipa::path(
    delete,
    path = "/api/games/{id}/membership",
    tag = "games",
    summary = "Leave a game that has not started.",
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), Unauthorized, NotFound, Conflict)
)]
pub(crate) async fn leave_game(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<serde_json::Value>> {
    leave(&state, &me, &id).await?;
    Ok(Json(serde_json::json!({ "left": id })))
}

/// `me` leaves a forming game.
pub(crate) async fn leave(state: &AppState, me: &str, id: &str) -> ApiResult<()> {
    app::games::leave(&state.store, me, id).await?;
    state.changed(id);
    Ok(())
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

/// Starts a forming game (master only): powers by preference, ties by a seeded lot whose seed
/// is drawn now, stored and published with the game.
pub(crate) async fn start(state: &AppState, me: &str, id: &str) -> ApiResult<Started> {
    let seed = rand::random::<u32>() as i64;
    let started = app::games::start(&state.store, &SystemClock, me, id, seed).await?;
    state.changed(id);
    Ok(started)
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
    /// The seed of the lot that gave out the powers, once drawn.
    pub(crate) lot_seed: Option<i64>,
    lot: &'static str,
    /// The members, in the order they joined.
    pub(crate) members: Vec<MemberView>,
    /// The current state as every player may see it (the JSON interchange, secrets left out).
    state: Value,
    /// The deadline, in milliseconds since 1970 (UTC).
    pub(crate) deadline_ms: Option<i64>,
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
    /// Hegemony: the control rule chosen at creation, if one was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) control_rule: Option<String>,
    /// Hegemony: the victory condition chosen at creation, if one was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) victory: Option<u8>,
    /// The house rule of retreats only with the moves (no retreat phase).
    pub(crate) retreats_with_moves: bool,
    /// The house rule of a year's orders at once (one deadline per game year).
    pub(crate) year_at_once: bool,
    /// The variant's other calendar the game is played with, if one was chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) calendar: Option<String>,
    /// How many of the powers expected to order marked their orders final, while the game runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) ready: Option<ReadyCount>,
}

/// How many powers marked their orders for the current phase final ("n of m ready"); which ones
/// only for the master, or for everyone when the master chose so at creation.
#[derive(serde::Serialize)]
pub(crate) struct ReadyCount {
    /// How many are ready.
    pub(crate) ready: usize,
    /// Of how many expected to order.
    pub(crate) of: usize,
    /// Which, where the viewer may know.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) powers: Option<Vec<String>>,
    /// Which sent orders not yet final (for the master).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) sent: Option<Vec<String>>,
    /// Which have sent nothing yet (for the master).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) awaited: Option<Vec<String>>,
    /// Whether the viewer's own power is among them.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) mine: bool,
}

/// The readiness of a running game's current phase as `me` may see it.
async fn ready_count(state: &AppState, me: &str, my_power: Option<&str>, g: &Game) -> ApiResult<Option<ReadyCount>> {
    if g.status != crate::domain::GameStatus::Active {
        return Ok(None);
    }
    let r = super::adjudication::readiness(state, g).await?;
    let named = g.master == me || g.options.ready_names;
    Ok(Some(ReadyCount {
        ready: r.ready.len(),
        of: r.expected,
        mine: my_power.is_some_and(|p| r.ready.iter().any(|r| r == p)),
        powers: named.then_some(r.ready),
        // Who sent and who not only for the master: orders sent in advance count as sent, and
        // who ordered in advance is no one else's business (the option shows only who is ready).
        sent: (g.master == me).then_some(r.sent),
        awaited: (g.master == me).then_some(r.awaited),
    }))
}

/// The game as `me` sees it: settings, members, state, deadline, result, `me`'s power.
pub(crate) async fn view(state: &AppState, me: &str, id: &str) -> ApiResult<GameView> {
    view_of(state, me, &game(state, id).await?).await
}

/// [`view`] of a game already read.
pub(crate) async fn view_of(state: &AppState, me: &str, g: &Game) -> ApiResult<GameView> {
    let id = g.id.as_str();
    let named = crate::sql::games::named_members(&state.store.pool, id).await?;
    let members: Vec<MemberView> = named
        .iter()
        .map(|(name, m)| MemberView {
            name: name.clone(),
            role: m.role.to_string(),
            power: m.power.clone(),
            missed_turns: m.missed,
            civil_disorder: m.civil_disorder,
        })
        .collect();
    // `me`'s own row: its power, and its draw vote (votes are secret: `me` sees only its own).
    let mine = named.iter().map(|(_, m)| m).find(|m| m.account == me);
    let my_power = mine.and_then(|m| m.played_power().map(str::to_string));
    let ready = ready_count(state, me, my_power.as_deref(), g).await?;
    let my_draw_vote = mine.is_some_and(|m| m.draw_vote);
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
        control_rule: g.options.control_rule.clone(),
        victory: g.options.victory,
        retreats_with_moves: g.options.retreats_with_moves,
        year_at_once: g.options.year_at_once,
        calendar: g.options.calendar.clone(),
        ready,
    })
}
