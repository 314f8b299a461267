//! The web pages served by `spielleiter serve`: sign up and log in, the list of games, the game
//! page with its map, orders with their echo, press, history and reports, in English and
//! German. Pages are rendered on the server and work without JavaScript; a small script adds
//! the live echo, clicking on the map and the notice of a new phase (server-sent events).
//!
//! Security: the session is an HttpOnly, SameSite=Lax cookie (Secure unless switched off for
//! plain HTTP); every form carries a CSRF token that must match the `sl_csrf` cookie, and a
//! cross-site `Origin` is refused; all output is escaped by the templates.

mod clicks;
mod events;
mod maps;
mod new_game;
mod pages;
mod powers;
mod records;
mod rules;
mod text;

use axum::Router;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use cookie::{Cookie, SameSite};

use crate::api::AppState;
use crate::auth::{new_token, token_hash};
use crate::error::ApiError;
use crate::store::now_ms;
pub(crate) use text::Text;

const SESSION: &str = "sl_session";
const CSRF: &str = "sl_csrf";
const LANG: &str = "sl_lang";

/// The routes of the web pages (everything outside `/api`).
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(pages::home))
        .route("/signup", post(pages::signup))
        .route("/login", post(pages::login))
        .route("/logout", post(pages::logout))
        .route("/lang", get(pages::language))
        .route("/account", get(pages::account).post(pages::change_account))
        .route("/account/email", post(pages::confirm_email))
        .route("/games", get(pages::games).post(pages::create_game))
        .route("/games/{id}", get(pages::game))
        .route("/games/{id}/join", post(pages::join))
        .route("/games/{id}/wishes", post(pages::change_wishes))
        .route("/games/{id}/leave", post(pages::leave))
        .route("/games/{id}/start", post(pages::start))
        .route("/games/{id}/adjudicate", post(pages::adjudicate))
        .route("/games/{id}/extend", post(pages::extend))
        .route("/games/{id}/pause", post(pages::pause))
        .route("/games/{id}/resume", post(pages::resume))
        .route("/games/{id}/draw", post(pages::draw))
        .route("/games/{id}/concede", post(pages::concede))
        .route("/games/{id}/replace", post(pages::replace))
        .route("/games/{id}/orders", post(pages::orders))
        .route("/games/{id}/echo", post(pages::echo))
        .route("/games/{id}/press", post(pages::press))
        .route("/games/{id}/events", get(events::stream))
        .route("/games/{id}/map.svg", get(maps::svg))
        .route("/games/{id}/map.png", get(maps::png))
        .route("/games/{id}/record.txt", get(records::text))
        .route("/games/{id}/history.json", get(records::json))
        .route("/rules", get(rules::index))
        .route("/rules/{variant}", get(rules::page))
        .route(
            "/static/site.css",
            get(|| async { static_file("text/css", include_str!("../../static/site.css")) }),
        )
        .route(
            "/static/game.js",
            get(|| async { static_file("text/javascript", include_str!("../../static/game.js")) }),
        )
        .layer(axum::middleware::map_response(security_headers))
}

/// The Content-Security-Policy of the pages: scripts, styles, pictures and requests from the
/// judge itself only (the power colour marks are style attributes), no plugins, no framing, and
/// forms go to the judge only. A page that some text slipped into unescaped still runs nothing.
pub(crate) const PAGE_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; \
     frame-ancestors 'none'; base-uri 'none'";

/// Adds the pages' security headers to every answer outside `/api` that does not set its own.
pub(crate) async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    let defaults = [
        (header::CONTENT_SECURITY_POLICY, PAGE_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "same-origin"),
    ];
    for (name, value) in defaults {
        if !headers.contains_key(&name) {
            headers.insert(name, axum::http::HeaderValue::from_static(value));
        }
    }
    response
}

fn static_file(kind: &'static str, text: &'static str) -> Response {
    (
        [(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "max-age=300")],
        text,
    )
        .into_response()
}

