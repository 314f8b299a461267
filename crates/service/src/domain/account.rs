//! Accounts as the domain sees them: the rules for names, passwords and languages, an account
//! as stored and as its owner sees it, and why a change of an account is refused.

use spielleiter_engine::report::Lang;

/// Why a request about an account is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountError {
    /// A name has 1 to 40 letters, digits, spaces, `_` or `-`.
    BadName,
    /// An account has this name already (as names compare).
    NameTaken(String),
    /// A password has at least [`MIN_PASSWORD_CHARS`] characters.
    WeakPassword,
    /// The password cannot be hashed (the details were logged).
    UnusablePassword,
    /// Not one e-mail address.
    BadEmail,
    /// The language is `en` or `de`.
    BadLang,
    /// The password in use, given with a change, is wrong.
    WrongPassword,
    /// Unknown name or wrong password (one answer for both: names are not revealed).
    BadLogin,
    /// Another change of the account came first.
    ChangedMeanwhile,
    /// No new address waits for a code.
    NoNewAddress,
    /// The code mailed to the address has expired.
    CodeExpired,
    /// Not the code mailed to this address.
    BadCode(String),
}

/// The fewest characters a password has.
pub const MIN_PASSWORD_CHARS: usize = 8;

/// How long the code mailed to a new address holds, in hours.
pub const CODE_HOURS: i64 = 24;

/// How long a log-in lasts, in seconds.
pub const SESSION_SECONDS: i64 = 30 * 24 * 3600;

/// A name as given, as it is stored ([`crate::names::shown_form`]), if it may name an account.
pub fn checked_name(name: &str) -> Result<String, AccountError> {
    let name = crate::names::shown_form(name);
    if crate::names::is_account_name(&name) {
        Ok(name)
    } else {
        Err(AccountError::BadName)
    }
}

/// Refuses a password shorter than [`MIN_PASSWORD_CHARS`].
pub fn check_password(password: &str) -> Result<(), AccountError> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(AccountError::WeakPassword);
    }
    Ok(())
}

/// The language a stored or typed code names (`en`, `de`); anything else is refused.
pub fn checked_lang(code: &str) -> Result<Lang, AccountError> {
    match code {
        "en" => Ok(Lang::En),
        "de" => Ok(Lang::De),
        _ => Err(AccountError::BadLang),
    }
}

/// A new address waiting for the code mailed to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingAddress {
    /// The address.
    pub email: String,
    /// The SHA-256 of the code mailed to it.
    pub code_hash: String,
    /// When the code stops holding (milliseconds since 1970).
    pub expires_ms: i64,
}

/// An account as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// Its id.
    pub id: String,
    /// Its name as shown.
    pub name: String,
    /// Its name as names compare ([`crate::names::name_key`]).
    pub name_key: String,
    /// The address mail goes to (once confirmed).
    pub email: String,
    /// The PHC string of its password's hash.
    pub password_hash: String,
    /// The language of its mail and pages.
    pub lang: Lang,
    /// Whether `email` is confirmed.
    pub email_confirmed: bool,
    /// A new address waiting for its code, if any (held or expired).
    pub pending: Option<PendingAddress>,
}

impl Account {
    /// The address waiting for its code while the code holds at `now_ms`.
    pub fn pending_at(&self, now_ms: i64) -> Option<&PendingAddress> {
        self.pending.as_ref().filter(|p| p.expires_ms > now_ms)
    }

    /// The account as its owner sees it at `now_ms`.
    pub fn view(&self, now_ms: i64) -> AccountView {
        AccountView {
            id: self.id.clone(),
            name: self.name.clone(),
            email: self.email.clone(),
            lang: self.lang,
            email_confirmed: self.email_confirmed,
            pending_email: self.pending_at(now_ms).map(|p| p.email.clone()),
        }
    }
}

/// One's own account as its owner sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountView {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The address mail goes to, once confirmed.
    pub email: String,
    /// The language of its mail and pages.
    pub lang: Lang,
    /// Whether `email` is confirmed (a new account's address is not, until its code is given).
    pub email_confirmed: bool,
    /// An address waiting for its code (a new address, or a new account's first address), while
    /// the code holds.
    pub pending_email: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_passwords_and_languages_are_checked_where_they_come_in() {
        assert_eq!(checked_name("  E\u{301}mile "), Ok("Émile".to_string()));
        assert_eq!(checked_name(""), Err(AccountError::BadName));
        assert_eq!(checked_name("a/b"), Err(AccountError::BadName));
        assert_eq!(check_password("1234567"), Err(AccountError::WeakPassword));
        assert_eq!(check_password("äöüäöüäö"), Ok(()));
        assert_eq!(checked_lang("de"), Ok(Lang::De));
        assert_eq!(checked_lang("fr"), Err(AccountError::BadLang));
        assert_eq!(checked_lang("DE"), Err(AccountError::BadLang));
    }

    #[test]
    fn an_address_waits_only_while_its_code_holds() {
        let account = Account {
            id: "a1".into(),
            name: "Ida".into(),
            name_key: "ida".into(),
            email: "ida@example.org".into(),
            password_hash: "h".into(),
            lang: Lang::En,
            email_confirmed: true,
            pending: Some(PendingAddress {
                email: "new@example.org".into(),
                code_hash: "c".into(),
                expires_ms: 100,
            }),
        };
        assert_eq!(account.view(99).pending_email.as_deref(), Some("new@example.org"));
        assert_eq!(account.view(100).pending_email, None);
    }
}
