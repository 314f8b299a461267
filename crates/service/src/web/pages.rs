//! The page handlers: home (log in, sign up), the list of games, the game page, and the forms
//! they post (each goes through the same domain function as the JSON API).

use askama::Template;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

use spielleiter_engine::report::{phase_title, politics_summary};
use spielleiter_engine::{Position, Variant};

use super::maps::{picture, position_now};
use super::{LANG, PageQuery, Posted, SESSION, Text, Viewer};
use crate::api::accounts::SESSION_SECONDS;
use crate::api::orders::Echo;
use crate::api::{self, AppState, accounts, adjudication, endgame, games, master, orders, press};
use crate::domain::{GameStatus, Role};
use crate::error::ApiError;
use crate::limits::Source;

/// How long a browser keeps the chosen language.
const LANG_SECONDS: i64 = 365 * 24 * 3600;

#[derive(Template)]
#[template(path = "home.html")]
pub(crate) struct HomePage {
    pub(crate) t: &'static Text,
    pub(crate) viewer_name: Option<String>,
    pub(crate) csrf: String,
    pub(crate) flash: Option<String>,
    /// The page to go to after logging in (a page of this site), or empty for the games.
    pub(crate) next: String,
    /// The name and address typed before a refusal, kept in the forms.
    pub(crate) name: String,
    pub(crate) email: String,
    /// Why the last attempt to log in or sign up was refused.
    pub(crate) refusal: Option<String>,
}

#[derive(Template)]
#[template(path = "account.html")]
pub(crate) struct AccountPage {
    t: &'static Text,
    viewer_name: Option<String>,
    csrf: String,
    flash: Option<String>,
    name: String,
    email: String,
    lang: String,
    /// Whether the address in use is confirmed (a new account's is not, until its code is entered).
    email_confirmed: bool,
    /// A new address waiting for the code mailed to it (a new account's first address, too).
    pending_email: Option<String>,
    /// The code, when the page was opened from the link in that mail.
    code: String,
}

#[derive(Template)]
#[template(path = "error.html")]
pub(crate) struct ErrorPage {
    pub(crate) t: &'static Text,
    pub(crate) viewer_name: Option<String>,
    pub(crate) csrf: String,
    pub(crate) flash: Option<String>,
    pub(crate) message: String,
    pub(crate) back: String,
}

/// A list of games with its heading.
pub(crate) struct GameList {
    /// The table's HTML id.
    id: &'static str,
    heading: &'static str,
    /// The viewer's own games, with the viewer's part in each.
    own: bool,
    lines: Vec<GameLine>,
}

/// One line of the games list.
pub(crate) struct GameLine {
    id: String,
    name: String,
    /// The viewer's part in one of its games: its power, master or observer.
    part: String,
    variant: String,
    status: &'static str,
    phase: String,
    /// How many players joined, of how many the variant has powers for (`3 / 7`).
    players: String,
    /// Who masters it.
    master: String,
    /// The deadline as an instant (`2026-11-25T18:00:00Z`) and in the game's time zone, while
    /// the clock runs.
    deadline: Option<(String, String)>,
    /// The viewer's power has something to order and has sent nothing yet.
    needs_orders: bool,
}

#[derive(Template)]
#[template(path = "games.html")]
pub(crate) struct GamesPage {
    t: &'static Text,
    viewer_name: Option<String>,
    csrf: String,
    flash: Option<String>,
    /// The viewer's games (as master, player or observer), then the others; empty lists are
    /// left out.
    lists: Vec<GameList>,
    variants: Vec<(String, String)>,
    /// The other calendars variants offer: name, and which variant's it is with what it is.
    calendars: Vec<(String, String)>,
    /// The new-game form's values (the defaults, or what was typed before a refusal).
    f: super::new_game::GameForm,
}

/// A press message as listed.
pub(crate) struct PressLine {
    /// When it was sent: the instant (for the reader's own time) and in UTC.
    sent: (String, String),
    /// Sent since the reader last looked.
    new: bool,
    phase: String,
    from: String,
    to: String,
    body: String,
}

#[derive(Template)]
#[template(path = "game.html")]
pub(crate) struct GamePage {
    t: &'static Text,
    viewer_name: Option<String>,
    csrf: String,
    flash: Option<String>,
    id: String,
    name: String,
    variant_title: String,
    /// The variant's name (its rules page).
    variant: String,
    status_text: &'static str,
    phase_text: Option<String>,
    deadline: Option<String>,
    /// The variant's game options chosen at creation, in words.
    rule_options: Option<String>,
    /// The viewer's own political factors, influence and control (Hegemony), never others'.
    politics: Vec<String>,
    result: Option<String>,
    /// The viewer's power: its name, colour and key.
    my_power: Option<(String, String, String)>,
    is_master: bool,
    map_svg: String,
    step: usize,
    max_step: usize,
    step_label: String,
    report: Option<String>,
    /// On the page of now: the last adjudicated phase's title and report.
    last_report: Option<(String, String)>,
    /// The viewer's builds or disbands this winter, with where it may build.
    adjustment_note: Option<String>,
    can_order: bool,
    orders_text: String,
    echo: Vec<Echo>,
    /// What the viewer's orders leave out or overdo.
    gaps: Vec<String>,
    /// What the script needs to build orders by clicking.
    click: ClickPart,
    /// Before the start: joining, the viewer's wishes, the start.
    forming: Option<FormingPart>,
    /// The seed of the lot that gave out the powers, once drawn.
    lot_seed: Option<i64>,
    /// The master's controls of a running game are shown.
    master_controls: bool,
    /// The clock stands still.
    paused: bool,
    /// The current phase (`S1901M`), which an adjudication request names.
    phase_key: String,
    /// The viewer plays a surviving power and may vote for a draw.
    can_vote: bool,
    /// The powers whose orders the current phase still awaits (shown to the master).
    awaited: Vec<String>,
    /// "n of m powers ready" (with their names for the master, or when the game shows them).
    ready_line: Option<String>,
    /// The viewer marked its orders final.
    my_ready: bool,
    /// The viewer has voted for a draw.
    my_draw_vote: bool,
    powers: Vec<(String, String)>,
    /// The powers with their players, centres, units and (where the viewer may know) state.
    power_lines: Vec<super::powers::PowerLine>,
    /// The observers' names.
    observers: Vec<String>,
    /// The deadline as an instant for scripts (`2026-11-25T18:00:00Z`), while the clock runs.
    deadline_iso: Option<String>,
    press: PressPart,
    version: String,
}