/// A logged-in account.
#[derive(Clone, Debug)]
pub(crate) struct Account {
    pub(crate) id: String,
    pub(crate) name: String,
}

/// Who is looking at a page: the account (if logged in), the CSRF token of the browser, and the
/// language of the page.
pub(crate) struct Viewer {
    pub(crate) account: Option<Account>,
    pub(crate) csrf: String,
    /// The CSRF cookie is new and must be set with the answer.
    new_csrf: bool,
    pub(crate) t: &'static Text,
    secure: bool,
    /// The configured public address, which forms must come from.
    public_url: Option<crate::PublicUrl>,
    /// The page asked for, when it was asked for with GET (where to come back after logging in).
    here: Option<String>,
}

/// `path` if it is a page of this site (`/games/…`), not another site (`//host`, `/\host`) or a
/// script.
pub(crate) fn local_path(path: &str) -> Option<&str> {
    let fine = path.starts_with('/')
        && !path.starts_with("//")
        && !path.contains('\\')
        && path.len() <= 300
        && path.chars().all(|c| c.is_ascii_graphic());
    fine.then_some(path)
}

fn cookies(headers: &HeaderMap) -> Vec<Cookie<'static>> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| {
            Cookie::split_parse(v.to_string())
                .filter_map(Result::ok)
                .collect::<Vec<_>>()
        })
        .collect()
}

impl axum::extract::FromRequestParts<AppState> for Viewer {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, state: &AppState) -> Result<Viewer, Response> {
        let jar = cookies(&parts.headers);
        let get = |name: &str| jar.iter().find(|c| c.name() == name).map(|c| c.value().to_string());
        let mut account = None;
        let mut account_lang = None;
        if let Some(token) = get(SESSION) {
            let session = crate::sql::sessions::account_of(&state.store.pool, &token_hash(&token), now_ms())
                .await
                .map_err(|e| ApiError::from(e).into_response())?;
            if let Some(a) = session {
                account = Some(Account { id: a.id, name: a.name });
                account_lang = Some(a.lang);
            }
        }
        let lang = get(LANG).or(account_lang).unwrap_or_else(|| {
            let accept = parts
                .headers
                .get(header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            if accept.trim_start().to_ascii_lowercase().starts_with("de") {
                "de"
            } else {
                "en"
            }
            .to_string()
        });
        let (csrf, new_csrf) = match get(CSRF).filter(|c| c.len() >= 20) {
            Some(c) => (c, false),
            None => (new_token(), true),
        };
        let here = (parts.method == axum::http::Method::GET)
            .then(|| parts.uri.path_and_query().map(|p| p.as_str().to_string()))
            .flatten();
        Ok(Viewer {
            account,
            csrf,
            new_csrf,
            t: Text::of(&lang),
            secure: state.secure_cookies,
            public_url: state.public_url.clone(),
            here,
        })
    }
}

