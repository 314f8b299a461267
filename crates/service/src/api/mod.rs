//! The JSON HTTP API: accounts and sessions, games, orders, adjudication, results, press and the
//! end of a game. Each route's handler lives in the module named for what it is about.

use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use spielleiter_engine::interchange::GameState;
use spielleiter_engine::report::Lang;
use spielleiter_engine::{Position, Variant};

use crate::auth::token_hash;
use crate::error::ApiError;
use crate::store::{Store, now_ms};

pub(crate) mod accounts;
pub(crate) mod adjudication;
pub(crate) mod echo;
pub(crate) mod endgame;
pub(crate) mod games;
pub(crate) mod master;
pub(crate) mod orders;
pub(crate) mod press;
pub(crate) mod results;
pub(crate) mod sessions;

pub use adjudication::{DueGame, Trigger, adjudicate_game, due_games};

/// Shared state of the request handlers.
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub store: Store,
    /// How long each adjudication holds its transaction open before committing: zero, except in
    /// the crash test, which kills the process inside that window.
    pub adjudication_delay: std::time::Duration,
    /// Rate limits on login and order submission.
    pub limits: crate::limits::Limits,
    /// Wakes the mail processor when a mail was stored.
    pub mail_received: std::sync::Arc<tokio::sync::Notify>,
    /// Wakes the outbox delivery when messages were queued.
    pub mail_sent: std::sync::Arc<tokio::sync::Notify>,
    /// Tells open game pages (server-sent events) that a game changed: carries its id.
    pub game_changed: tokio::sync::broadcast::Sender<String>,
    /// Whether the web pages' cookies are marked Secure (HTTPS, or localhost).
    pub secure_cookies: bool,
    /// Where players reach the web pages, if configured.
    pub public_url: Option<crate::PublicUrl>,
}

impl AppState {
    /// Tells the open pages of a game that it changed.
    pub fn changed(&self, game: &str) {
        // No page listening is no error.
        let _ = self.game_changed.send(game.to_string());
    }
}

/// The OpenAPI document's frame; the paths come from the handlers as they are routed.
#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "Spielleiter judge API",
        description = "Diplomacy games as a service: accounts, games, orders, adjudication, results, press and the end of a game. Errors are JSON with a stable `code` and a human `message`."
    ),
    components(schemas(crate::error::ErrorBody)),
    modifiers(&BearerToken)
)]
struct ApiDoc;

/// Declares the bearer token that `POST /api/sessions` hands out.
struct BearerToken;

impl utoipa::Modify for BearerToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "token",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// The OpenAPI document of the API.
pub fn openapi() -> utoipa::openapi::OpenApi {
    routes().split_for_parts().1
}

/// The API's routes, each registered with the OpenAPI document in the same call.
pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(<ApiDoc as utoipa::OpenApi>::openapi())
        .routes(routes!(accounts::create_account))
        .routes(routes!(accounts::create_session))
        .routes(routes!(sessions::log_out))
        .routes(routes!(accounts::show_account, accounts::change_account))
        .routes(routes!(accounts::confirm_email, accounts::withdraw_email))
        .routes(routes!(games::create_game))
        .routes(routes!(games::show_game))
        .routes(routes!(games::join_game))
        .routes(routes!(games::change_wishes))
        .routes(routes!(games::leave_game))
        .routes(routes!(games::start_game))
        .routes(routes!(orders::submit_orders, orders::my_orders))
        .routes(routes!(orders::mark_ready))
        .routes(routes!(adjudication::adjudicate_now))
        .routes(routes!(results::show_phase))
        .routes(routes!(results::history))
        .routes(routes!(press::send_press, press::read_press))
        .routes(routes!(endgame::vote_draw))
        .routes(routes!(endgame::concede))
        .routes(routes!(master::extend))
        .routes(routes!(master::pause))
        .routes(routes!(master::resume))
        .routes(routes!(master::replace))
}

pub(crate) type ApiResult<T> = Result<T, ApiError>;

/// A JSON request body whose rejection (not JSON, wrong fields) is an [`ApiError`] like every
/// other error.
#[derive(axum::extract::FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub(crate) struct ApiJson<T>(pub(crate) T);

impl From<axum::extract::rejection::JsonRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::JsonRejection) -> Self {
        ApiError::new(rejection.status(), "bad_json", rejection.body_text())
    }
}

/// A query string whose rejection (a field of the wrong form) is an [`ApiError`] like every
/// other error.
#[derive(axum::extract::FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub(crate) struct ApiQuery<T>(pub(crate) T);

impl From<axum::extract::rejection::QueryRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::QueryRejection) -> Self {
        ApiError::new(rejection.status(), "bad_query", rejection.body_text())
    }
}