/// The game page's press: what the viewer may read and whether it may write.
pub(crate) struct PressPart {
    /// The viewer is a member or the master.
    can_read: bool,
    /// The viewer may send press now.
    can_send: bool,
    /// The latest messages.
    lines: Vec<PressLine>,
    /// How many earlier messages are left out (only the latest are shown unless asked).
    earlier: usize,
    /// How many of them are new to the reader.
    new: usize,
    /// The powers the viewer may write to (its own left out).
    recipients: Vec<(String, String)>,
}

#[derive(Template)]
#[template(path = "echo.html")]
pub(crate) struct EchoFragment {
    t: &'static Text,
    echo: Vec<Echo>,
    /// What the orders leave out or overdo.
    gaps: Vec<String>,
}

/// The query of the home page: where to go after logging in.
#[derive(serde::Deserialize)]
pub(crate) struct HomeQuery {
    next: Option<String>,
}

/// `/`: log in or sign up; logged-in visitors go to their games (or the page they came for).
pub(crate) async fn home(viewer: Viewer, PageQuery(q): PageQuery<HomeQuery>) -> Response {
    let next = super::local_path(q.next.as_deref().unwrap_or(""));
    if viewer.account.is_some() {
        return viewer.redirect(next.unwrap_or("/games"));
    }
    viewer.login_page(StatusCode::OK, None, next.unwrap_or(""))
}

/// Opens a session for an account and sends the browser to `next` (a page of this site) or its
/// games; a refusal shows the home page again with the name kept.
async fn open_session(state: &AppState, viewer: &Viewer, ip: std::net::IpAddr, form: &super::Form) -> Response {
    let next = super::local_path(form.get("next"));
    match accounts::login(state, &Source::Client(ip), form.get("name"), form.get("password")).await {
        Ok(accounts::LoggedIn { token, .. }) => {
            let mut response = viewer.redirect(next.unwrap_or("/games"));
            viewer.set_cookie(&mut response, SESSION, &token, SESSION_SECONDS);
            response
        }
        Err(e) => viewer.refused_login(&e, form),
    }
}

/// `POST /signup`: creates the account and logs it in.
pub(crate) async fn signup(State(state): State<AppState>, Posted { viewer, form, ip, .. }: Posted) -> Response {
    let new = accounts::NewAccount {
        name: form.get("name").to_string(),
        email: form.get("email").to_string(),
        password: form.get("password").to_string(),
        lang: if form.get("lang") == "de" { "de" } else { "en" }.to_string(),
    };
    if let Err(e) = accounts::create(&state, &Source::Client(ip), &new, accounts::CodeBy::Mail).await {
        return viewer.refused_login(&e, &form);
    }
    open_session(&state, &viewer, ip, &form).await
}

/// `POST /login`.
pub(crate) async fn login(State(state): State<AppState>, Posted { viewer, form, ip, .. }: Posted) -> Response {
    open_session(&state, &viewer, ip, &form).await
}

/// `POST /logout`: ends the session here and in the database.
pub(crate) async fn logout(State(state): State<AppState>, Posted { viewer, headers, .. }: Posted) -> Response {
    if let Some(token) = super::cookies(&headers).iter().find(|c| c.name() == SESSION)
        && let Err(e) = api::sessions::end(&state, token.value()).await
    {
        return viewer.error(&e, "/");
    }
    let mut response = viewer.redirect("/");
    viewer.set_cookie(&mut response, SESSION, "", 0);
    response
}

/// Whether the account page was reached after a change was saved (`?saved=1`), or from the link
/// mailed to a new address (`?code=…`).
#[derive(serde::Deserialize)]
pub(crate) struct AccountQuery {
    #[serde(default)]
    saved: Option<String>,
    #[serde(default)]
    code: Option<String>,
}

/// `GET /account`: one's address, language and password.
pub(crate) async fn account(
    State(state): State<AppState>,
    viewer: Viewer,
    PageQuery(q): PageQuery<AccountQuery>,
) -> Response {
    let me = match viewer.account() {
        Ok(a) => a.clone(),
        Err(r) => return r,
    };
    let shown = match accounts::account_view(&state, &me.id).await {
        Ok(a) => a,
        Err(e) => return viewer.error(&e, "/games"),
    };
    let page = AccountPage {
        t: viewer.t,
        viewer_name: Some(me.name.clone()),
        csrf: viewer.csrf.clone(),
        flash: q.saved.map(|_| viewer.t.saved.to_string()),
        name: shown.name,
        email: shown.email,
        lang: shown.lang.code().to_string(),
        email_confirmed: shown.email_confirmed,
        pending_email: shown.pending_email,
        code: q.code.unwrap_or_default(),
    };
    viewer.page(StatusCode::OK, page.render())
}

