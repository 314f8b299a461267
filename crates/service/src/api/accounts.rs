//! Accounts (names, e-mail addresses, Argon2id password hashes) and login sessions: the HTTP
//! routes over the account use cases (`crate::app::accounts`).

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use super::*;
use crate::app::accounts::{AccountDesk, Changed, Changes, Created, SignUp};
pub(crate) use crate::app::accounts::{CodeBy, LoggedIn};
use crate::app::ports::SystemClock;
use crate::argon::Argon;
use crate::domain::account::AccountView;
use crate::error::refusals::*;
use crate::limits::{Source, SourceGate};

pub(crate) use crate::domain::account::SESSION_SECONDS;

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

/// The gate of requests from `source`.
fn gate<'a>(state: &'a AppState, source: &Source) -> SourceGate<'a> {
    SourceGate {
        limits: &state.limits,
        store: &state.store,
        source: source.clone(),
    }
}

/// The account use cases on the service's store, for requests behind `gate`.
fn desk<'a>(
    state: &'a AppState,
    gate: &'a SourceGate<'a>,
) -> AccountDesk<'a, Store, SourceGate<'a>, Argon, SystemClock> {
    AccountDesk {
        store: &state.store,
        gate,
        passwords: &Argon,
        clock: &SystemClock,
        public: state.public_url.as_ref(),
    }
}

/// An account as the API shows it to its owner.
#[derive(serde::Serialize)]
pub(crate) struct AccountJson {
    id: String,
    name: String,
    email: String,
    lang: &'static str,
    email_confirmed: bool,
    pending_email: Option<String>,
}

impl From<AccountView> for AccountJson {
    fn from(a: AccountView) -> Self {
        AccountJson {
            id: a.id,
            name: a.name,
            email: a.email,
            lang: a.lang.code(),
            email_confirmed: a.email_confirmed,
            pending_email: a.pending_email,
        }
    }
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
    let created = create(&state, &Source::Client(client.ip()), &body, CodeBy::Mail).await?;
    let a = created.account;
    let shown = json!({"id": a.id, "name": a.name, "lang": a.lang.code(), "email": a.email, "email_confirmed": false});
    Ok((StatusCode::CREATED, Json(shown)))
}

/// Creates an account ([`AccountDesk::create`]) from `source`, and wakes the mail delivery. The
/// one path for accounts from the API, the web and mail.
pub(crate) async fn create(
    state: &AppState,
    source: &Source,
    body: &NewAccount,
    code_by: CodeBy,
) -> ApiResult<Created> {
    let new = SignUp {
        name: body.name.clone(),
        email: body.email.clone(),
        password: body.password.clone(),
        lang: body.lang.clone(),
    };
    let created = desk(state, &gate(state, source)).create(&new, code_by).await?;
    state.mail_sent.notify_one();
    Ok(created)
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
pub(crate) async fn show_account(State(state): State<AppState>, Caller(me): Caller) -> ApiResult<Json<AccountJson>> {
    Ok(Json(account_view(&state, &me).await?.into()))
}

/// `me`'s account as its owner sees it.
pub(crate) async fn account_view(state: &AppState, me: &str) -> ApiResult<AccountView> {
    Ok(desk(state, &gate(state, &Source::Mail(String::new()))).view(me).await?)
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
    let changed = change(&state, &Source::Client(client.ip()), &me, &body).await?;
    Ok(Json(AccountChanged {
        password_changed: changed.token.is_some(),
        token: changed.token,
        account: changed.account.into(),
    }))
}

/// An account after a change as the API shows it: whether the password changed, and then the
/// new session token (every other session ended).
#[derive(serde::Serialize)]
pub(crate) struct AccountChanged {
    /// The account.
    #[serde(flatten)]
    account: AccountJson,
    password_changed: bool,
    /// The new session's token, after a new password.
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<String>,
}

/// Checks `me`'s password (failures counted from `source`) and makes the changes
/// ([`AccountDesk::change`]).
pub(crate) async fn change(state: &AppState, source: &Source, me: &str, body: &AccountChanges) -> ApiResult<Changed> {
    let changes = Changes {
        current_password: body.current_password.clone(),
        email: body.email.clone(),
        lang: body.lang.clone(),
        new_password: body.new_password.clone(),
    };
    let changed = desk(state, &gate(state, source)).change(me, &changes).await?;
    state.mail_sent.notify_one();
    Ok(changed)
}

#[utoipa::path(
    delete,
    path = "/api/account/email",
    tag = "accounts",
    summary = "Withdraw a new e-mail address that waits for its code: its code no longer holds, the address in use stays.",
    security(("token" = [])),
    responses((status = 200, description = "Done", body = Object), Unauthorized)
)]
pub(crate) async fn withdraw_email(State(state): State<AppState>, Caller(me): Caller) -> ApiResult<Json<AccountJson>> {
    Ok(Json(withdraw_address(&state, &me).await?.into()))
}

/// Forgets the new address waiting on `me`'s account; the account as its owner sees it.
pub(crate) async fn withdraw_address(state: &AppState, me: &str) -> ApiResult<AccountView> {
    Ok(desk(state, &gate(state, &Source::Mail(String::new())))
        .withdraw_address(me)
        .await?)
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
) -> ApiResult<Json<AccountJson>> {
    let source = Source::Client(client.ip());
    Ok(Json(confirm_address(&state, &source, &me, &body.code).await?.into()))
}

/// Makes the address waiting on `me`'s account its address when `code` is the one mailed to it
/// ([`AccountDesk::confirm_address`]; a wrong code counts as a failed log-in from `source`).
pub(crate) async fn confirm_address(state: &AppState, source: &Source, me: &str, code: &str) -> ApiResult<AccountView> {
    let shown = desk(state, &gate(state, source)).confirm_address(me, code).await?;
    state.mail_sent.notify_one();
    Ok(shown)
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
    let LoggedIn { token, account } = login(&state, &Source::Client(client.ip()), &body.name, &body.password).await?;
    Ok(Json(json!({"token": token, "account": account})))
}

/// Checks a name and password from `source` and opens a session ([`AccountDesk::login`]). The
/// one path for logins from the API and the web pages.
pub(crate) async fn login(state: &AppState, source: &Source, name: &str, password: &str) -> ApiResult<LoggedIn> {
    Ok(desk(state, &gate(state, source)).login(name, password).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The code mail as queued for `name` in `lang`.
    fn code_mail(
        name: &str,
        code: &str,
        lang: &str,
        public: Option<&crate::PublicUrl>,
        first: bool,
    ) -> (String, String) {
        let news = crate::domain::Notification::AddressCode {
            account: name.to_string(),
            code: code.to_string(),
            link: public.map(|url| url.page(&format!("/account?code={code}"))),
            first,
            hours: crate::domain::account::CODE_HOURS,
        };
        crate::i18n::notification(&news, lang.parse().expect("a language"))
    }

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
        for key in ["nobody", "émile"] {
            let (count, _) = crate::sql::limits::failures(&state.store, key, None, 0)
                .await
                .expect("read");
            assert_eq!(count, 1, "one failure of {key}");
        }
        // Either spelling (composed or not, fullwidth) logs in.
        for name in ["ÉMILE", "E\u{301}mile", "Ｅ\u{301}ｍｉｌｅ"] {
            assert!(login(&state, &here, name, "long enough").await.is_ok(), "{name:?}");
        }
    }
}
