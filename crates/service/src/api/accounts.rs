//! Accounts (names, e-mail addresses, Argon2id password hashes) and login sessions.

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::Row;

use super::*;
use crate::auth::{code_hash, new_code};
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
        return Err(
            ApiError::bad_request("bad_name", "a name has 1 to 40 letters, digits, spaces, _ or -")
                .de("Ein Name hat 1 bis 40 Buchstaben, Ziffern, Leerzeichen, _ oder -"),
        );
    }
    check_password(&body.password)?;
    check_email(&body.email)?;
    check_lang(&body.lang)?;
    let taken = sqlx::query("SELECT id FROM accounts WHERE LOWER(name) = LOWER($1)")
        .bind(name)
        .fetch_optional(&state.store.pool)
        .await?;
    if taken.is_some() {
        return Err(
            ApiError::conflict(format!("the name `{name}` is taken")).de(format!("Der Name `{name}` ist vergeben"))
        );
    }
    let hash = new_hash(&body.password).await?;
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
            ApiError::conflict(format!("the name `{name}` is taken")).de(format!("Der Name `{name}` ist vergeben"))
        } else {
            e.into()
        }
    })?;
    Ok(json!({"id": id, "name": name, "lang": body.lang}))
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

/// Checks a password against its stored hash on a blocking thread (Argon2 takes a while).
async fn password_matches(password: &str, stored: &str) -> bool {
    let (password, stored) = (password.to_string(), stored.to_string());
    tokio::task::spawn_blocking(move || verify_password(&password, &stored))
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

/// `me`'s account as its owner sees it.
pub(crate) async fn account(state: &AppState, me: &str) -> ApiResult<Value> {
    let row =
        sqlx::query("SELECT id, name, email, lang, pending_email, pending_expires_ms FROM accounts WHERE id = $1")
            .bind(me)
            .fetch_optional(&state.store.pool)
            .await?
            .ok_or_else(ApiError::unauthorized)?;
    // A new address waiting for its code, while the code holds.
    let pending = row
        .get::<Option<String>, _>(4)
        .filter(|_| row.get::<Option<i64>, _>(5).is_some_and(|expires| expires > now_ms()));
    Ok(json!({"id": row.get::<String, _>(0), "name": row.get::<String, _>(1),
              "email": row.get::<String, _>(2), "lang": row.get::<String, _>(3),
              "pending_email": pending}))
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
) -> ApiResult<Json<Value>> {
    change(&state, client.ip(), &me, &body).await.map(Json)
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

/// Checks `me`'s password (rate-limited as a login) and makes the changes. A new address waits
/// for the code mailed to it ([`confirm_address`]). A new password ends every session of the
/// account and opens a new one, whose token the answer carries (`token`).
pub(crate) async fn change(
    state: &AppState,
    ip: std::net::IpAddr,
    me: &str,
    changes: &AccountChanges,
) -> ApiResult<Value> {
    let row = sqlx::query("SELECT name, password_hash, email, lang FROM accounts WHERE id = $1")
        .bind(me)
        .fetch_optional(&state.store.pool)
        .await?
        .ok_or_else(ApiError::unauthorized)?;
    let (name, stored, old_email, old_lang): (String, String, String, String) =
        (row.get(0), row.get(1), row.get(2), row.get(3));
    state.limits.login(&name, ip)?;
    if !password_matches(&changes.current_password, &stored).await {
        return Err(
            ApiError::new(StatusCode::UNAUTHORIZED, "bad_password", "the password in use is wrong")
                .de("Das bisherige Passwort ist falsch"),
        );
    }
    let email = changes.email.as_deref().map(str::trim).filter(|e| *e != old_email);
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
    .bind(&stored)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if changed == 0 {
        return Err(changed_meanwhile());
    }
    if hash.is_some() {
        // A new password also withdraws an address change begun before it.
        sqlx::query(WITHDRAW_ADDRESS).bind(me).execute(&mut *tx).await?;
    }
    if let Some(email) = email {
        let code = new_code();
        sqlx::query(
            "UPDATE accounts SET pending_email = $1, pending_code_hash = $2, pending_expires_ms = $3 WHERE id = $4",
        )
        .bind(email)
        .bind(code_hash(&code))
        .bind(now_ms() + CODE_HOURS * 3600 * 1000)
        .bind(me)
        .execute(&mut *tx)
        .await?;
        let lang = changes.lang.as_deref().unwrap_or(&old_lang);
        let (subject, body) = code_mail(&name, &code, lang, state.public_url.as_ref());
        let to = crate::outbox::Recipient::Address { name: &name, email };
        crate::outbox::queue(&mut tx, None, to, &subject, &body, None, None).await?;
    }
    let token = match hash {
        Some(_) => {
            sqlx::query("DELETE FROM sessions WHERE account_id = $1")
                .bind(me)
                .execute(&mut *tx)
                .await?;
            Some(open_session(&mut tx, me).await?)
        }
        None => None,
    };
    tx.commit().await?;
    if email.is_some() {
        state.mail_sent.notify_one();
    }
    let mut shown = account(state, me).await?;
    shown["password_changed"] = json!(token.is_some());
    if let Some(token) = token {
        shown["token"] = json!(token);
    }
    Ok(shown)
}

/// The mail that brings a new address its code, in the account's language: subject and text.
fn code_mail(name: &str, code: &str, lang: &str, public: Option<&crate::PublicUrl>) -> (String, String) {
    let link = public
        .map(|url| format!("\n\n{}\n", url.page(&format!("/account?code={code}"))))
        .unwrap_or_default();
    if lang == "de" {
        (
            "Diplomacy: neue Adresse bestätigen".into(),
            format!(
                "Damit das Diplomacy-Konto {name} seine Post an diese Adresse bekommt, geben Sie auf \
                 der Kontoseite diesen Code ein:\n\n    {code}\n{link}\n\
                 Der Code gilt {CODE_HOURS} Stunden; bis dahin geht die Post an die bisherige \
                 Adresse. Falls Sie das nicht veranlasst haben, beachten Sie diese Mail nicht.\n"
            ),
        )
    } else {
        (
            "Diplomacy: confirm your new address".into(),
            format!(
                "To have the mail of the Diplomacy account {name} sent to this address, enter this \
                 code on the account page:\n\n    {code}\n{link}\n\
                 The code holds for {CODE_HOURS} hours; until then mail goes to the address in use. \
                 If you did not ask for this, ignore this mail.\n"
            ),
        )
    }
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
    confirm_address(&state, client.ip(), &me, &body.code).await.map(Json)
}

/// Makes the address waiting on `me`'s account its address when `code` is the one mailed to
/// it, and tells the old address. Attempts count as logins, so codes cannot be guessed.
pub(crate) async fn confirm_address(state: &AppState, ip: std::net::IpAddr, me: &str, code: &str) -> ApiResult<Value> {
    let row = sqlx::query(
        "SELECT name, email, pending_email, pending_code_hash, pending_expires_ms FROM accounts WHERE id = $1",
    )
    .bind(me)
    .fetch_optional(&state.store.pool)
    .await?
    .ok_or_else(ApiError::unauthorized)?;
    let (name, old_email): (String, String) = (row.get(0), row.get(1));
    state.limits.login(&name, ip)?;
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
            ApiError::bad_request("code_expired", "the code has expired: enter the new address again")
                .de("Der Code ist abgelaufen: bitte die neue Adresse noch einmal eingeben"),
        );
    }
    if code_hash(code) != expected {
        return Err(
            ApiError::bad_request("bad_code", format!("this is not the code mailed to {email}"))
                .de(format!("Das ist nicht der Code, der an {email} ging")),
        );
    }
    let mut tx = state.store.pool.begin().await?;
    let changed = sqlx::query(
        "UPDATE accounts SET email = pending_email, pending_email = NULL, pending_code_hash = NULL, \
         pending_expires_ms = NULL WHERE id = $1 AND pending_code_hash = $2",
    )
    .bind(me)
    .bind(&expected)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if changed == 0 {
        return Err(changed_meanwhile());
    }
    let body = format!(
        "The e-mail address of the Diplomacy account {name} was changed to {email}. If this was not you, \
         log in and change your password and address.\n\n\
         Die E-Mail-Adresse des Diplomacy-Kontos {name} wurde auf {email} geändert. Falls Sie das nicht waren, \
         melden Sie sich an und ändern Sie Passwort und Adresse.\n"
    );
    let to = crate::outbox::Recipient::Address {
        name: &name,
        email: &old_email,
    };
    let subject = "Diplomacy: address changed / Adresse geändert";
    crate::outbox::queue(&mut tx, None, to, subject, &body, None, None).await?;
    tx.commit().await?;
    state.mail_sent.notify_one();
    account(state, me).await
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
    let refused = || {
        ApiError::new(StatusCode::UNAUTHORIZED, "bad_login", "unknown name or wrong password")
            .de("Unbekannter Name oder falsches Passwort")
    };
    let row = row.ok_or_else(refused)?;
    let id: String = row.get(0);
    let stored: String = row.get(1);
    if !password_matches(password, &stored).await {
        return Err(refused());
    }
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
        let (subject, body) = code_mail("ida", "ABCD-EFGH", "de", Some(&public));
        assert!(subject.contains("bestätigen"), "{subject}");
        assert!(body.contains("\n    ABCD-EFGH\n"), "{body}");
        assert!(
            body.contains("https://dip.example.org/account?code=ABCD-EFGH"),
            "{body}"
        );
        let (subject, body) = code_mail("ida", "ABCD-EFGH", "en", None);
        assert!(subject.contains("confirm"), "{subject}");
        assert!(body.contains("ABCD-EFGH") && !body.contains("http"), "{body}");
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
