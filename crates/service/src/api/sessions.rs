//! Logging out: a session ends when its token is given back, from the API or the web pages.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};

use super::*;
use crate::error::refusals::*;

/// The bearer token of a request, if it carries one.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
}

/// Ends the session of `token` (nothing happens for an unknown or ended one). The one path for
/// logging out from the API and the web pages.
pub(crate) async fn end(state: &AppState, token: &str) -> ApiResult<()> {
    Ok(crate::sql::sessions::end(&state.store.pool, &token_hash(token)).await?)
}

#[utoipa::path(
    delete,
    path = "/api/sessions/current",
    tag = "accounts",
    summary = "Log out: the token of this request stops working at once.",
    security(("token" = [])),
    responses((status = 204, description = "Logged out"), Unauthorized)
)]
pub(crate) async fn log_out(
    State(state): State<AppState>,
    Caller(_me): Caller,
    headers: HeaderMap,
) -> ApiResult<StatusCode> {
    if let Some(token) = bearer(&headers) {
        end(&state, token).await?;
    }
    Ok(StatusCode::NO_CONTENT)
}
