//! Orders: a player submits or replaces the orders of the current phase and is told how each line was read.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

use super::adjudication::{Trigger, adjudicate_game};
use super::*;
use crate::app;
use crate::app::ports::{GameUnit, SystemClock, Unit};
use crate::error::refusals::*;
use crate::sql::SqlUnit;
use spielleiter_engine::PowerId;

#[derive(Deserialize, utoipa::ToSchema)]
pub(crate) struct Orders {
    orders: Vec<String>,
}

/// How one order line was read: the order in the interchange notation, or the error.
#[derive(Serialize)]
pub(crate) struct Echo {
    /// The line as sent.
    pub(crate) input: String,
    /// The order read, in the interchange notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) order: Option<String>,
    /// Why the line was refused (or, Hegemony, not carried out).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<String>,
    /// The byte position of the offending word.
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<usize>,
    /// A name the writer probably meant.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) suggestion: Option<String>,
}

/// What a submission of orders did: the phase and power they are for, how each line was read,
/// and whether the phase was adjudicated at once.
#[derive(Serialize)]
pub(crate) struct Submission {
    /// The phase ordered for, such as `S1901M`.
    pub(crate) phase: String,
    /// The power that ordered.
    pub(crate) power: String,
    /// One echo per line read.
    pub(crate) orders: Vec<Echo>,
    /// How many lines were refused.
    pub(crate) errors: usize,
    /// How many lines are for later phases.
    pub(crate) later_phases: usize,
    /// How many retreats were ordered in advance.
    pub(crate) advance_retreats: usize,
    /// Whether every power was done and the phase was adjudicated at once.
    pub(crate) adjudicated: bool,
}

pub(crate) use crate::app::orders::StoredOrders;

/// Reads order lines of `power` against a position and tells how each was read (errors in
/// `lang`), with the orders as read. The one reading behind the API's answer and the web echo.
pub(crate) fn echo(
    v: &Variant,
    position: &Position,
    power: PowerId,
    lines: &[String],
    lang: Lang,
) -> (PhaseOrders, Vec<Echo>) {
    let mut read = PhaseOrders::default();
    read.read(v, position, Some(power), lines.iter().map(String::as_str));
    let error = |e: &spielleiter_engine::OrderError| match lang {
        Lang::En => e.kind.to_string(),
        Lang::De => spielleiter_engine::report::error_de(&e.kind),
    };
    let refused = |input: &str, e: &spielleiter_engine::OrderError| Echo {
        input: input.to_string(),
        order: None,
        error: Some(error(e)),
        position: Some(e.position),
        suggestion: e.suggestion.clone(),
    };
    let mut out: Vec<Echo> = read
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
            Err(e) => refused(&l.text, e),
        })
        .collect();
    out.extend(read.sender_only.iter().map(|(_, text, e)| refused(text, e)));
    (read, out)
}

/// The most lines one submission (or one echo) may have.
pub(crate) const MAX_LINES: usize = 500;
/// The most characters one line may have.
pub(crate) const MAX_LINE_CHARS: usize = 500;
/// The most text one submission may have in all, in bytes: far more than a year's orders of the
/// largest power, far less than what would keep a thread busy.
pub(crate) const MAX_TEXT_BYTES: usize = 32 * 1024;

/// Refuses a submission over [`MAX_LINES`], [`MAX_LINE_CHARS`] or [`MAX_TEXT_BYTES`].
pub(crate) fn check_size(lines: &[String]) -> ApiResult<()> {
    let total: usize = lines.iter().map(|l| l.len() + 1).sum();
    if lines.len() > MAX_LINES || total > MAX_TEXT_BYTES || lines.iter().any(|l| l.chars().count() > MAX_LINE_CHARS) {
        return Err(ApiError::bad_request(
            "too_long",
            format!(
                "at most {MAX_LINES} lines of at most {MAX_LINE_CHARS} characters, {} KB in all",
                MAX_TEXT_BYTES / 1024
            ),
        )
        .de(format!(
            "Höchstens {MAX_LINES} Zeilen mit höchstens {MAX_LINE_CHARS} Zeichen, {} KB insgesamt",
            MAX_TEXT_BYTES / 1024
        )));
    }
    Ok(())
}

/// [`echo`] after [`check_size`], on a blocking thread: reading many lines takes a while, and the
/// async threads serve everyone else meanwhile.
pub(crate) async fn echo_checked(
    v: std::sync::Arc<Variant>,
    position: Position,
    power: PowerId,
    lines: Vec<String>,
    lang: Lang,
) -> ApiResult<(PhaseOrders, Vec<Echo>)> {
    check_size(&lines)?;
    tokio::task::spawn_blocking(move || echo(&v, &position, power, &lines, lang))
        .await
        .map_err(|e| {
            eprintln!("reading orders: {e}");
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                "the orders could not be read",
            )
            .de("Die Befehle konnten nicht gelesen werden")
        })
}

