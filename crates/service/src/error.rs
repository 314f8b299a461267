//! Errors of the HTTP API: a stable code for programs and a message for people, as JSON.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::domain::account::AccountError;
use crate::domain::{DomainError, MasterError, SettingError};

/// An error answered to a request.
#[derive(Debug, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable code (`not_found`, `forbidden`, …).
    pub code: &'static str,
    /// What went wrong, for people.
    pub message: String,
    /// The same in German, where it has been written (else the English is shown to everyone).
    pub message_de: Option<String>,
}

/// The JSON body of every error answer.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// A stable code for programs: `bad_request` codes such as `unknown_power`, `unauthorized`,
    /// `bad_login`, `forbidden`, `not_found`, `conflict`, `bad_json`, `rate_limited`, `internal`.
    pub code: String,
    /// What went wrong, for people.
    pub message: String,
    /// The same in German, where the judge has it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_de: Option<String>,
}

/// The refusals a route can answer, one type per status, named in each route's OpenAPI
/// description: `responses((status = 200, …), Unauthorized, NotFound)`.
pub mod refusals {
    use super::ErrorBody;

    /// 400.
    #[derive(utoipa::IntoResponses)]
    #[response(status = 400, description = "The request is not allowed as sent")]
    pub struct BadRequest(pub ErrorBody);

    /// 401.
    #[derive(utoipa::IntoResponses)]
    #[response(status = 401, description = "No valid session, or a wrong login")]
    pub struct Unauthorized(pub ErrorBody);

    /// 403.
    #[derive(utoipa::IntoResponses)]
    #[response(status = 403, description = "Not the caller's to do")]
    pub struct Forbidden(pub ErrorBody);

    /// 404.
    #[derive(utoipa::IntoResponses)]
    #[response(status = 404, description = "No such game, phase or account")]
    pub struct NotFound(pub ErrorBody);

    /// 409.
    #[derive(utoipa::IntoResponses)]
    #[response(status = 409, description = "Conflicts with the game's state")]
    pub struct Conflict(pub ErrorBody);

    /// 422.
    #[derive(utoipa::IntoResponses)]
    #[response(status = 422, description = "The body is not the expected JSON")]
    pub struct BadJson(pub ErrorBody);

    /// 429.
    #[derive(utoipa::IntoResponses)]
    #[response(status = 429, description = "Too many requests")]
    pub struct RateLimited(pub ErrorBody);
}

impl ApiError {
    /// A new error.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
            message_de: None,
        }
    }

    /// The error with its message in German too.
    pub fn de(mut self, message: impl Into<String>) -> Self {
        self.message_de = Some(message.into());
        self
    }

    /// The message in a language: the German one where there is one, else the English.
    pub fn message_in(&self, lang: spielleiter_engine::report::Lang) -> &str {
        match (lang, &self.message_de) {
            (spielleiter_engine::report::Lang::De, Some(de)) => de,
            _ => &self.message,
        }
    }

    /// 400: the request is malformed or not allowed in this state.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 401: no valid session.
    pub fn unauthorized() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "log in first (Authorization: Bearer TOKEN)",
        )
        .de("Bitte zuerst anmelden (Authorization: Bearer TOKEN)")
    }

    /// 403: the account may not do this.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", message)
    }

    /// 404: no such thing (`what` in English, `de` the whole refusal in German).
    pub fn not_found(what: &str, de: &str) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", format!("no such {what}")).de(de)
    }

    /// 409: the request conflicts with the current state (a name taken, a game already started).
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, "conflict", message)
    }

    /// 500: stored data that cannot be read (never taken as a default); the details go to the
    /// log, not to the client.
    pub fn unreadable(what: &str, e: impl std::fmt::Display) -> Self {
        eprintln!("unreadable stored data ({what}): {e}");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the judge could not read {what} as stored"),
        )
        .de(format!(
            "Der Spielleiter konnte gespeicherte Daten ({what}) nicht lesen"
        ))
    }
}