/// `POST /account`: a new address and language, or (`change=password`) a new password, each
/// checked with the password in use; the pages then follow the account's language.
pub(crate) async fn change_account(State(state): State<AppState>, post: Posted) -> Response {
    let me = match post.account() {
        Ok(me) => me,
        Err(r) => return r,
    };
    let Posted { viewer, form, ip, .. } = post;
    let password = form.get("change") == "password";
    if password && form.get("new_password") != form.get("new_password_again") {
        let e = ApiError::bad_request("bad_password", "the two new passwords differ")
            .de("Die beiden neuen Passwörter sind verschieden");
        return viewer.error(&e, "/account");
    }
    let given = |k: &str| Some(form.get(k).to_string()).filter(|v| !v.is_empty() && !password);
    let changes = accounts::AccountChanges {
        current_password: form.get("current_password").to_string(),
        email: given("email"),
        lang: given("lang"),
        new_password: password.then(|| form.get("new_password").to_string()),
    };
    match accounts::change(&state, &Source::Client(ip), &me.id, &changes).await {
        Ok(shown) => {
            let mut response = viewer.redirect("/account?saved=1");
            viewer.set_cookie(&mut response, LANG, shown.account.lang.code(), LANG_SECONDS);
            // A new password ended every session: this browser gets the new one.
            if let Some(token) = &shown.token {
                viewer.set_cookie(&mut response, SESSION, token, SESSION_SECONDS);
            }
            response
        }
        Err(e) => viewer.error(&e, "/account"),
    }
}

/// `POST /account/email`: the code mailed to a new address makes it the account's address; or
/// (`cancel=1`) the new address is withdrawn.
pub(crate) async fn confirm_email(State(state): State<AppState>, post: Posted) -> Response {
    let me = match post.account() {
        Ok(me) => me,
        Err(r) => return r,
    };
    let done = if post.form.get("cancel") == "1" {
        accounts::withdraw_address(&state, &me.id).await
    } else {
        accounts::confirm_address(&state, &Source::Client(post.ip), &me.id, post.form.get("code")).await
    };
    match done {
        Ok(_) => post.viewer.redirect("/account?saved=1"),
        Err(e) => post.viewer.error(&e, "/account"),
    }
}

#[derive(serde::Deserialize)]
pub(crate) struct LanguageQuery {
    to: String,
}

/// `GET /lang?to=de`: switches the language of the pages and goes back to the page.
pub(crate) async fn language(viewer: Viewer, headers: HeaderMap, PageQuery(q): PageQuery<LanguageQuery>) -> Response {
    let lang = if q.to == "de" { "de" } else { "en" };
    // Back to the page the link was on: only a path of this site.
    let back = headers
        .get(header::REFERER)
        .and_then(|v| v.to_str().ok())
        .and_then(|r| r.split_once("://").map(|(_, rest)| rest))
        .and_then(|rest| rest.find('/').map(|i| rest[i..].to_string()))
        .filter(|p| p.starts_with('/') && !p.starts_with("//"))
        .unwrap_or_else(|| "/".to_string());
    let mut response = viewer.redirect(&back);
    viewer.set_cookie(&mut response, LANG, lang, LANG_SECONDS);
    response
}

/// The games list's lines: the viewer's own games (all of them) or the others (the newest 200,
/// games still forming first).
async fn game_lines(state: &AppState, t: &'static Text, me: &str, own: bool) -> Result<Vec<GameLine>, ApiError> {
    let rows = crate::sql::reads::viewer_game_lines(&state.store.pool, me, own).await?;
    let mut lines = Vec::with_capacity(rows.len());
    for r in rows {
        let variant = crate::variants::played(&r.variant, r.calendar.as_deref()).ok();
        // The viewer's part: its power, else master or observer (or a player not yet given one).
        let (master, role) = (r.master(), r.role()?);
        let part = match (r.power.clone(), role) {
            (Some(key), _) => variant.as_ref().and_then(|v| power_name(v, &key, t)).unwrap_or(key),
            (None, Some(Role::Observer)) => t.observer.to_string(),
            (None, Some(Role::Player)) => t.player.to_string(),
            (None, None) if master => t.game_master.to_string(),
            (None, None) => String::new(),
        };
        let part = if master && role.is_some() {
            format!("{part}, {}", t.game_master)
        } else {
            part
        };
        let status = r.status()?;
        let running = status == GameStatus::Active && !r.paused();
        let needs_orders = match &r.power {
            Some(power) if own && running => awaits(state, &r.id, power).await?,
            _ => false,
        };
        let deadline = r.deadline_ms.filter(|_| running).and_then(|ms| {
            let iso = jiff::Timestamp::from_millisecond(ms).ok()?;
            Some((iso.to_string(), r.deadline_words(ms)))
        });
        lines.push(GameLine {
            status: t.status(status),
            deadline,
            needs_orders,
            phase: r
                .phase
                .as_deref()
                .zip(variant.as_ref())
                .and_then(|(p, v)| Some(phase_title(v, p.parse().ok()?, t.engine_lang())))
                .unwrap_or_default(),
            variant: variant
                .as_ref()
                .map_or_else(|| r.variant.clone(), |v| t.variant_title(v)),
            id: r.id,
            name: r.name,
            part,
            players: match &variant {
                Some(v) => format!(
                    "{} / {}",
                    r.players,
                    v.map.powers().iter().filter(|p| v.map.is_player(p.id)).count()
                ),
                None => r.players.to_string(),
            },
            master: r.master_name.clone().unwrap_or_default(),
        });
    }
    Ok(lines)
}

