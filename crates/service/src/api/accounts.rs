//! Accounts (names, e-mail addresses, Argon2id password hashes) and login sessions.

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::Row;

use super::*;
use crate::auth::{code_hash, new_code, verify_or_dummy};
use crate::error::refusals::*;
use crate::limits::Source;
use crate::names::name_key;

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
    summary = "Create an account (the password is stored as an Argon2id hash). Its address is mailed a code and receives no other mail until the code is confirmed (`POST /api/account/email`); the account works meanwhile.",
    request_body = NewAccount,
    responses((status = 201, description = "Done", body = Object), BadRequest, Conflict, BadJson, RateLimited)
)]
pub(crate) async fn create_account(
    State(state): State<AppState>,
    ConnectInfo(client): ConnectInfo<std::net::SocketAddr>,
    ApiJson(body): ApiJson<NewAccount>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let (created, _) = create(&state, &Source::Client(client.ip()), &body, CodeBy::Mail).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// How the code that confirms a new account's address reaches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CodeBy {
    /// A mail of its own, queued with the account (the web and the API).
    Mail,
    /// The caller's reply, which goes to that address (an account made by mail).
    Reply,
}

/// The refusal of a name that is taken.
fn name_taken(name: &str) -> ApiError {
    ApiError::conflict(format!("the name `{name}` is taken")).de(format!("Der Name `{name}` ist vergeben"))
}

/// A name as given, as it is stored ([`crate::names::shown_form`]), if it may name an account.
fn check_name(name: &str) -> ApiResult<String> {
    let name = crate::names::shown_form(name);
    if !crate::names::is_account_name(&name) {
        return Err(
            ApiError::bad_request("bad_name", "a name has 1 to 40 letters, digits, spaces, _ or -")
                .de("Ein Name hat 1 bis 40 Buchstaben, Ziffern, Leerzeichen, _ oder -"),
        );
    }
    Ok(name)
}

/// Creates an account after checking its name (free, as [`name_key`] compares names), password,
/// address and language: the account as the API shows it, and the code that confirms its address
/// (valid [`CODE_HOURS`]), mailed there unless `code_by` leaves it to the caller. Until the code
/// is confirmed the address receives no mail but the code and replies to its own mail. Too many
/// sign-ups from `source` or for the address are refused ([`crate::limits::SignUpCaps`]). The one
/// path for accounts from the API, the web and mail.
pub(crate) async fn create(
    state: &AppState,
    source: &Source,
    body: &NewAccount,
    code_by: CodeBy,
) -> ApiResult<(Value, String)> {
    let name = check_name(&body.name)?;
    let name = name.as_str();
    check_password(&body.password)?;
    check_email(&body.email)?;
    check_lang(&body.lang)?;
    let key = name_key(name);
    let taken = sqlx::query("SELECT id FROM accounts WHERE name_key = $1")
        .bind(&key)
        .fetch_optional(&state.store.pool)
        .await?;
    if taken.is_some() {
        return Err(name_taken(name));
    }
    state.limits.sign_up(&state.store, source, &body.email).await?;
    let hash = new_hash(&body.password).await?;
    let (id, code, email, now) = (new_id(), new_code(), body.email.trim(), now_ms());
    let mut tx = state.store.pool.begin().await?;
    sqlx::query(
        "INSERT INTO accounts (id, name, name_key, email, password_hash, created_ms, lang, pending_email, \
         pending_code_hash, pending_expires_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $4, $8, $9)",
    )
    .bind(&id)
    .bind(name)
    .bind(&key)
    .bind(email)
    .bind(hash)
    .bind(now)
    .bind(&body.lang)
    .bind(code_hash(&code))
    .bind(now + CODE_HOURS * 3600 * 1000)
    .execute(&mut *tx)
    .await
    .map_err(|e| {
        if is_unique_violation(&e) {
            name_taken(name)
        } else {
            e.into()
        }
    })?;
    if code_by == CodeBy::Mail {
        let (subject, text) = code_mail(name, &code, &body.lang, state.public_url.as_ref(), true);
        let to = crate::outbox::Recipient::Address { name, email };
        crate::outbox::queue(&mut tx, None, to, &subject, &text, None, None).await?;
    }
    tx.commit().await?;
    state.mail_sent.notify_one();
    Ok((
        json!({"id": id, "name": name, "lang": body.lang, "email": email, "email_confirmed": false}),
        code,
    ))
}