impl From<DomainError> for ApiError {
    /// The status and code of each refusal, with its words from `i18n`.
    fn from(e: DomainError) -> Self {
        let (status, code) = match &e {
            DomainError::NoSuchGame | DomainError::NoSuchPhase | DomainError::Master(MasterError::NoSuchAccount) => {
                (StatusCode::NOT_FOUND, "not_found")
            }
            DomainError::Master(MasterError::BadExtension) => (StatusCode::BAD_REQUEST, "bad_extension"),
            DomainError::Setting(SettingError::GameNameTaken(_)) => (StatusCode::CONFLICT, "conflict"),
            DomainError::Setting(setting) => (StatusCode::BAD_REQUEST, setting_code(setting)),
            DomainError::Seat(_) => (StatusCode::CONFLICT, "conflict"),
            DomainError::UnknownVariant(_) => (StatusCode::BAD_REQUEST, "unknown_variant"),
            DomainError::NotRunning
            | DomainError::NotStarted
            | DomainError::GameOver
            | DomainError::PhaseClosed(_)
            | DomainError::Master(MasterError::Paused)
            | DomainError::Master(MasterError::ExtensionsUsed(_))
            | DomainError::Master(MasterError::PausedAlready)
            | DomainError::Master(MasterError::NotPaused)
            | DomainError::Master(MasterError::PlaysAlready)
            | DomainError::AdjudicatedAlready(_)
            | DomainError::NotDue(_) => (StatusCode::CONFLICT, "conflict"),
            DomainError::OnlyPlayersVote
            | DomainError::OnlySurvivorsVote
            | DomainError::OnlyMembersSendPress
            | DomainError::OnlyPlayersOrder
            | DomainError::OnlyPlayersHaveOrders
            | DomainError::OnlyMembersSeeResults
            | DomainError::Master(MasterError::OnlyMaster(_))
            | DomainError::NoPress => (StatusCode::FORBIDDEN, "forbidden"),
            DomainError::BadPressLength { .. } => (StatusCode::BAD_REQUEST, "bad_press"),
            DomainError::UnknownPower(_) | DomainError::NotPlayable(_) => (StatusCode::BAD_REQUEST, "unknown_power"),
            DomainError::ConcedeToSelf | DomainError::Eliminated(_) => (StatusCode::BAD_REQUEST, "bad_concession"),
            DomainError::Unreadable(_) | DomainError::Store | DomainError::AdjudicationFailed => {
                (StatusCode::INTERNAL_SERVER_ERROR, "internal")
            }
            DomainError::NotLoggedIn => (StatusCode::UNAUTHORIZED, "unauthorized"),
            DomainError::Account(account) => account_status(account),
            DomainError::RateLimited { .. } => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
        };
        let (en, de) = crate::i18n::refusal(&e);
        ApiError::new(status, code, en).de(de)
    }
}

/// The status and stable code of a refused request about an account.
fn account_status(e: &AccountError) -> (StatusCode, &'static str) {
    match e {
        AccountError::BadName => (StatusCode::BAD_REQUEST, "bad_name"),
        AccountError::NameTaken(_) | AccountError::ChangedMeanwhile => (StatusCode::CONFLICT, "conflict"),
        AccountError::WeakPassword => (StatusCode::BAD_REQUEST, "weak_password"),
        AccountError::UnusablePassword => (StatusCode::BAD_REQUEST, "bad_password"),
        AccountError::BadEmail => (StatusCode::BAD_REQUEST, "bad_email"),
        AccountError::BadLang => (StatusCode::BAD_REQUEST, "bad_lang"),
        AccountError::WrongPassword => (StatusCode::UNAUTHORIZED, "bad_password"),
        AccountError::BadLogin => (StatusCode::UNAUTHORIZED, "bad_login"),
        AccountError::NoNewAddress => (StatusCode::BAD_REQUEST, "no_new_address"),
        AccountError::CodeExpired => (StatusCode::BAD_REQUEST, "code_expired"),
        AccountError::BadCode(_) => (StatusCode::BAD_REQUEST, "bad_code"),
    }
}

/// The stable code of a refused setting.
fn setting_code(e: &SettingError) -> &'static str {
    match e {
        SettingError::BadPressPolicy => "bad_press",
        SettingError::BadPhaseLength | SettingError::BadDeadlineRule(_) => "bad_deadline",
        SettingError::BadRuleOption(_) => "bad_option",
        SettingError::BadNmrLimit => "bad_nmr_limit",
        SettingError::BadGrace => "bad_grace",
        SettingError::BadReminder => "bad_reminder",
        SettingError::BadGameName => "bad_name",
        SettingError::GameNameTaken(_) => "conflict",
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        // The details go to the log, not to the client.
        eprintln!("database error: {e}");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "the judge could not store or read data",
        )
        .de("Der Spielleiter konnte Daten nicht speichern oder lesen")
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            code: self.code.to_string(),
            message: self.message,
            message_de: self.message_de,
        };
        (self.status, Json(body)).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spielleiter_engine::report::Lang;

    #[test]
    fn a_message_is_german_where_it_has_been_written_so() {
        let both = ApiError::conflict("the game is full").de("Die Partie ist voll");
        assert_eq!(both.message_in(Lang::De), "Die Partie ist voll");
        assert_eq!(both.message_in(Lang::En), "the game is full");
        let english = ApiError::conflict("only English");
        assert_eq!(english.message_in(Lang::De), "only English");
        assert_eq!(
            ApiError::not_found("game", "Diese Partie gibt es nicht").message_in(Lang::De),
            "Diese Partie gibt es nicht"
        );
    }
}