/// Whether game `id` awaits orders from `power` in its current phase.
async fn awaits(state: &AppState, id: &str, power: &str) -> Result<bool, ApiError> {
    let g = api::game(state, id).await?;
    Ok(adjudication::readiness(state, &g)
        .await?
        .awaited
        .iter()
        .any(|p| p == power))
}

/// `GET /games`: the viewer's games, the others, and the form for a new one.
pub(crate) async fn games(State(state): State<AppState>, viewer: Viewer) -> Response {
    let me = match viewer.account() {
        Ok(a) => a.clone(),
        Err(r) => return r,
    };
    games_page(
        &state,
        &viewer,
        &me,
        super::new_game::GameForm::defaults(),
        StatusCode::OK,
    )
    .await
}

/// The games page with the new-game form holding `f`.
async fn games_page(
    state: &AppState,
    viewer: &Viewer,
    me: &super::Account,
    f: super::new_game::GameForm,
    status: StatusCode,
) -> Response {
    let t = viewer.t;
    let (mine, others) = match (
        game_lines(state, t, &me.id, true).await,
        game_lines(state, t, &me.id, false).await,
    ) {
        (Ok(mine), Ok(others)) => (mine, others),
        (Err(e), _) | (_, Err(e)) => return viewer.error(&e, "/games"),
    };
    let builtin: Vec<_> = spielleiter_engine::variant::builtin_names()
        .filter_map(|n| api::variant(n).ok())
        .collect();
    let variants = builtin.iter().map(|v| (v.name.clone(), t.variant_title(v))).collect();
    let calendars = builtin
        .iter()
        .flat_map(|v| v.calendars.iter().map(move |c| (v, c)))
        .map(|(v, c)| {
            (
                c.name.clone(),
                format!("{}: {}", t.variant_title(v), t.calendar_title(c)),
            )
        })
        .collect();
    let page = GamesPage {
        t,
        viewer_name: Some(me.name.clone()),
        csrf: viewer.csrf.clone(),
        flash: None,
        calendars,
        lists: [
            GameList {
                id: "my-games",
                heading: t.my_games,
                own: true,
                lines: mine,
            },
            GameList {
                id: "other-games",
                heading: t.other_games,
                own: false,
                lines: others,
            },
        ]
        .into_iter()
        .filter(|l| !l.lines.is_empty())
        .collect(),
        variants,
        f,
    };
    viewer.page(status, page.render())
}

/// `POST /games`: creates a game with the viewer as master.
pub(crate) async fn create_game(State(state): State<AppState>, post: Posted) -> Response {
    let me = match post.account() {
        Ok(me) => me,
        Err(r) => return r,
    };
    let Posted { viewer, form, .. } = post;
    let mut f = super::new_game::GameForm::posted(&form);
    let refusal = match f.new_game() {
        Ok(new) => match games::create(&state, &me.id, &new).await {
            Ok(created) => return viewer.redirect(&format!("/games/{}", created.id)),
            Err(e) => e,
        },
        Err(e) => e,
    };
    f.refusal = Some(viewer.t.quoted(refusal.message_in(viewer.t.engine_lang())));
    let status = if refusal.status.is_success() {
        StatusCode::BAD_REQUEST
    } else {
        refusal.status
    };
    games_page(&state, &viewer, &me, f, status).await
}

/// The viewer's own political standing (Hegemony) while the game runs: only for the power
/// the viewer plays.
fn own_politics(status: GameStatus, v: &Variant, position: &Position, mine: Option<&str>, t: &Text) -> Vec<String> {
    match (status, mine.and_then(|p| v.map.power_by_name(p))) {
        (GameStatus::Active, Some(power)) => politics_summary(v, position, power, t.engine_lang()),
        _ => Vec::new(),
    }
}

/// A game's chosen options in words (none chosen: none).
fn rule_options_text(
    options: &crate::domain::RuleOptions,
    v: &spielleiter_engine::Variant,
    t: &Text,
) -> Option<String> {
    let calendar = v
        .calendars
        .iter()
        .find(|c| v.calendar_choice.as_deref() == Some(c.name.as_str()))
        .map(|c| format!("{}: {}", t.calendar, t.calendar_title(c)));
    let control = options.control_rule.as_deref().map(|r| {
        let rule = if r == "alternative" {
            t.control_alternative
        } else {
            t.control_standard
        };
        format!("{}: {rule}", t.control_rule)
    });
    let victory = options.victory.map(|v| format!("{}: {v}", t.victory));
    let house = options.retreats_with_moves.then(|| t.retreats_with_moves.to_string());
    let year = options.year_at_once.then(|| t.year_at_once.to_string());
    let parts: Vec<String> = control
        .into_iter()
        .chain(victory)
        .chain(calendar)
        .chain(house)
        .chain(year)
        .collect();
    (!parts.is_empty()).then(|| parts.join(" · "))
}

