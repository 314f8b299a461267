//! The map of a game at any step of its history (each adjudicated phase with its orders and
//! their outcomes, then the current position), as SVG for the pages and as SVG or PNG files.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use spielleiter_engine::report::{Lang, phase_title};
use spielleiter_engine::{Position, Variant};
use spielleiter_render::{DrawnOrder, OrderState, Scene};

use super::pages::StepQuery;
use super::{PageQuery, Viewer};
use crate::api::orders::{self, Echo};
use crate::api::{self, AppState, Game};
use crate::error::ApiError;
use crate::pictures::{PhaseRow, StoredPhase, draw};

/// A picture with where it stands in the history.
pub(crate) struct Picture {
    pub(crate) svg: String,
    /// Its step.
    pub(crate) step: usize,
    /// The last step (the current position).
    pub(crate) steps: usize,
    /// The step in words.
    pub(crate) label: String,
    /// The report of the adjudicated phase shown, if it is one.
    pub(crate) report: Option<String>,
    /// `me`'s orders for the current phase, when the picture is of now and `me` plays.
    pub(crate) mine: Option<MyOrders>,
    /// With the picture of now: the last adjudicated phase's title and report, so that a new
    /// phase opens with what just happened (for those who may read the history).
    pub(crate) last: Option<(String, String)>,
}

/// A player's stored orders for the current phase, as read against the position.
pub(crate) struct MyOrders {
    /// The lines as sent.
    pub(crate) lines: Vec<String>,
    /// How each line was read.
    pub(crate) echo: Vec<Echo>,
    /// The orders drawn on the map.
    pub(crate) drawn: Vec<DrawnOrder>,
    /// What the orders leave out or overdo, in the reader's language.
    pub(crate) gaps: Vec<String>,
    /// Each unit that needs an order, marked ordered, missing or refused on the map.
    pub(crate) marks: Vec<(spielleiter_engine::Unit, spielleiter_engine::completeness::UnitMark)>,
}

/// `me`'s orders in a running game, read against the current position.
async fn my_orders(
    state: &AppState,
    me: &str,
    g: &Game,
    v: &Variant,
    position: &Position,
    lang: Lang,
) -> Result<Option<MyOrders>, ApiError> {
    if g.status != crate::domain::GameStatus::Active {
        return Ok(None);
    }
    let Some(key) = api::power_of(state, &g.id, me).await? else {
        return Ok(None);
    };
    let Some(power) = v.map.power_by_name(&key) else {
        return Ok(None);
    };
    let lines = orders::stored(state, &g.id, &key, &position.phase.to_string()).await?;
    let phase = position.phase.to_string();
    let submitted = orders::OrderLines::plain(lines.clone()).with_orders_in_advance(g.pending.covers(&key, &phase));
    let orders::Reading {
        read,
        echo,
        gaps,
        marks,
        ..
    } = orders::echo(v, position, power, &submitted, lang);
    // An order for a neutral country the player controls is drawn in that country's colour.
    let drawn = read
        .lines
        .iter()
        .filter_map(|l| l.result.as_ref().ok().map(|&order| (l.power, order)))
        .map(|(country, order)| DrawnOrder {
            power: country.or(Some(power)),
            order,
            state: OrderState::Pending,
        })
        .collect();
    Ok(Some(MyOrders {
        lines,
        echo,
        drawn,
        gaps,
        marks,
    }))
}

fn not_drawn(game: &str, what: &str, e: impl std::fmt::Display) -> ApiError {
    eprintln!("map of {game} {what}: {e}");
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal",
        "the map could not be drawn",
    )
    .de("Die Karte konnte nicht gezeichnet werden")
}

/// A game's position now: the current one, or the opening one before the start.
pub(crate) fn position_now(v: &Variant, g: &Game) -> Result<Position, ApiError> {
    Ok(if g.state_json.is_some() {
        api::current_position(v, g)?.1
    } else {
        Position::initial(v)
    })
}

/// The picture of a game at a step (default: now, which is `now`) as `me` may see it: the
/// history only for its members and master, the orders of the current phase only `me`'s own.
pub(crate) async fn picture(
    state: &AppState,
    me: &str,
    g: &Game,
    v: &Arc<Variant>,
    step: Option<usize>,
    now: &Position,
    lang: Lang,
) -> Result<Picture, ApiError> {
    // The history is for the game's members and master, and for everyone after the end.
    let insider = match api::may_read_history(state, g, me).await {
        Ok(()) => true,
        // Not allowed: no history shown; anything else (the database) is an error.
        Err(e) if e.status == axum::http::StatusCode::FORBIDDEN => false,
        Err(e) => return Err(e),
    };
    let steps = if insider {
        crate::sql::reads::phase_count(&state.store.pool, &g.id).await?
    } else {
        0
    };
    let at = step.unwrap_or(steps).min(steps);
    if at < steps {
        return past_picture(state, g, v, at, steps, lang).await;
    }
    // Now, with `me`'s orders.
    let position = now.clone();
    let mine = my_orders(state, me, g, v, &position, lang).await?;
    let drawn = mine.as_ref().map(|m| m.drawn.clone()).unwrap_or_default();
    let marks = mine.as_ref().map(|m| m.marks.clone()).unwrap_or_default();
    let v2 = v.clone();
    let svg = tokio::task::spawn_blocking(move || {
        let mut scene = Scene::position(&v2, &position, lang);
        scene.orders = drawn;
        scene.marks = marks;
        draw(&v2, &scene)
    })
    .await
    .map_err(|e| not_drawn(&g.id, "now", e))?;
    let label = match lang {
        Lang::En => "now",
        Lang::De => "jetzt",
    };
    let label = match g.phase.as_deref().and_then(|p| p.parse().ok()) {
        Some(p) if g.status == crate::domain::GameStatus::Active => format!("{label}: {}", phase_title(v, p, lang)),
        _ => label.to_string(),
    };
    let last = match steps {
        0 => None,
        _ => last_report(state, g, v, steps - 1, lang).await?,
    };
    Ok(Picture {
        svg,
        step: steps,
        steps,
        label,
        report: None,
        mine,
        last,
    })
}