impl Viewer {
    /// Sets a cookie on an answer, with the attributes every cookie of the site has: the whole
    /// site, HttpOnly, SameSite=Lax, Secure unless configured off (an empty value for no time
    /// deletes it). Lax, not Strict, also for the CSRF token: a page opened from a link elsewhere
    /// must not replace the token of forms open in other tabs; the token check is the
    /// protection.
    pub(crate) fn set_cookie(&self, response: &mut Response, name: &'static str, value: &str, max_age_s: i64) {
        let c = Cookie::build((name, value.to_string()))
            .path("/")
            .http_only(true)
            .secure(self.secure)
            .same_site(SameSite::Lax)
            .max_age(cookie::time::Duration::seconds(max_age_s))
            .build();
        if let Ok(value) = HeaderValue::from_str(&c.to_string()) {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }

    /// Adds the CSRF cookie to an answer when the browser has none yet.
    fn finish(&self, mut response: Response) -> Response {
        if self.new_csrf {
            // The form token lasts as long as a login.
            let seconds = crate::api::accounts::SESSION_SECONDS;
            self.set_cookie(&mut response, CSRF, &self.csrf, seconds);
        }
        response
    }

    /// An HTML page.
    pub(crate) fn page(&self, status: StatusCode, html: Result<String, askama::Error>) -> Response {
        let response = match html {
            Ok(body) => (
                status,
                [(header::CACHE_CONTROL, "no-store"), (header::X_FRAME_OPTIONS, "DENY")],
                Html(body),
            )
                .into_response(),
            Err(e) => {
                eprintln!("page template failed: {e}");
                (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response()
            }
        };
        self.finish(response)
    }

    /// A redirect after a form (303: the browser follows with GET).
    pub(crate) fn redirect(&self, to: &str) -> Response {
        let response = (
            StatusCode::SEE_OTHER,
            [(
                header::LOCATION,
                HeaderValue::from_str(to).unwrap_or_else(|_| HeaderValue::from_static("/")),
            )],
        )
            .into_response();
        self.finish(response)
    }

    /// The error page: what went wrong, in the words of the refusal, and the way back.
    pub(crate) fn error(&self, e: &ApiError, back: &str) -> Response {
        let page = pages::ErrorPage {
            t: self.t,
            viewer_name: self.account.as_ref().map(|a| a.name.clone()),
            csrf: self.csrf.clone(),
            flash: None,
            message: self.t.quoted(e.message_in(self.t.engine_lang())),
            back: back.to_string(),
        };
        let status = if e.status.is_success() {
            StatusCode::BAD_REQUEST
        } else {
            e.status
        };
        self.page(status, askama::Template::render(&page))
    }

    /// The logged-in account, or (401) the login form, which comes back to the page asked for.
    #[allow(clippy::result_large_err)] // The refusal is the page to answer with.
    pub(crate) fn account(&self) -> Result<&Account, Response> {
        self.account.as_ref().ok_or_else(|| {
            let next = self.here.as_deref().and_then(local_path).unwrap_or("");
            self.login_page(StatusCode::UNAUTHORIZED, Some(self.t.login_first.to_string()), next)
        })
    }

    /// The home page's login and sign-up forms, with a note above them and the page to go to
    /// after logging in.
    pub(crate) fn login_page(&self, status: StatusCode, note: Option<String>, next: &str) -> Response {
        let page = pages::HomePage {
            t: self.t,
            viewer_name: None,
            csrf: self.csrf.clone(),
            flash: note,
            next: next.to_string(),
            name: String::new(),
            email: String::new(),
            refusal: None,
        };
        self.page(status, askama::Template::render(&page))
    }

    /// The home page again after a refused login or sign-up: the reason above the forms, the
    /// name, address and page to go to kept (never the password).
    pub(crate) fn refused_login(&self, e: &ApiError, form: &Form) -> Response {
        let page = pages::HomePage {
            t: self.t,
            viewer_name: None,
            csrf: self.csrf.clone(),
            flash: None,
            next: local_path(form.get("next")).unwrap_or("").to_string(),
            name: form.get("name").to_string(),
            email: form.get("email").to_string(),
            refusal: Some(self.t.quoted(e.message_in(self.t.engine_lang()))),
        };
        let status = if e.status.is_success() {
            StatusCode::BAD_REQUEST
        } else {
            e.status
        };
        self.page(status, askama::Template::render(&page))
    }
}

/// The fields of a submitted form, in order (a name may repeat).
pub(crate) struct Form(pub(crate) Vec<(String, String)>);

impl Form {
    fn parse(body: &[u8]) -> Form {
        Form(form_urlencoded::parse(body).into_owned().collect())
    }

    /// The first value of a field, or "".
    pub(crate) fn get(&self, name: &str) -> &str {
        self.0.iter().find(|(k, _)| k == name).map_or("", |(_, v)| v.as_str())
    }

    /// Every value of a field.
    pub(crate) fn all(&self, name: &str) -> Vec<String> {
        self.0
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .collect()
    }
}

/// Checks a form post: the CSRF field must match the browser's CSRF cookie, and a browser that
/// says where the form came from must say it came from this site.
#[allow(clippy::result_large_err)] // The refusal is the page to answer with.
fn checked_form(viewer: &Viewer, headers: &HeaderMap, body: &[u8]) -> Result<Form, Response> {
    let refuse = || {
        viewer.error(
            &ApiError::forbidden("the form has expired or came from another site: reload the page and try again").de("Das Formular ist abgelaufen oder kam von einer anderen Seite: Seite neu laden und noch einmal versuchen"),
            "/",
        )
    };
    if let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) {
        // A browser that names the form's origin must name this site: the configured public
        // address (a proxy may rewrite Host), else the Host it asked for.
        let ours = match &viewer.public_url {
            Some(url) => url.is_origin(origin),
            None => {
                let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
                host.is_some() && origin.split_once("://").map(|(_, h)| h) == host
            }
        };
        if !ours {
            return Err(refuse());
        }
    }
    let form = Form::parse(body);
    let sent = form.get("csrf").as_bytes();
    let ok = !viewer.new_csrf
        && sent.len() == viewer.csrf.len()
        && sent
            .iter()
            .zip(viewer.csrf.as_bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    if !ok {
        return Err(refuse());
    }
    Ok(form)
}

/// A form posted to a page, its origin and CSRF token checked: who posted it, from which
/// address, with which headers (cookies), and its fields. A forged form is answered with the
/// refusal page before any handler runs.
pub(crate) struct Posted {
    /// Who posted it.
    pub(crate) viewer: Viewer,
    /// The fields.
    pub(crate) form: Form,
    /// The request's headers.
    pub(crate) headers: HeaderMap,
    /// The client's address (for rate limits).
    pub(crate) ip: std::net::IpAddr,
}

impl axum::extract::FromRequest<AppState> for Posted {
    type Rejection = Response;

    async fn from_request(request: axum::extract::Request, state: &AppState) -> Result<Posted, Response> {
        use axum::extract::{ConnectInfo, FromRequestParts as _};
        let (mut parts, body) = request.into_parts();
        let viewer = Viewer::from_request_parts(&mut parts, state).await?;
        let ConnectInfo(client) = ConnectInfo::<std::net::SocketAddr>::from_request_parts(&mut parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let headers = parts.headers.clone();
        let request = axum::extract::Request::from_parts(parts, body);
        let body = axum::body::Bytes::from_request(request, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let form = checked_form(&viewer, &headers, &body)?;
        Ok(Posted {
            viewer,
            form,
            headers,
            ip: client.ip(),
        })
    }
}

impl Posted {
    /// The logged-in account that posted the form, or the page asking to log in.
    #[allow(clippy::result_large_err)] // The refusal is the page to answer with.
    pub(crate) fn account(&self) -> Result<Account, Response> {
        self.viewer.account().cloned()
    }
}

/// A page's query string; one that does not fit (`?step=abc`) is answered with the error page.
pub(crate) struct PageQuery<T>(pub(crate) T);

impl<T: serde::de::DeserializeOwned + Send> axum::extract::FromRequestParts<AppState> for PageQuery<T> {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, state: &AppState) -> Result<Self, Response> {
        use axum::extract::Query;
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(query)) => Ok(PageQuery(query)),
            Err(_) => {
                let viewer = Viewer::from_request_parts(parts, state).await?;
                let refusal = ApiError::bad_request("bad_query", "the address of this page is malformed")
                    .de("Die Adresse dieser Seite ist fehlerhaft");
                Err(viewer.error(&refusal, "/games"))
            }
        }
    }
}

/// The answer to a request for a page that does not exist.
pub(crate) fn not_found_page() -> Response {
    (
        StatusCode::NOT_FOUND,
        Html("<!DOCTYPE html><title>Not found</title><h1>Not found</h1><p><a href=\"/\">Spielleiter</a></p>"),
    )
        .into_response()
}
