//! Press: private messages, broadcasts and game-master announcements, with grey and no-press games.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;

use super::*;
use crate::domain::Speaker;
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
) -> ApiResult<(StatusCode, Json<PressSent>)> {
    let sent = send(&state, &me, &id, &body.to, &body.body, None).await?;
    Ok((StatusCode::CREATED, Json(sent)))
}

pub(crate) use crate::app::press::PressSent;

/// Stores a message from `me` to the powers `to` (empty: everyone) and queues it by mail to
/// each account that may read it, in one transaction. `press_id` names the message when the
/// caller needs a repeat to be recognised (mail processed again after a crash).
pub(crate) async fn send(
    state: &AppState,
    me: &str,
    id: &str,
    to: &[String],
    body: &str,
    press_id: Option<String>,
) -> ApiResult<PressSent> {
    let message = crate::app::press::Outgoing {
        me,
        game: id,
        to,
        body,
        press_id,
    };
    Ok(crate::app::press::send(&state.store, &crate::app::ports::SystemClock, message).await?)
}

/// Which press to list: all of it (the default), what came after a moment, or the last few.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct PressWindow {
    /// Only messages sent after this moment (milliseconds since 1970, as `sent_ms`): for polling.
    pub(crate) since_ms: Option<i64>,
    /// Only the last this many of them; `earlier` in the answer counts the ones left out.
    pub(crate) last: Option<usize>,
}

#[utoipa::path(
    get,
    path = "/api/games/{id}/press",
    tag = "press",
    summary = "The press the caller may read, oldest first: sent by, or to, the caller's power, and broadcasts; `since_ms` and `last` narrow it, `earlier` counts what `last` left out.",
    params(("id" = String, Path, description = "The game's id"), PressWindow),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), BadRequest, Unauthorized, Forbidden, NotFound)
)]
pub(crate) async fn read_press(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
    ApiQuery(window): ApiQuery<PressWindow>,
) -> ApiResult<Json<PressPage>> {
    read(&state, &me, &id, &window).await.map(Json)
}

/// One message as its reader sees it.
#[derive(serde::Serialize)]
pub(crate) struct PressMessage {
    /// The sending power, `Game master`, or none for grey press from another.
    pub(crate) from: Option<String>,
    /// Whether the game master sent it.
    pub(crate) from_master: bool,
    /// The powers it went to; none: everyone.
    pub(crate) to: Vec<String>,
    /// The text.
    pub(crate) body: String,
    /// When it was sent (milliseconds since 1970).
    pub(crate) sent_ms: i64,
    /// The phase it was sent in.
    pub(crate) phase: String,
    /// Sent after what the reader was last shown on the game page (only the page tells).
    #[serde(skip)]
    pub(crate) new: bool,
}

/// The press one account may read in a game, within a window.
#[derive(serde::Serialize)]
pub(crate) struct PressPage {
    /// The messages, oldest first.
    pub(crate) messages: Vec<PressMessage>,
    /// How many earlier messages the window left out.
    pub(crate) earlier: usize,
}

/// The press `me` may read in a game, within `window`.
pub(crate) async fn read(state: &AppState, me: &str, id: &str, window: &PressWindow) -> ApiResult<PressPage> {
    let mut unit = crate::sql::SqlUnit::begin(&state.store).await?;
    let (read, earlier) = crate::app::press::read(&mut unit, me, id, window.since_ms, window.last).await?;
    Ok(page_of(read, earlier))
}

/// The press `me` reads on the game page, within `window`: as [`read`], with what came since
/// `me` last looked marked new, and this look noted.
pub(crate) async fn read_on_page(state: &AppState, me: &str, id: &str, window: &PressWindow) -> ApiResult<PressPage> {
    let mut unit = crate::sql::SqlUnit::begin(&state.store).await?;
    let (read, earlier) = crate::app::press::read_marking(&mut unit, me, id, window.since_ms, window.last).await?;
    crate::app::ports::Unit::commit(unit).await?;
    Ok(page_of(read, earlier))
}

/// The messages read, as the service shows them.
fn page_of(read: Vec<crate::app::press::ReadMessage>, earlier: usize) -> PressPage {
    let messages = read
        .into_iter()
        .map(|m| PressMessage {
            from_master: m.from == Speaker::Master,
            from: match &m.from {
                Speaker::Hidden => None,
                speaker => Some(crate::i18n::speaker(speaker, Lang::En)),
            },
            to: m.to,
            body: m.body,
            sent_ms: m.sent_ms,
            phase: m.phase,
            new: m.new,
        })
        .collect();
    PressPage { messages, earlier }
}