fn check_password(password: &str) -> ApiResult<()> {
    if password.chars().count() < 8 {
        return Err(
            ApiError::bad_request("weak_password", "a password has at least 8 characters")
                .de("Ein Passwort hat mindestens 8 Zeichen"),
        );
    }
    Ok(())
}

fn check_email(email: &str) -> ApiResult<()> {
    // The address as the mailer will read it: one address, nothing around it.
    match email.trim().parse::<lettre::Address>() {
        Ok(_) if email.trim().len() <= 254 => Ok(()),
        _ => Err(
            ApiError::bad_request("bad_email", "this is not one e-mail address (name@example.org)")
                .de("Das ist keine einzelne E-Mail-Adresse (name@example.org)"),
        ),
    }
}

/// Checks a password against an account's stored hash on a blocking thread (Argon2 takes a
/// while); without an account, against the dummy hash, as long ([`verify_or_dummy`]).
async fn password_matches(password: &str, stored: Option<&str>) -> bool {
    let (password, stored) = (password.to_string(), stored.map(str::to_string));
    tokio::task::spawn_blocking(move || verify_or_dummy(&password, stored.as_deref()))
        .await
        .unwrap_or(false)
}

/// Hashes a new password on a blocking thread.
async fn new_hash(password: &str) -> ApiResult<String> {
    let password = password.to_string();
    tokio::task::spawn_blocking(move || hash_password(&password))
        .await
        .map_err(|e| e.to_string())
        .and_then(|r| r)
        .map_err(|e| {
            eprintln!("hashing a password: {e}");
            ApiError::bad_request("bad_password", "this password cannot be used")
                .de("Dieses Passwort ist nicht verwendbar")
        })
}

fn check_lang(lang: &str) -> ApiResult<()> {
    if !matches!(lang, "en" | "de") {
        return Err(ApiError::bad_request("bad_lang", "the language is en or de").de("Die Sprache ist en oder de"));
    }
    Ok(())
}

/// Changes to one's own account; each needs the password in use.
#[derive(Deserialize, utoipa::ToSchema)]
pub(crate) struct AccountChanges {
    /// The password in use now.
    pub(crate) current_password: String,
    /// A new e-mail address for results and announcements: it takes effect when the code
    /// mailed to it is confirmed (`POST /api/account/email`).
    #[serde(default)]
    pub(crate) email: Option<String>,
    /// A new language: `en` or `de`.
    #[serde(default)]
    pub(crate) lang: Option<String>,
    /// A new password (at least 8 characters): every session of the account ends, and the
    /// answer carries the token of a new one.
    #[serde(default)]
    pub(crate) new_password: Option<String>,
}

#[utoipa::path(
    get,
    path = "/api/account",
    tag = "accounts",
    summary = "One's own account: name, e-mail address, language, and a new address waiting for its code (`pending_email`, else null).",
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), Unauthorized)
)]
pub(crate) async fn show_account(State(state): State<AppState>, Caller(me): Caller) -> ApiResult<Json<Value>> {
    account(&state, &me).await.map(Json)
}

/// One's own account as its owner sees it.
#[derive(Debug, Clone, serde::Serialize)]
pub(crate) struct AccountView {
    pub(crate) id: String,
    pub(crate) name: String,
    /// The address mail goes to, once confirmed.
    pub(crate) email: String,
    pub(crate) lang: String,
    /// Whether `email` is confirmed (a new account's address is not, until its code is given).
    pub(crate) email_confirmed: bool,
    /// An address waiting for its code (a new address, or a new account's first address), while
    /// the code holds.
    pub(crate) pending_email: Option<String>,
}