/// The lines `power` stored for `phase` of a game (none stored: empty).
pub(crate) async fn stored(state: &AppState, id: &str, power: &str, phase: &str) -> ApiResult<Vec<String>> {
    let mut unit = SqlUnit::begin(&state.store).await?;
    Ok(unit.orders_of(id, power, phase).await?.unwrap_or_default())
}

#[utoipa::path(
    put,
    path = "/api/games/{id}/orders",
    tag = "orders",
    summary = "Send or replace the caller's orders for the current phase; each line is echoed as read or with its error.",
    request_body = Orders,
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), BadRequest, Unauthorized, Forbidden, NotFound, Conflict, BadJson, RateLimited)
)]
pub(crate) async fn submit_orders(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Orders>,
) -> ApiResult<Json<Submission>> {
    submit(&state, &me, &id, &body.orders).await.map(Json)
}

/// Stores `lines` as the orders of `me`'s power for the current phase (replacing earlier ones),
/// adjudicates at once when the game allows it and everyone is done, and tells how each line
/// was read. The one path for orders from the API and from mail.
pub(crate) async fn submit(state: &AppState, me: &str, id: &str, lines: &[String]) -> ApiResult<Submission> {
    state.limits.orders(me)?;
    let desk = app::orders::desk(&mut SqlUnit::begin(&state.store).await?, me, id).await?;
    let phase = desk.phase();
    let (read, echo) = echo_checked(
        desk.variant.clone(),
        desk.position.clone(),
        desk.power,
        lines.to_vec(),
        Lang::En,
    )
    .await?;
    let errors = echo.iter().filter(|e| e.error.is_some()).count();
    let mut unit = SqlUnit::begin(&state.store).await?;
    app::orders::keep(&mut unit, &SystemClock, &desk, lines).await?;
    unit.commit().await?;
    let mut unit = SqlUnit::begin(&state.store).await?;
    let complete = app::orders::complete_early(&mut unit, &desk.game).await?;
    drop(unit);
    let adjudicated = complete && adjudicate_game(state, id, Trigger::Early(&phase)).await.is_ok();
    Ok(Submission {
        phase,
        power: desk.power_key,
        orders: echo,
        errors,
        later_phases: read.later.len(),
        advance_retreats: read.advance.len(),
        adjudicated,
    })
}

#[utoipa::path(
    get,
    path = "/api/games/{id}/orders",
    tag = "orders",
    summary = "The caller's orders for the current phase (never another power's).",
    params(("id" = String, Path, description = "The game's id")),
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), Unauthorized, Forbidden, NotFound, Conflict)
)]
pub(crate) async fn my_orders(
    State(state): State<AppState>,
    Caller(me): Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<StoredOrders>> {
    mine(&state, &me, &id).await.map(Json)
}

/// Where `me` reads orders against the position in game `id` (see
/// [`app::orders::reading_desk`]).
pub(crate) async fn reading_desk(state: &AppState, me: &str, id: &str) -> ApiResult<app::orders::Desk> {
    Ok(app::orders::reading_desk(&mut SqlUnit::begin(&state.store).await?, me, id).await?)
}

/// `me`'s orders for the current phase, and those waiting for later phases.
pub(crate) async fn mine(state: &AppState, me: &str, id: &str) -> ApiResult<StoredOrders> {
    Ok(app::orders::mine(&mut SqlUnit::begin(&state.store).await?, me, id).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(count: usize, line: &str) -> Vec<String> {
        vec![line.to_string(); count]
    }

    #[test]
    fn a_submission_is_bounded_in_lines_in_line_length_and_in_bytes() {
        assert!(check_size(&lines(MAX_LINES, "A Par H")).is_ok());
        let too_many = check_size(&lines(MAX_LINES + 1, "A Par H")).expect_err("too many lines");
        assert_eq!(too_many.code, "too_long");
        let long_line = format!("A Par H # {}", "x".repeat(MAX_LINE_CHARS));
        assert!(check_size(&[long_line]).is_err(), "one line too long");
        // Characters, not bytes, per line: 500 umlauts are 1000 bytes and still one line.
        assert!(check_size(&["ä".repeat(MAX_LINE_CHARS)]).is_ok());
        let big = lines(MAX_TEXT_BYTES / 400 + 1, &"y".repeat(399));
        assert!(big.len() < MAX_LINES && check_size(&big).is_err(), "too many bytes");
    }
}