#[derive(serde::Deserialize)]
pub(crate) struct StepQuery {
    pub(crate) step: Option<usize>,
}

/// What the game page shows: a step of the history (default: now), and all press
/// (`press=all`) or only the latest.
#[derive(serde::Deserialize)]
pub(crate) struct GameQuery {
    step: Option<usize>,
    press: Option<String>,
}

/// How many press messages the game page shows unless asked for all.
const LATEST_PRESS: usize = 50;

/// `GET /games/{id}`: the game page.
pub(crate) async fn game(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<String>,
    PageQuery(q): PageQuery<GameQuery>,
) -> Response {
    let me = match viewer.account() {
        Ok(a) => a.clone(),
        Err(r) => return r,
    };
    let all_press = q.press.as_deref() == Some("all");
    match game_page(&state, &viewer, &me, &id, q.step, all_press).await {
        Ok(page) => viewer.page(StatusCode::OK, page.render()),
        Err(e) => viewer.error(&e, "/games"),
    }
}

async fn game_page(
    state: &AppState,
    viewer: &Viewer,
    me: &super::Account,
    id: &str,
    step: Option<usize>,
    all_press: bool,
) -> Result<GamePage, ApiError> {
    let t = viewer.t;
    let lang = t.engine_lang();
    let g = api::game(state, id).await?;
    let view = games::view_of(state, &me.id, &g).await?;
    let v = crate::variants::of_game(&g).map_err(ApiError::from)?;
    let status = g.status;
    let my_power = view.my_power.clone();
    let is_master = view.master;
    let position = position_now(&v, &g)?;
    let pic = picture(state, &me.id, &g, &v, step, &position, lang).await?;
    let phase_text = phase_text(&g, &v, lang);
    let can_order = status == GameStatus::Active && my_power.is_some();
    let my_sent = pic.mine.as_ref().is_some_and(|m| !m.lines.is_empty());
    let (orders_text, echo, gaps) = pic
        .mine
        .map(|m| (m.lines.join("\n"), m.echo, m.gaps))
        .unwrap_or_default();
    let press = press_part(state, &me.id, &g, &view, &v, all_press, t).await?;
    let now = (status == GameStatus::Active).then_some(&position);
    let survives = now.is_some_and(|position| survives(&v, position, my_power.as_deref()));
    let awaited = if now.is_some() && is_master {
        awaited(state, &g, &v, t).await?
    } else {
        Vec::new()
    };
    Ok(GamePage {
        t,
        viewer_name: Some(me.name.clone()),
        csrf: viewer.csrf.clone(),
        flash: None,
        id: g.id.clone(),
        name: g.name.clone(),
        variant_title: t.variant_title(&v),
        variant: v.name.clone(),
        status_text: t.status(status),
        phase_text: if status == GameStatus::Active { phase_text } else { None },
        deadline: view.deadline_local.clone().filter(|_| status == GameStatus::Active),
        result: view.result.as_ref().map(|r| result_text(r, &v, t)),
        rule_options: rule_options_text(&g.options, &v, t),
        politics: own_politics(status, &v, &position, my_power.as_deref(), t),
        my_power: my_power.as_deref().and_then(|p| power_shown(&v, p, t)),
        is_master,
        map_svg: pic.svg,
        step: pic.step,
        max_step: pic.steps,
        step_label: pic.label,
        report: pic.report,
        last_report: pic.last,
        adjustment_note: now.and_then(|position| adjustment_note(&v, position, my_power.as_deref(), t)),
        can_order,
        orders_text,
        echo: t.quoted_echo(echo),
        gaps,
        click: ClickPart::of(&v, &position, my_power.as_deref(), t),
        forming: forming_part(state, &me.id, &g, &view, &v, t).await?,
        lot_seed: view.lot_seed,
        master_controls: status == GameStatus::Active && is_master,
        paused: view.paused,
        phase_key: g.phase.clone().unwrap_or_default(),
        can_vote: status == GameStatus::Active && survives,
        awaited,
        ready_line: view.ready.as_ref().map(|r| ready_text(r, &v, t)),
        my_ready: can_order && view.ready.as_ref().is_some_and(|r| r.mine),
        my_draw_vote: view.my_draw_vote,
        powers: power_choices(&v, t),
        power_lines: super::powers::power_lines(&view, &v, &position, my_sent, t),
        observers: super::powers::observers(&view),
        deadline_iso: deadline_instant(&view, status),
        press,
        version: format!("{status}:{}", g.phase.clone().unwrap_or_default()),
    })
}

/// The deadline as an instant for the page's countdown (`2026-11-25T18:00:00Z`), while the
/// clock runs.
fn deadline_instant(view: &games::GameView, status: GameStatus) -> Option<String> {
    let ms = view
        .deadline_ms
        .filter(|_| status == GameStatus::Active && !view.paused)?;
    Some(jiff::Timestamp::from_millisecond(ms).ok()?.to_string())
}

/// What the game page's script needs to build orders by clicking.
pub(crate) struct ClickPart {
    /// The phase's kind: `M`, `R` or `A`.
    phase: &'static str,
    /// Where the viewer may build this winter, and what.
    builds: String,
    /// The order bar's words, as JSON.
    words: String,
}

impl ClickPart {
    /// For the viewer playing `power` (if any) in `position`.
    fn of(v: &Variant, position: &Position, power: Option<&str>, t: &Text) -> ClickPart {
        ClickPart {
            phase: super::clicks::phase_letter(position),
            builds: super::clicks::build_sites(v, position, power),
            words: super::clicks::builder_words(t),
        }
    }
}