/// `me`'s account as its owner sees it.
pub(crate) async fn account_view(state: &AppState, me: &str) -> ApiResult<AccountView> {
    let row = sqlx::query(
        "SELECT id, name, email, lang, pending_email, pending_expires_ms, email_confirmed_ms FROM accounts WHERE id = $1",
    )
    .bind(me)
    .fetch_optional(&state.store.pool)
    .await?
    .ok_or_else(ApiError::unauthorized)?;
    let pending = row
        .get::<Option<String>, _>(4)
        .filter(|_| row.get::<Option<i64>, _>(5).is_some_and(|expires| expires > now_ms()));
    Ok(AccountView {
        id: row.get(0),
        name: row.get(1),
        email: row.get(2),
        lang: row.get(3),
        email_confirmed: row.get::<Option<i64>, _>(6).is_some(),
        pending_email: pending,
    })
}

/// `me`'s account as the API shows it to its owner ([`AccountView`]).
pub(crate) async fn account(state: &AppState, me: &str) -> ApiResult<Value> {
    Ok(json!(account_view(state, me).await?))
}

#[utoipa::path(
    patch,
    path = "/api/account",
    tag = "accounts",
    summary = "Change one's e-mail address, language or password (the password in use is required; a new address is mailed a code and waits as `pending_email` until the code is confirmed; a new password ends every session and the answer carries a new `token`).",
    request_body = AccountChanges,
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), BadRequest, Unauthorized, Conflict, BadJson, RateLimited)
)]
pub(crate) async fn change_account(
    State(state): State<AppState>,
    ConnectInfo(client): ConnectInfo<std::net::SocketAddr>,
    Caller(me): Caller,
    ApiJson(body): ApiJson<AccountChanges>,
) -> ApiResult<Json<AccountChanged>> {
    change(&state, &Source::Client(client.ip()), &me, &body).await.map(Json)
}

/// An account after a change: as its owner sees it, whether the password changed, and then the
/// new session token (every other session ended).
#[derive(serde::Serialize)]
pub(crate) struct AccountChanged {
    /// The account.
    #[serde(flatten)]
    pub(crate) account: AccountView,
    password_changed: bool,
    /// The new session's token, after a new password.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) token: Option<String>,
}

/// Forgets the new address waiting on an account (`$1`) and its code.
const WITHDRAW_ADDRESS: &str =
    "UPDATE accounts SET pending_email = NULL, pending_code_hash = NULL, pending_expires_ms = NULL WHERE id = $1";

#[utoipa::path(
    delete,
    path = "/api/account/email",
    tag = "accounts",
    summary = "Withdraw a new e-mail address that waits for its code: its code no longer holds, the address in use stays.",
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), Unauthorized)
)]
pub(crate) async fn withdraw_email(State(state): State<AppState>, Caller(me): Caller) -> ApiResult<Json<Value>> {
    withdraw_address(&state, &me).await.map(Json)
}

/// Forgets the new address waiting on `me`'s account; the account as its owner sees it.
pub(crate) async fn withdraw_address(state: &AppState, me: &str) -> ApiResult<Value> {
    sqlx::query(WITHDRAW_ADDRESS)
        .bind(me)
        .execute(&state.store.pool)
        .await?;
    account(state, me).await
}

/// The refusal of a change when another change of the account came first.
fn changed_meanwhile() -> ApiError {
    ApiError::conflict("the account changed meanwhile: try again")
        .de("Das Konto wurde inzwischen geändert: bitte noch einmal versuchen")
}

/// How long the code mailed to a new address holds.
const CODE_HOURS: i64 = 24;

/// What a change of an account starts from: the account as stored, its password checked.
struct Checked {
    name: String,
    stored: String,
    email: String,
    lang: String,
    /// Whether `email` is confirmed.
    confirmed: bool,
    /// Whether a code mailed for an address still holds.
    code_holds: bool,
}

