//! Accounts (names, e-mail addresses, Argon2id password hashes) and login sessions.

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::Row;

use super::*;
use crate::error::refusals::*;

/// A new account.
#[derive(Deserialize, utoipa::ToSchema)]
pub(crate) struct NewAccount {
    /// 1 to 40 letters, digits, spaces, `_` or `-`.
    pub(crate) name: String,
    /// Where results and announcements are sent.
    pub(crate) email: String,
    /// At least 8 characters.
    pub(crate) password: String,
    /// The language of results and announcements: `en` (default) or `de`.
    #[serde(default = "english")]
    pub(crate) lang: String,
}

fn english() -> String {
    "en".into()
}

#[utoipa::path(
    post,
    path = "/api/accounts",
    tag = "accounts",
    summary = "Create an account (the password is stored as an Argon2id hash).",
    request_body = NewAccount,
    responses((status = 201, description = "Done", body = Object), BadRequest, Conflict, BadJson)
)]
pub(crate) async fn create_account(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewAccount>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let created = create(&state, &body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Creates an account after checking its name (free, regardless of case), password, address
/// and language. The one path for accounts from the API and from mail.
pub(crate) async fn create(state: &AppState, body: &NewAccount) -> ApiResult<Value> {
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
    if !matches!(body.lang.as_str(), "en" | "de") {
        return Err(ApiError::bad_request("bad_lang", "the language is en or de"));
    }
    let taken = sqlx::query("SELECT id FROM accounts WHERE LOWER(name) = LOWER($1)")
        .bind(name)
        .fetch_optional(&state.store.pool)
        .await?;
    if taken.is_some() {
        return Err(ApiError::conflict(format!("the name `{name}` is taken")));
    }
    let hash = hash_password(&body.password).map_err(|e| {
        eprintln!("hashing a password: {e}");
        ApiError::bad_request("bad_password", "this password cannot be used")
    })?;
    let id = new_id();
    sqlx::query(
        "INSERT INTO accounts (id, name, email, password_hash, created_ms, lang) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&id)
    .bind(name)
    .bind(body.email.trim())
    .bind(hash)
    .bind(now_ms())
    .bind(&body.lang)
    .execute(&state.store.pool)
    .await
    .map_err(|e| {
        if is_unique_violation(&e) {
            ApiError::conflict(format!("the name `{name}` is taken"))
        } else {
            e.into()
        }
    })?;
    Ok(json!({"id": id, "name": name, "lang": body.lang}))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub(crate) struct Login {
    name: String,
    password: String,
}

#[utoipa::path(
    post,
    path = "/api/sessions",
    tag = "accounts",
    summary = "Log in: a bearer token for the other routes (rate-limited per name and address).",
    request_body = Login,
    responses((status = 200, description = "Done", body = Object), Unauthorized, BadJson, RateLimited)
)]
pub(crate) async fn create_session(
    State(state): State<AppState>,
    ConnectInfo(client): ConnectInfo<std::net::SocketAddr>,
    ApiJson(body): ApiJson<Login>,
) -> ApiResult<Json<Value>> {
    let (token, id) = login(&state, client.ip(), &body.name, &body.password).await?;
    Ok(Json(json!({"token": token, "account": id})))
}

/// Checks a name and password (rate-limited per name and address) and opens a 30-day session:
/// its token and the account's id. The one path for logins from the API and the web pages.
pub(crate) async fn login(
    state: &AppState,
    ip: std::net::IpAddr,
    name: &str,
    password: &str,
) -> ApiResult<(String, String)> {
    state.limits.login(name, ip)?;
    let row = sqlx::query("SELECT id, password_hash FROM accounts WHERE LOWER(name) = LOWER($1)")
        .bind(name.trim())
        .fetch_optional(&state.store.pool)
        .await?;
    // One answer for an unknown name and a wrong password: names are not revealed.
    let refused = || ApiError::new(StatusCode::UNAUTHORIZED, "bad_login", "unknown name or wrong password");
    let row = row.ok_or_else(refused)?;
    let id: String = row.get(0);
    let stored: String = row.get(1);
    if !verify_password(password, &stored) {
        return Err(refused());
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
    Ok((token, id))
}