/// The title and report of the `at`-th adjudicated phase, in `lang`.
async fn last_report(
    state: &AppState,
    g: &Game,
    v: &Variant,
    at: usize,
    lang: Lang,
) -> Result<Option<(String, String)>, ApiError> {
    let Some(r) = crate::sql::reads::nth_phase(&state.store.pool, &g.id, at).await? else {
        return Ok(None);
    };
    let title = r.phase.parse().map(|p| phase_title(v, p, lang)).unwrap_or(r.phase);
    let report = if lang == Lang::De { r.report_de } else { r.report_en };
    Ok(Some((title, report)))
}

/// The picture of an adjudicated phase (the `at`-th of `steps`), with its report.
async fn past_picture(
    state: &AppState,
    g: &Game,
    v: &Arc<Variant>,
    at: usize,
    steps: usize,
    lang: Lang,
) -> Result<Picture, ApiError> {
    let r = crate::sql::reads::nth_phase(&state.store.pool, &g.id, at)
        .await?
        .ok_or_else(|| ApiError::from(crate::domain::DomainError::NoSuchPhase))?;
    let stored = StoredPhase::read(&PhaseRow::from(&r)).map_err(|e| not_drawn(&g.id, "history", e))?;
    let phase = r.phase;
    let report = if lang == Lang::De { r.report_de } else { r.report_en };
    let v2 = v.clone();
    let svg = tokio::task::spawn_blocking(move || stored.svg(&v2, lang))
        .await
        .map_err(|e| e.to_string())
        .and_then(|r| r)
        .map_err(|e| not_drawn(&g.id, &phase, e))?;
    let label = phase.parse().map(|p| phase_title(v, p, lang)).unwrap_or(phase);
    Ok(Picture {
        svg,
        step: at,
        steps,
        label,
        report: Some(report),
        mine: None,
        last: None,
    })
}

/// A picture's SVG and how long a browser may keep it: an adjudicated phase never changes (kept
/// per reader, and per cookie, which carries the language); the position now is not kept.
async fn game_picture(
    state: &AppState,
    viewer: &Viewer,
    id: &str,
    step: Option<usize>,
) -> Result<(String, [(header::HeaderName, &'static str); 2]), Response> {
    let me = viewer.account()?.clone();
    let lang = viewer.t.engine_lang();
    let run = async {
        let g = api::game(state, id).await?;
        let v = crate::variants::of_game(&g).map_err(ApiError::from)?;
        let now = position_now(&v, &g)?;
        picture(state, &me.id, &g, &v, step, &now, lang).await
    };
    let picture = run.await.map_err(|e| viewer.error(&e, "/games"))?;
    let keep = if picture.step < picture.steps {
        "private, max-age=86400, immutable"
    } else {
        "no-store"
    };
    Ok((picture.svg, [(header::CACHE_CONTROL, keep), (header::VARY, "Cookie")]))
}

/// `GET /games/{id}/map.svg?step=N`.
pub(crate) async fn svg(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<String>,
    PageQuery(q): PageQuery<StepQuery>,
) -> Response {
    match game_picture(&state, &viewer, &id, q.step).await {
        Ok((svg, keep)) => (
            keep,
            [
                (header::CONTENT_TYPE, "image/svg+xml"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
                // Opened on its own, the picture runs nothing and loads nothing.
                (
                    header::CONTENT_SECURITY_POLICY,
                    "default-src 'none'; style-src 'unsafe-inline'",
                ),
            ],
            svg,
        )
            .into_response(),
        Err(r) => r,
    }
}

/// `GET /games/{id}/map.png?step=N`.
pub(crate) async fn png(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<String>,
    PageQuery(q): PageQuery<StepQuery>,
) -> Response {
    let (svg, keep) = match game_picture(&state, &viewer, &id, q.step).await {
        Ok(picture) => picture,
        Err(r) => return r,
    };
    let Some(_turn) = crate::pictures::rasterizing_turn().await else {
        return (StatusCode::SERVICE_UNAVAILABLE, "the picture could not be rasterized").into_response();
    };
    match tokio::task::spawn_blocking(move || spielleiter_render::png(&svg, 1.0)).await {
        Ok(Ok(bytes)) => (keep, [(header::CONTENT_TYPE, "image/png")], bytes).into_response(),
        _ => (StatusCode::INTERNAL_SERVER_ERROR, "the picture could not be rasterized").into_response(),
    }
}