/// `me`'s account when `password` is its password; a wrong one counts as a failed log-in
/// from `source`, and too many of those refuse the attempt ([`crate::limits`]).
async fn check_current(state: &AppState, source: &Source, me: &str, password: &str) -> ApiResult<Checked> {
    let row = sqlx::query(
        "SELECT name, password_hash, email, lang, email_confirmed_ms, pending_expires_ms, name_key \
         FROM accounts WHERE id = $1",
    )
    .bind(me)
    .fetch_optional(&state.store.pool)
    .await?
    .ok_or_else(ApiError::unauthorized)?;
    let key: String = row.get(6);
    let stored: String = row.get(1);
    let limits = &state.limits;
    if !limits
        .check_secret(&state.store, &key, source, password_matches(password, Some(&stored)))
        .await?
    {
        return Err(
            ApiError::new(StatusCode::UNAUTHORIZED, "bad_password", "the password in use is wrong")
                .de("Das bisherige Passwort ist falsch"),
        );
    }
    Ok(Checked {
        name: row.get(0),
        stored,
        email: row.get(2),
        lang: row.get(3),
        confirmed: row.get::<Option<i64>, _>(4).is_some(),
        code_holds: row.get::<Option<i64>, _>(5).is_some_and(|expires| expires > now_ms()),
    })
}

/// Checks `me`'s password (failures counted as failed log-ins from `source`) and makes the
/// changes. A new address waits for the code mailed to it ([`confirm_address`]); so does the
/// unconfirmed address again once its code no longer holds (a new code is mailed). A new
/// password ends every session of the account and opens a new one, whose token the answer
/// carries (`token`).
pub(crate) async fn change(
    state: &AppState,
    source: &Source,
    me: &str,
    changes: &AccountChanges,
) -> ApiResult<AccountChanged> {
    let current = check_current(state, source, me, &changes.current_password).await?;
    let email = changes
        .email
        .as_deref()
        .map(str::trim)
        .filter(|e| *e != current.email || !(current.confirmed || current.code_holds));
    if let Some(email) = email {
        check_email(email)?;
    }
    if let Some(lang) = &changes.lang {
        check_lang(lang)?;
    }
    let hash = match &changes.new_password {
        Some(new) => {
            check_password(new)?;
            Some(new_hash(new).await?)
        }
        None => None,
    };
    let mut tx = state.store.pool.begin().await?;
    // Only over the password just checked: two changes at once do not both pass.
    let changed = sqlx::query(
        "UPDATE accounts SET lang = COALESCE($1, lang), password_hash = COALESCE($2, password_hash) \
         WHERE id = $3 AND password_hash = $4",
    )
    .bind(changes.lang.as_deref())
    .bind(hash.as_deref())
    .bind(me)
    .bind(&current.stored)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if changed == 0 {
        return Err(changed_meanwhile());
    }
    let token = match hash {
        Some(_) => Some(after_new_password(&mut tx, me).await?),
        None => None,
    };
    if let Some(email) = email {
        let lang = changes.lang.as_deref().unwrap_or(&current.lang);
        let first = !current.confirmed;
        mail_code(state, &mut tx, me, &current.name, email, lang, first).await?;
    }
    tx.commit().await?;
    state.mail_sent.notify_one();
    Ok(AccountChanged {
        account: account_view(state, me).await?,
        password_changed: token.is_some(),
        token,
    })
}

/// After a new password: an address change begun before it is withdrawn, and every session of
/// `me` ends; the token of a new one.
async fn after_new_password(tx: &mut sqlx::Transaction<'_, sqlx::Any>, me: &str) -> ApiResult<String> {
    sqlx::query(WITHDRAW_ADDRESS).bind(me).execute(&mut **tx).await?;
    sqlx::query("DELETE FROM sessions WHERE account_id = $1")
        .bind(me)
        .execute(&mut **tx)
        .await?;
    open_session(tx, me).await
}

