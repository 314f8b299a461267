//! Press: private messages, broadcasts and game-master announcements, with grey and no-press games.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
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
) -> ApiResult<(StatusCode, Json<PressSent>)> {
    let sent = send(&state, &me, &id, &body.to, &body.body, None).await?;
    Ok((StatusCode::CREATED, Json(sent)))
}

/// A message stored: its id, the powers it went to (none: everyone), and whether it had been
/// sent already (the same mail read a second time).
#[derive(serde::Serialize)]
pub(crate) struct PressSent {
    id: String,
    /// The powers it went to.
    pub(crate) to: Vec<String>,
    /// Whether it had been sent already.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) repeat: bool,
}

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
    let g = game(state, id).await?;
    let v = variant(&g.variant)?;
    let power = power_of(state, id, me).await?;
    let master = g.master == me;
    if power.is_none() && !master {
        return Err(ApiError::forbidden("only the game's players and master send press")
            .de("Nur die Spieler und die Spielleitung der Partie senden Presse"));
    }
    if g.press == "none" && !master {
        return Err(ApiError::forbidden("this is a no-press game").de("In dieser Partie gibt es keine Presse"));
    }
    if body.trim().is_empty() || body.len() > 20_000 {
        return Err(
            ApiError::bad_request("bad_press", "a message has 1 to 20000 characters")
                .de("Eine Nachricht hat 1 bis 20000 Zeichen"),
        );
    }
    let recipients = recipients_of(&v, to)?;
    let phase = g
        .state_json
        .as_deref()
        .and_then(|s| serde_json::from_str::<GameState>(s).ok())
        .map(|s| s.phase)
        .unwrap_or_default();
    let press_id = press_id.unwrap_or_else(new_id);
    let grey = g.press == "grey";
    let mut tx = state.store.pool.begin().await?;
    let stored = sqlx::query(
        "INSERT INTO press (id, game_id, phase, from_account, from_power, recipients, grey, body, sent_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(&press_id)
    .bind(id)
    .bind(&phase)
    .bind(me)
    .bind(&power)
    .bind(serde_json::to_string(&recipients).unwrap_or_default())
    .bind(i64::from(grey))
    .bind(body.trim())
    .bind(now_ms())
    .execute(&mut *tx)
    .await;
    match stored {
        Ok(_) => {}
        // The same message again (a mail processed a second time): it was sent already.
        Err(e) if is_unique_violation(&e) => {
            return Ok(PressSent {
                id: press_id,
                to: recipients,
                repeat: true,
            });
        }
        Err(e) => return Err(e.into()),
    }
    let from = match &power {
        None => "Game master".to_string(),
        Some(_) if grey => "?".to_string(),
        Some(p) => p.clone(),
    };
    for (account, lang) in press_readers(&mut tx, &g, me, &recipients).await? {
        let (subject, text) = press_mail(&g.name, &from, &recipients, &phase, body, lang == "de");
        queue_message(&mut tx, &g.id, &account, &subject, &text).await?;
    }
    tx.commit().await?;
    Ok(PressSent {
        id: press_id,
        to: recipients,
        repeat: false,
    })
}

/// The accounts that receive a message by mail, with their languages: for a broadcast every
/// member and the master, otherwise the players of the recipient powers; never the sender.
async fn press_readers(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    g: &GameRow,
    me: &str,
    to_powers: &[String],
) -> ApiResult<Vec<(String, String)>> {
    let everyone = recipients(tx, g).await?;
    // The power each account plays, read once for all of them.
    let powers: Vec<(String, String)> = sqlx::query(
        "SELECT account_id, power FROM members WHERE game_id = $1 AND role = 'player' AND power IS NOT NULL",
    )
    .bind(&g.id)
    .fetch_all(&mut **tx)
    .await?
    .iter()
    .map(|r| (r.get(0), r.get(1)))
    .collect();
    let reads =
        |account: &str| to_powers.is_empty() || powers.iter().any(|(a, p)| a == account && to_powers.contains(p));
    Ok(everyone
        .into_iter()
        .filter(|(account, _)| account != me && reads(account))
        .collect())
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

/// The powers a message goes to, each once, by their keys.
fn recipients_of(v: &Variant, to: &[String]) -> ApiResult<Vec<String>> {
    let mut recipients = Vec::new();
    for name in to {
        let key = power_key(v, name)?;
        if !recipients.contains(&key) {
            recipients.push(key);
        }
    }
    Ok(recipients)
}

/// The subject and text of a press mail in English or German.
fn press_mail(
    game: &str,
    from: &str,
    recipients: &[String],
    phase: &str,
    body: &str,
    german: bool,
) -> (String, String) {
    let (subject, to_line) = match (german, recipients.is_empty()) {
        (false, true) => (
            format!("Diplomacy game {game}: press from {from} to all"),
            "all".to_string(),
        ),
        (false, false) => (
            format!("Diplomacy game {game}: press from {from}"),
            recipients.join(", "),
        ),
        (true, true) => (
            format!("Diplomacy-Partie {game}: Presse von {from} an alle"),
            "alle".to_string(),
        ),
        (true, false) => (
            format!("Diplomacy-Partie {game}: Presse von {from}"),
            recipients.join(", "),
        ),
    };
    let text = if german {
        format!("Von: {from}\nAn: {to_line}\nPhase: {phase}\n\n{}\n", body.trim())
    } else {
        format!("From: {from}\nTo: {to_line}\nPhase: {phase}\n\n{}\n", body.trim())
    };
    (subject, text)
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
    sent_ms: i64,
    /// The phase it was sent in.
    pub(crate) phase: String,
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
    let g = game(state, id).await?;
    member_or_master(state, &g, me).await?;
    let mine = power_of(state, id, me).await?;
    let rows = sqlx::query(
        "SELECT from_account, from_power, recipients, grey, body, sent_ms, phase FROM press \
         WHERE game_id = $1 AND sent_ms > $2 ORDER BY sent_ms, id",
    )
    .bind(id)
    .bind(window.since_ms.unwrap_or(i64::MIN))
    .fetch_all(&state.store.pool)
    .await?;
    let mut messages = Vec::new();
    for r in rows {
        let from_account: String = r.get(0);
        let from_power: Option<String> = r.get(1);
        // Unreadable recipients are an error: read as "none" they would make private press public.
        let recipients: Vec<String> =
            serde_json::from_str(&r.get::<String, _>(2)).map_err(|e| ApiError::unreadable("press recipients", e))?;
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
        let from = match &from_power {
            None => Some("Game master".to_string()),
            Some(_) if grey && !sent_by_me => None,
            Some(p) => Some(p.clone()),
        };
        messages.push(PressMessage {
            from,
            from_master: from_power.is_none(),
            to: recipients,
            body: r.get(4),
            sent_ms: r.get(5),
            phase: r.get(6),
        });
    }
    let earlier = window.last.map_or(0, |last| messages.len().saturating_sub(last));
    messages.drain(..earlier);
    Ok(PressPage { messages, earlier })
}