/// The game page's part before the start.
pub(crate) struct FormingPart {
    /// The viewer may join (as a player or an observer).
    can_join: bool,
    /// The viewer may start the game (its master).
    can_start: bool,
    /// The viewer joined as an observer.
    observer: bool,
    /// The viewer joined as a player: its wishes by key and name (empty: any power).
    wishes: Option<Vec<(String, String)>>,
}

impl FormingPart {
    /// The key of the `n`-th wish (from 1), or "".
    fn wish_key(&self, n: &usize) -> &str {
        let wishes = self.wishes.as_deref().unwrap_or_default();
        wishes.get(n.saturating_sub(1)).map_or("", |(k, _)| k.as_str())
    }

    /// The wishes' names, joined.
    fn wish_names(&self) -> String {
        let wishes = self.wishes.as_deref().unwrap_or_default();
        wishes.iter().map(|(_, n)| n.as_str()).collect::<Vec<_>>().join(", ")
    }
}

/// The part of a forming game's page: joining, or the viewer's wishes, and the start.
async fn forming_part(
    state: &AppState,
    me: &str,
    g: &api::Game,
    view: &games::GameView,
    v: &Variant,
    t: &Text,
) -> Result<Option<FormingPart>, ApiError> {
    if g.status != GameStatus::Forming {
        return Ok(None);
    }
    let wishes = games::wishes_of(state, me, &g.id).await?.map(|keys| {
        keys.iter()
            .map(|k| (k.to_ascii_lowercase(), power_name(v, k, t).unwrap_or_else(|| k.clone())))
            .collect()
    });
    let observer = view.member && wishes.is_none();
    Ok(Some(FormingPart {
        can_join: !view.member,
        can_start: view.master,
        observer,
        wishes,
    }))
}

/// The press part of the game page for `me` (all messages with `all`).
async fn press_part(
    state: &AppState,
    me: &str,
    g: &api::Game,
    view: &games::GameView,
    v: &Variant,
    all: bool,
    t: &Text,
) -> Result<PressPart, ApiError> {
    let can_read = view.member || view.master;
    let (lines, earlier) = press_lines(state, me, &g.id, all, can_read, v, t).await?;
    let mine = view.my_power.as_deref().map(str::to_ascii_lowercase);
    let recipients = power_choices(v, t)
        .into_iter()
        .filter(|(key, _)| Some(key) != mine.as_ref())
        .collect();
    Ok(PressPart {
        new: lines.iter().filter(|l| l.new).count(),
        recipients,
        can_read,
        can_send: g.status == GameStatus::Active
            && (view.my_power.is_some() || view.master)
            && (g.press != crate::domain::PressPolicy::None || view.master),
        lines,
        earlier,
    })
}

/// The title of the game's current phase, if it has one.
fn phase_text(
    g: &api::Game,
    v: &spielleiter_engine::Variant,
    lang: spielleiter_engine::report::Lang,
) -> Option<String> {
    g.phase
        .as_deref()
        .and_then(|p| p.parse().ok())
        .map(|p| phase_title(v, p, lang))
}

/// The variant's powers by key and name, for the page's choices.
fn power_choices(v: &spielleiter_engine::Variant, t: &Text) -> Vec<(String, String)> {
    v.map
        .powers()
        .iter()
        .map(|p| (p.key.clone(), t.power_name(p)))
        .collect()
}

/// For a player in a winter: how many units it builds (and in which free home centres) or must
/// disband.
fn adjustment_note(v: &Variant, position: &Position, power: Option<&str>, t: &Text) -> Option<String> {
    if position.phase.kind != spielleiter_engine::phase::PhaseKind::Adjustment {
        return None;
    }
    let id = v.map.power_by_name(power?)?;
    let count = *spielleiter_engine::game::expected_counts(v, position).get(id.index())?;
    let lang = t.engine_lang();
    let sites: Vec<String> = position
        .free_home_centres(&v.map, id)
        .map(|p| spielleiter_engine::report::province_name(v, p, lang))
        .collect();
    Some(match count {
        0 => t.adjust_none.to_string(),
        n if n > 0 => {
            let sites = if sites.is_empty() {
                t.adjust_no_site.to_string()
            } else {
                sites.join(", ")
            };
            t.adjust_build.replace("{n}", &n.to_string()).replace("{sites}", &sites)
        }
        n => t.adjust_disband.replace("{n}", &n.unsigned_abs().to_string()),
    })
}

/// Whether the player's power is still in the game.
fn survives(v: &spielleiter_engine::Variant, position: &spielleiter_engine::Position, power: Option<&str>) -> bool {
    power
        .and_then(|p| v.map.power_by_name(p))
        .is_some_and(|id| spielleiter_engine::game::survivors(v, position).contains(&id))
}

/// "2 of 7 powers ready", with their names where the viewer may know them.
fn ready_text(r: &api::games::ReadyCount, v: &spielleiter_engine::Variant, t: &Text) -> String {
    let count = format!("{} {} {} {}", r.ready, t.ready_of, r.of, t.powers_ready);
    match &r.powers {
        Some(powers) if !powers.is_empty() => {
            let names: Vec<String> = powers
                .iter()
                .map(|p| power_name(v, p, t).unwrap_or_else(|| p.clone()))
                .collect();
            format!("{count}: {}", names.join(", "))
        }
        _ => count,
    }
}