/// Sets `email` waiting on `me`'s account with a new code, and queues the code mail to it (in
/// `lang`; `first`: the account has no confirmed address yet).
async fn mail_code(
    state: &AppState,
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    me: &str,
    name: &str,
    email: &str,
    lang: &str,
    first: bool,
) -> ApiResult<()> {
    let code = new_code();
    sqlx::query(
        "UPDATE accounts SET pending_email = $1, pending_code_hash = $2, pending_expires_ms = $3 WHERE id = $4",
    )
    .bind(email)
    .bind(code_hash(&code))
    .bind(now_ms() + CODE_HOURS * 3600 * 1000)
    .bind(me)
    .execute(&mut **tx)
    .await?;
    let (subject, body) = code_mail(name, &code, lang, state.public_url.as_ref(), first);
    let to = crate::outbox::Recipient::Address { name, email };
    crate::outbox::queue(tx, None, to, &subject, &body, None, None).await?;
    Ok(())
}

/// The mail that brings an address its code, in the account's language: subject and text.
/// `first`: the address of a new account, which receives no other mail until then; else a new
/// address, while mail still goes to the one in use.
fn code_mail(name: &str, code: &str, lang: &str, public: Option<&crate::PublicUrl>, first: bool) -> (String, String) {
    let news = crate::domain::Notification::AddressCode {
        account: name.to_string(),
        code: code.to_string(),
        link: public.map(|url| url.page(&format!("/account?code={code}"))),
        first,
        hours: CODE_HOURS,
    };
    crate::i18n::notification(&news, if lang == "de" { Lang::De } else { Lang::En })
}

/// The code mailed to a new address.
#[derive(Deserialize, utoipa::ToSchema)]
pub(crate) struct AddressCode {
    /// As in the mail (`ABCD-EFGH`); case, spaces and dashes do not matter.
    pub(crate) code: String,
}

#[utoipa::path(
    post,
    path = "/api/account/email",
    tag = "accounts",
    summary = "Confirm a new e-mail address with the code mailed to it: it becomes the account's address, and the old address is told (rate-limited as a login).",
    request_body = AddressCode,
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), BadRequest, Unauthorized, Conflict, BadJson, RateLimited)
)]
pub(crate) async fn confirm_email(
    State(state): State<AppState>,
    ConnectInfo(client): ConnectInfo<std::net::SocketAddr>,
    Caller(me): Caller,
    ApiJson(body): ApiJson<AddressCode>,
) -> ApiResult<Json<Value>> {
    confirm_address(&state, &Source::Client(client.ip()), &me, &body.code)
        .await
        .map(Json)
}

/// Makes the address waiting on `me`'s account its address when `code` is the one mailed to
/// it (a new account's first address, or a new one), and tells the old address if it was
/// confirmed. A wrong code counts as a failed log-in from `source`, so codes cannot be guessed.
pub(crate) async fn confirm_address(state: &AppState, source: &Source, me: &str, code: &str) -> ApiResult<Value> {
    let row = sqlx::query(
        "SELECT name, email, pending_email, pending_code_hash, pending_expires_ms, email_confirmed_ms, name_key \
         FROM accounts WHERE id = $1",
    )
    .bind(me)
    .fetch_optional(&state.store.pool)
    .await?
    .ok_or_else(ApiError::unauthorized)?;
    let (name, old_email, key): (String, String, String) = (row.get(0), row.get(1), row.get(6));
    let old_confirmed = row.get::<Option<i64>, _>(5).is_some();
    let (Some(email), Some(expected), Some(expires)) = (
        row.get::<Option<String>, _>(2),
        row.get::<Option<String>, _>(3),
        row.get::<Option<i64>, _>(4),
    ) else {
        return Err(
            ApiError::bad_request("no_new_address", "no new address waits for a code")
                .de("Keine neue Adresse wartet auf einen Code"),
        );
    };
    if expires <= now_ms() {
        return Err(
            ApiError::bad_request("code_expired", "the code has expired: enter the address again")
                .de("Der Code ist abgelaufen: bitte die Adresse noch einmal eingeben"),
        );
    }
    let right = std::future::ready(code_hash(code) == expected);
    if !state.limits.check_secret(&state.store, &key, source, right).await? {
        return Err(
            ApiError::bad_request("bad_code", format!("this is not the code mailed to {email}"))
                .de(format!("Das ist nicht der Code, der an {email} ging")),
        );
    }
    let mut tx = state.store.pool.begin().await?;
    let changed = sqlx::query(
        "UPDATE accounts SET email = pending_email, email_confirmed_ms = $3, pending_email = NULL, \
         pending_code_hash = NULL, pending_expires_ms = NULL WHERE id = $1 AND pending_code_hash = $2",
    )
    .bind(me)
    .bind(&expected)
    .bind(now_ms())
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if changed == 0 {
        return Err(changed_meanwhile());
    }
    if old_confirmed && !old_email.eq_ignore_ascii_case(&email) {
        tell_old_address(&mut tx, &name, &old_email, &email).await?;
    }
    tx.commit().await?;
    state.mail_sent.notify_one();
    account(state, me).await
}