pub(crate) use crate::variants::variant;

/// The upper-case key (`FRANCE`) of a power named in a request (any name or alias the variant knows).
pub(crate) fn power_key(v: &Variant, name: &str) -> ApiResult<String> {
    Ok(crate::app::position::power_key(v, name)?)
}

/// The account that makes a request, from its `Authorization: Bearer TOKEN`; requests without
/// a valid session are refused before the handler runs.
pub(crate) struct Caller(pub(crate) String);

impl axum::extract::FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, state: &AppState) -> ApiResult<Caller> {
        let token = sessions::bearer(&parts.headers).ok_or_else(ApiError::unauthorized)?;
        let account = crate::sql::sessions::account_id_of(&state.store.pool, &token_hash(token), now_ms()).await?;
        account.map(Caller).ok_or_else(ApiError::unauthorized)
    }
}

pub(crate) use crate::domain::Game;

/// The game with this id.
pub(crate) async fn game(state: &AppState, id: &str) -> ApiResult<Game> {
    Ok(crate::sql::games::game(&state.store.pool, id).await?)
}

/// The power an account plays in a game, if any.
pub(crate) async fn power_of(state: &AppState, game_id: &str, account: &str) -> ApiResult<Option<String>> {
    let members = crate::sql::games::members(&state.store.pool, game_id).await?;
    let me = members.into_iter().find(|m| m.account == account);
    Ok(me.and_then(|m| m.played_power().map(str::to_string)))
}

/// A stored state as everyone may see it: without the secret politics (Hegemony's political
/// factors, influence and control, research D-22); `Null` where nothing readable is stored.
pub(crate) fn published_state(stored: Option<&str>) -> Value {
    stored
        .and_then(|s| serde_json::from_str::<GameState>(s).ok())
        .and_then(|s| serde_json::to_value(s.without_secrets()).ok())
        .unwrap_or(Value::Null)
}

/// The game's current state and position; refused before the start and after the end.
pub(crate) fn current_position(v: &Variant, g: &Game) -> ApiResult<(GameState, Position)> {
    Ok(crate::app::position::current_position(v, g)?)
}

/// Whether `me` may read a game's past phases (reports, orders, maps): its members and master,
/// and everyone once the game has ended.
pub(crate) async fn may_read_history(state: &AppState, g: &Game, me: &str) -> ApiResult<()> {
    let members = crate::sql::games::members(&state.store.pool, &g.id).await?;
    Ok(crate::domain::play::may_read_history(g, &members, me)?)
}

/// Refuses `action` to anyone but the game's master.
pub(crate) fn master_only(g: &Game, me: &str, action: crate::domain::MasterAction) -> ApiResult<()> {
    Ok(crate::domain::play::master_only(g, me, action)?)
}

/// How the game ended, once it did.
pub(crate) async fn result_of(
    state: &AppState,
    id: &str,
) -> ApiResult<Option<spielleiter_engine::interchange::GameEnd>> {
    Ok(crate::sql::games::result_of(&state.store.pool, id).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_published_state_keeps_the_board_and_drops_the_secret_politics() {
        let stored = r#"{"phase": "S1689M", "units": {"FRANCE": ["A PAR"]},
            "political_factors": {"FRANCE": 4}, "influence": {"BAVARIA": {"FRANCE": 3}},
            "control": {"BAVARIA": ["FRANCE"]}}"#;
        let public = published_state(Some(stored));
        assert_eq!(public["units"]["FRANCE"][0], "A PAR");
        for secret in ["political_factors", "influence", "control"] {
            assert!(public.get(secret).is_none(), "{secret}: {public}");
        }
        assert_eq!(published_state(None), Value::Null);
    }

    #[test]
    fn the_document_describes_bodies_errors_and_the_token() {
        let doc = serde_json::to_value(openapi()).expect("the document is JSON");
        assert!(doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")));
        let orders = &doc["paths"]["/api/games/{id}/orders"];
        assert!(orders["put"].is_object() && orders["get"].is_object(), "{orders}");
        assert_eq!(orders["put"]["security"], serde_json::json!([{"token": []}]));
        assert!(orders["put"]["responses"]["429"].is_object());
        let schemas = &doc["components"]["schemas"];
        assert!(schemas["NewGame"]["properties"]["nmr_limit"].is_object(), "{schemas}");
        assert!(schemas["ErrorBody"]["properties"]["code"].is_object());
        assert_eq!(doc["components"]["securitySchemes"]["token"]["scheme"], "bearer");
        assert!(
            doc["paths"]["/api/sessions"]["post"]["security"].is_null(),
            "login needs no token"
        );
    }
}