/// For the game master: the powers whose orders are still awaited, by name.
async fn awaited(
    state: &AppState,
    g: &api::Game,
    v: &spielleiter_engine::Variant,
    t: &Text,
) -> Result<Vec<String>, ApiError> {
    Ok(adjudication::readiness(state, g)
        .await?
        .awaited
        .iter()
        .map(|p| power_name(v, p, t).unwrap_or_else(|| p.clone()))
        .collect())
}

/// A power as the page shows its player: its name, colour and key.
fn power_shown(v: &spielleiter_engine::Variant, key: &str, t: &Text) -> Option<(String, String, String)> {
    let power = v.map.power(v.map.power_by_name(key)?);
    Some((t.power_name(power), power.colour.clone(), power.key.clone()))
}

/// The latest press the account may read (all of it with `all`; none unless `may_read`), as the
/// page shows it, and how many earlier messages are left out. Press that cannot be read is an
/// error (the page says so), never an empty list.
async fn press_lines(
    state: &AppState,
    me: &str,
    id: &str,
    all: bool,
    may_read: bool,
    v: &spielleiter_engine::Variant,
    t: &Text,
) -> Result<(Vec<PressLine>, usize), ApiError> {
    if !may_read {
        return Ok((Vec::new(), 0));
    }
    let window = press::PressWindow {
        since_ms: None,
        last: (!all).then_some(LATEST_PRESS),
    };
    let read = press::read_on_page(state, me, id, &window).await?;
    let lines = read
        .messages
        .iter()
        .map(|m| {
            let from = match &m.from {
                _ if m.from_master => t.game_master.to_string(),
                Some(s) => power_name(v, s, t).unwrap_or_else(|| s.clone()),
                None => t.anonymous.to_string(),
            };
            let to: Vec<String> = m.to.iter().filter_map(|p| power_name(v, p, t)).collect();
            PressLine {
                sent: jiff::Timestamp::from_millisecond(m.sent_ms)
                    .map(|t| (t.to_string(), t.strftime("%Y-%m-%d %H:%M UTC").to_string()))
                    .unwrap_or_default(),
                new: m.new,
                phase: m.phase.clone(),
                from,
                to: if to.is_empty() {
                    t.to_everyone.to_string()
                } else {
                    to.join(", ")
                },
                body: m.body.clone(),
            }
        })
        .collect();
    Ok((lines, read.earlier))
}

/// How the game ended, in the page's language: `Victory: France`.
fn result_text(r: &spielleiter_engine::interchange::GameEnd, v: &spielleiter_engine::Variant, t: &Text) -> String {
    let powers: Vec<String> = r.powers.iter().filter_map(|p| power_name(v, p, t)).collect();
    let kind = match r.kind.as_str() {
        "victory" => t.result_victory,
        "draw" => t.result_draw,
        "concession" => t.result_concession,
        "shared victory" => t.result_shared,
        other => other,
    };
    format!("{kind}: {}", powers.join(", "))
}

fn power_name(v: &spielleiter_engine::Variant, key: &str, t: &Text) -> Option<String> {
    let id = v.map.power_by_name(key)?;
    Some(t.power_name(v.map.power(id)))
}

/// A form posted to a game's page: the checked form and the game's id from the path.
pub(crate) struct GamePost {
    state: AppState,
    post: Posted,
    /// The game's id, from the path.
    id: String,
}

impl axum::extract::FromRequest<AppState> for GamePost {
    type Rejection = Response;