/// Queues the notice to an account's confirmed address that `email` replaced it.
async fn tell_old_address(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    name: &str,
    old_email: &str,
    email: &str,
) -> ApiResult<()> {
    let news = crate::domain::Notification::AddressChanged {
        account: name.to_string(),
        email: email.to_string(),
    };
    let (subject, body) = crate::i18n::notification(&news, Lang::En);
    let to = crate::outbox::Recipient::Address { name, email: old_email };
    crate::outbox::queue(tx, None, to, &subject, &body, None, None).await?;
    Ok(())
}

/// How long a login lasts, in the database and in a browser's cookie.
pub(crate) const SESSION_SECONDS: i64 = 30 * 24 * 3600;

/// Opens a session of [`SESSION_SECONDS`] for an account; its token.
async fn open_session(tx: &mut sqlx::Transaction<'_, sqlx::Any>, account: &str) -> ApiResult<String> {
    let token = new_token();
    let now = now_ms();
    sqlx::query("INSERT INTO sessions (token_hash, account_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)")
        .bind(token_hash(&token))
        .bind(account)
        .bind(now)
        .bind(now + SESSION_SECONDS * 1000)
        .execute(&mut **tx)
        .await?;
    Ok(token)
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
    summary = "Log in: a bearer token for the other routes (after too many failed log-ins of the name, per client address and over all, refused with `rate_limited`).",
    request_body = Login,
    responses((status = 200, description = "Done", body = Object), Unauthorized, BadJson, RateLimited)
)]
pub(crate) async fn create_session(
    State(state): State<AppState>,
    ConnectInfo(client): ConnectInfo<std::net::SocketAddr>,
    ApiJson(body): ApiJson<Login>,
) -> ApiResult<Json<Value>> {
    let (token, id) = login(&state, &Source::Client(client.ip()), &body.name, &body.password).await?;
    Ok(Json(json!({"token": token, "account": id})))
}

/// An account by its name as typed (compared by [`name_key`]; an account whose old name reads
/// as an older one's is found by its exact name): its id, password hash and name key.
pub(crate) async fn find_by_name(state: &AppState, name: &str) -> ApiResult<Option<(String, String, String)>> {
    let row = sqlx::query(
        "SELECT id, password_hash, name_key FROM accounts WHERE name_key = $1 OR name = $2 \
         ORDER BY CASE WHEN name = $2 THEN 0 ELSE 1 END LIMIT 1",
    )
    .bind(name_key(name))
    .bind(name.trim())
    .fetch_optional(&state.store.pool)
    .await?;
    Ok(row.map(|r| (r.get(0), r.get(1), r.get(2))))
}

/// Checks a name and password and opens a 30-day session: its token and the account's id. Too
/// many failed log-ins of the name refuse the attempt ([`crate::limits`]); an unknown name is
/// checked against a dummy hash, as long as a known one, and counted like a wrong password. The
/// one path for logins from the API and the web pages.
pub(crate) async fn login(
    state: &AppState,
    source: &Source,
    name: &str,
    password: &str,
) -> ApiResult<(String, String)> {
    let found = find_by_name(state, name).await?;
    let key = found.as_ref().map_or_else(|| name_key(name), |(_, _, key)| key.clone());
    // Without an account, the dummy hash is checked: as long as a known name's check.
    let check = password_matches(password, found.as_ref().map(|(_, stored, _)| stored.as_str()));
    let matches = state.limits.check_secret(&state.store, &key, source, check).await?;
    let Some((id, _, _)) = found.filter(|_| matches) else {
        // One answer for an unknown name and a wrong password: names are not revealed.
        return Err(
            ApiError::new(StatusCode::UNAUTHORIZED, "bad_login", "unknown name or wrong password")
                .de("Unbekannter Name oder falsches Passwort"),
        );
    };
    let mut tx = state.store.pool.begin().await?;
    let token = open_session(&mut tx, &id).await?;
    tx.commit().await?;
    Ok((token, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_mail_carries_the_code_in_the_language_and_a_link_when_the_address_is_known() {
        let public: crate::PublicUrl = "https://dip.example.org".parse().expect("an address");
        let (subject, body) = code_mail("ida", "ABCD-EFGH", "de", Some(&public), false);
        assert_eq!(subject, "Diplomacy: neue Adresse bestätigen");
        assert!(body.contains("\n    ABCD-EFGH\n"), "{body}");
        assert!(
            body.contains("https://dip.example.org/account?code=ABCD-EFGH"),
            "{body}"
        );
        let (subject, body) = code_mail("ida", "ABCD-EFGH", "en", None, false);
        assert_eq!(subject, "Diplomacy: confirm your new address");
        assert!(body.contains("ABCD-EFGH") && !body.contains("http"), "{body}");
        // A new account's first address receives nothing else until it is confirmed.
        let (subject, body) = code_mail("ida", "ABCD-EFGH", "en", None, true);
        assert_eq!(subject, "Diplomacy: confirm your address");
        assert!(
            body.contains("no mail to this address") && body.contains("CONFIRM"),
            "{body}"
        );
        let (subject, body) = code_mail("ida", "ABCD-EFGH", "de", None, true);
        assert_eq!(subject, "Diplomacy: Adresse bestätigen");
        assert!(body.contains("keine Post") && body.contains("BESTÄTIGEN"), "{body}");
    }

    #[tokio::test]
    async fn an_unknown_name_costs_a_password_check_and_counts_as_a_failure() {
        let state = crate::open_state("sqlite::memory:", std::time::Duration::ZERO, Default::default())
            .await
            .expect("a state");
        let new = NewAccount {
            name: "Émile".into(),
            email: "emile@example.org".into(),
            password: "long enough".into(),
            lang: "en".into(),
        };
        create(&state, &Source::Client([127, 0, 0, 1].into()), &new, CodeBy::Reply)
            .await
            .expect("made");
        let here = Source::Client([127, 0, 0, 1].into());
        let error = login(&state, &here, "Nobody", "guess for nobody")
            .await
            .expect_err("no such name");
        assert_eq!(error.code, "bad_login");
        assert_eq!(
            crate::auth::dummy_checks_of("guess for nobody"),
            1,
            "the dummy hash was checked"
        );
        let wrong = login(&state, &here, "émile", "guess for emile")
            .await
            .expect_err("wrong");
        assert_eq!(wrong.code, "bad_login");
        assert_eq!(
            crate::auth::dummy_checks_of("guess for emile"),
            0,
            "a known name is checked against its own hash"
        );
        let failures: Vec<String> = sqlx::query("SELECT account_key FROM login_failures ORDER BY account_key")
            .fetch_all(&state.store.pool)
            .await
            .expect("read")
            .iter()
            .map(|r| r.get(0))
            .collect();
        assert_eq!(failures, ["nobody", "émile"]);
        // Either spelling (composed or not, fullwidth) logs in.
        for name in ["ÉMILE", "E\u{301}mile", "Ｅ\u{301}ｍｉｌｅ"] {
            assert!(login(&state, &here, name, "long enough").await.is_ok(), "{name:?}");
        }
    }

    #[test]
    fn addresses_are_one_word_with_something_each_side_of_the_at() {
        for good in ["a@b", "anna.smith@example.org", "  x@y.de  "] {
            assert!(check_email(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "no address",
            "@example.org",
            "anna@",
            "an na@example.org",
            "a@b\r\nBcc: x@y",
        ] {
            assert!(check_email(bad).is_err(), "{bad:?}");
        }
    }
}