    async fn from_request(request: axum::extract::Request, state: &AppState) -> Result<GamePost, Response> {
        use axum::extract::FromRequestParts as _;
        let (mut parts, body) = request.into_parts();
        let Path(id) = Path::<String>::from_request_parts(&mut parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let post = Posted::from_request(axum::extract::Request::from_parts(parts, body), state).await?;
        Ok(GamePost {
            state: state.clone(),
            post,
            id,
        })
    }
}

impl GamePost {
    /// Runs the action for the logged-in poster with the state, the poster's account id, the
    /// game id and the form; then goes back to the page at `anchor`, or shows the refusal.
    async fn act<F, Fut, T>(self, anchor: &str, act: F) -> Response
    where
        F: FnOnce(AppState, String, String, super::Form) -> Fut,
        Fut: std::future::Future<Output = Result<T, ApiError>>,
    {
        let me = match self.post.account() {
            Ok(me) => me,
            Err(r) => return r,
        };
        let Posted { viewer, form, .. } = self.post;
        let back = format!("/games/{}", self.id);
        match act(self.state.clone(), me.id, self.id.clone(), form).await {
            Ok(_) => {
                self.state.changed(&self.id);
                viewer.redirect(&format!("{back}{anchor}"))
            }
            Err(e) => viewer.error(&e, &back),
        }
    }
}

/// `POST /games/{id}/join`.
pub(crate) async fn join(post: GamePost) -> Response {
    post.act("#joined", |state, me, id, form| async move {
        games::join(&state, &me, &id, &wish_fields(&form), form.get("observer") == "1").await
    })
    .await
}

/// The three wish fields of a join or wishes form, those filled in.
fn wish_fields(form: &super::Form) -> Vec<String> {
    ["wish1", "wish2", "wish3"]
        .iter()
        .map(|k| form.get(k).to_string())
        .filter(|w| !w.is_empty())
        .collect()
}

/// `POST /games/{id}/wishes`: a player's new wishes before the start.
pub(crate) async fn change_wishes(post: GamePost) -> Response {
    post.act("#joined", |state, me, id, form| async move {
        games::wishes(&state, &me, &id, &wish_fields(&form)).await
    })
    .await
}

/// `POST /games/{id}/leave`: leaves a game before the start.
pub(crate) async fn leave(post: GamePost) -> Response {
    post.act(
        "",
        |state, me, id, _| async move { games::leave(&state, &me, &id).await },
    )
    .await
}

/// `POST /games/{id}/start`.
pub(crate) async fn start(post: GamePost) -> Response {
    post.act(
        "",
        |state, me, id, _| async move { games::start(&state, &me, &id).await },
    )
    .await
}

/// `POST /games/{id}/adjudicate` (master): the phase the page showed, now.
pub(crate) async fn adjudicate(post: GamePost) -> Response {
    post.act("", |state, me, id, form| async move {
        let phase = Some(form.get("phase")).filter(|p| !p.is_empty());
        // Missing orders count as missed turns: the master says so knowingly.
        let confirmed = form.get("confirm") == "1";
        adjudication::adjudicate_as_master(&state, &me, &id, phase, confirmed).await
    })
    .await
}

/// `POST /games/{id}/extend` (master): the deadline moves by `hours`.
pub(crate) async fn extend(post: GamePost) -> Response {
    post.act("#master", |state, me, id, form| async move {
        let hours: f64 = form.get("hours").trim().replace(',', ".").parse().map_err(|_| {
            ApiError::bad_request("bad_extension", "the extension is a number of hours")
                .de("Die Verlängerung ist eine Zahl von Stunden")
        })?;
        let seconds = if hours.is_finite() {
            (hours * 3600.0).round() as i64
        } else {
            0
        };
        master::extend_deadline(&state, &me, &id, seconds).await
    })
    .await
}

/// `POST /games/{id}/pause` (master).
pub(crate) async fn pause(post: GamePost) -> Response {
    post.act("#master", |state, me, id, _| async move {
        master::pause_game(&state, &me, &id).await
    })
    .await
}

/// `POST /games/{id}/resume` (master).
pub(crate) async fn resume(post: GamePost) -> Response {
    post.act("#master", |state, me, id, _| async move {
        master::resume_game(&state, &me, &id).await
    })
    .await
}

/// `POST /games/{id}/draw`: a player's draw vote (`vote=yes`) or its withdrawal (`vote=no`).
pub(crate) async fn draw(post: GamePost) -> Response {
    post.act("#draw", |state, me, id, form| async move {
        endgame::vote(&state, &me, &id, form.get("vote") == "yes").await
    })
    .await
}

/// `POST /games/{id}/replace` (master): `power` goes to the account named `player`.
pub(crate) async fn replace(post: GamePost) -> Response {
    post.act("#master", |state, me, id, form| async move {
        master::replace_player(&state, &me, &id, form.get("power"), form.get("player")).await
    })
    .await
}

/// `POST /games/{id}/concede`: a player concedes to `to` (empty: withdraws the concession).
pub(crate) async fn concede(post: GamePost) -> Response {
    post.act("#draw", |state, me, id, form| async move {
        let to = Some(form.get("to")).filter(|t| !t.is_empty());
        endgame::concede_to(&state, &me, &id, to).await
    })
    .await
}

/// `POST /games/{id}/orders`: stores the orders; the page shows how each line was read.
pub(crate) async fn orders(post: GamePost) -> Response {
    let lang = post.post.viewer.t.engine_lang();
    post.act("#orders", move |state, me, id, form| async move {
        let lines: Vec<String> = form.get("orders").lines().map(|l| l.trim_end().to_string()).collect();
        let ready = form.get("ready") == "1";
        orders::submit(&state, &me, &id, &orders::OrderLines::plain(lines), ready, lang).await
    })
    .await
}

/// `POST /games/{id}/press`.
pub(crate) async fn press(post: GamePost) -> Response {
    post.act("#press", |state, me, id, form| async move {
        press::send(&state, &me, &id, &form.all("to"), form.get("body"), None).await
    })
    .await
}

/// `POST /games/{id}/echo`: how order lines would be read, as an HTML fragment (nothing stored).
pub(crate) async fn echo(State(state): State<AppState>, Path(id): Path<String>, post: Posted) -> Response {
    let me = match post.account() {
        Ok(me) => me,
        Err(r) => return r,
    };
    let Posted { viewer, form, .. } = post;
    let lang = viewer.t.engine_lang();
    let run = async {
        state.limits.echo(&me.id)?;
        let desk = orders::reading_desk(&state, &me.id, &id).await?;
        let in_advance = desk
            .game
            .pending
            .covers(&desk.power_key, &desk.position.phase.to_string());
        let lines = orders::OrderLines::plain(form.get("orders").lines().map(str::to_string).collect())
            .with_orders_in_advance(in_advance);
        let reading = orders::echo_checked(desk.variant, desk.position, desk.power, lines, lang).await?;
        Ok::<_, ApiError>((reading.echo, reading.gaps))
    };
    match run.await {
        Ok((echo, gaps)) => {
            let fragment = EchoFragment {
                t: viewer.t,
                echo: viewer.t.quoted_echo(echo),
                gaps,
            };
            match fragment.render() {
                Ok(html) => ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response(),
                Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
            }
        }
        Err(e) => (e.status, e.message_in(lang).to_string()).into_response(),
    }
}
