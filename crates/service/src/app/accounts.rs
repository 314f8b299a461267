//! Accounts as use cases: sign-up, the account as its owner sees it, changes checked with the
//! password in use, the code that confirms a new address, and log-in. Each one unit of work on
//! the account store; passwords are checked through the gate, which counts failures against
//! guessing ([`Gate`]), and hashed through [`Passwords`].

use spielleiter_engine::report::Lang;

use super::ports::{AccountStore, AccountUnit, Clock, Gate, Passwords, Unit};
use crate::auth::{code_hash, new_code, new_id, new_token, token_hash};
use crate::domain::account::{
    Account, AccountError, AccountView, CODE_HOURS, PendingAddress, SESSION_SECONDS, check_password, checked_lang,
    checked_name,
};
use crate::domain::{DomainError, Notification};
use crate::names::name_key;

/// A sign-up as typed.
#[derive(Debug, Clone)]
pub struct SignUp {
    /// The name wished for.
    pub name: String,
    /// The address for mail.
    pub email: String,
    /// The password.
    pub password: String,
    /// The language code (`en`, `de`).
    pub lang: String,
}

/// How the code that confirms a new account's address reaches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeBy {
    /// A mail of its own, queued with the account (the web and the API).
    Mail,
    /// The caller's reply, which goes to that address (an account made by mail).
    Reply,
}

/// A new account: as its owner sees it, and the code that confirms its address.
#[derive(Debug, Clone)]
pub struct Created {
    /// The account.
    pub account: AccountView,
    /// The code mailed (or to be replied) to its address.
    pub code: String,
}

/// Changes to one's own account; each needs the password in use.
#[derive(Debug, Clone, Default)]
pub struct Changes {
    /// The password in use now.
    pub current_password: String,
    /// A new address: it takes effect when the code mailed to it is confirmed.
    pub email: Option<String>,
    /// A new language code.
    pub lang: Option<String>,
    /// A new password: every session of the account ends and a new one opens.
    pub new_password: Option<String>,
}

/// An account after a change, and the token of the new session after a new password.
#[derive(Debug, Clone)]
pub struct Changed {
    /// The account as its owner sees it.
    pub account: AccountView,
    /// The new session's token, after a new password (every other session ended).
    pub token: Option<String>,
}

/// A log-in: the session's token and the account's id.
#[derive(Debug, Clone)]
pub struct LoggedIn {
    /// The bearer token (only its hash is stored).
    pub token: String,
    /// The account.
    pub account: String,
}

/// The account use cases with what they need: the store, the gate of the request's source,
/// the password hasher, the clock, and the service's public address for links in mail.
pub struct AccountDesk<'a, S, G, P, C> {
    /// Where accounts are kept.
    pub store: &'a S,
    /// Rate limits of the request's source.
    pub gate: &'a G,
    /// Hashes and checks passwords.
    pub passwords: &'a P,
    /// The time.
    pub clock: &'a C,
    /// The service's public address, for the link in a code mail.
    pub public: Option<&'a crate::PublicUrl>,
}

/// A refusal about an account.
fn refused(e: AccountError) -> DomainError {
    DomainError::Account(e)
}

/// Refuses what is not one e-mail address, as the mailer reads one (nothing around it).
pub fn check_email(email: &str) -> Result<(), AccountError> {
    match email.trim().parse::<lettre::Address>() {
        Ok(_) if email.trim().len() <= 254 => Ok(()),
        _ => Err(AccountError::BadEmail),
    }
}

impl<S: AccountStore, G: Gate, P: Passwords, C: Clock> AccountDesk<'_, S, G, P, C> {
    /// Creates an account after checking its name (free, as [`name_key`] compares names),
    /// password, address and language. Its address receives a code (valid [`CODE_HOURS`]),
    /// mailed unless `code_by` leaves it to the caller, and no other mail until the code is
    /// confirmed. Too many sign-ups from the source or for the address are refused by the gate.
    pub async fn create(&self, new: &SignUp, code_by: CodeBy) -> Result<Created, DomainError> {
        let name = checked_name(&new.name).map_err(refused)?;
        check_password(&new.password).map_err(refused)?;
        check_email(&new.email).map_err(refused)?;
        let lang = checked_lang(&new.lang).map_err(refused)?;
        let key = name_key(&name);
        if self.store.begin_accounts().await?.name_key_taken(&key).await? {
            return Err(refused(AccountError::NameTaken(name)));
        }
        self.gate.sign_up(&new.email).await?;
        let hash = self.passwords.hash(&new.password).await?;
        let (code, now) = (new_code(), self.clock.now_ms());
        let email = new.email.trim().to_string();
        let account = Account {
            id: new_id(),
            name,
            name_key: key,
            email: email.clone(),
            password_hash: hash,
            lang,
            email_confirmed: false,
            pending: Some(PendingAddress {
                email,
                code_hash: code_hash(&code),
                expires_ms: now + CODE_HOURS * 3600 * 1000,
            }),
        };
        let mut unit = self.store.begin_accounts().await?;
        if !unit.insert_account(&account, now).await? {
            return Err(refused(AccountError::NameTaken(account.name)));
        }
        if code_by == CodeBy::Mail {
            self.mail_code(&mut unit, &account, &account.email, lang, &code, true)
                .await?;
        }
        unit.commit().await?;
        Ok(Created {
            account: account.view(now),
            code,
        })
    }

    /// `me`'s account as its owner sees it.
    pub async fn view(&self, me: &str) -> Result<AccountView, DomainError> {
        let account = self.store.begin_accounts().await?.account(me).await?;
        Ok(account.ok_or(DomainError::NotLoggedIn)?.view(self.clock.now_ms()))
    }

    /// Forgets the new address waiting on `me`'s account and its code.
    pub async fn withdraw_address(&self, me: &str) -> Result<AccountView, DomainError> {
        let mut unit = self.store.begin_accounts().await?;
        unit.set_pending(me, None).await?;
        unit.commit().await?;
        self.view(me).await
    }

    /// `me`'s account when `password` is its password; a wrong one counts as a failed log-in.
    async fn checked(&self, me: &str, password: &str) -> Result<Account, DomainError> {
        let account = self.store.begin_accounts().await?.account(me).await?;
        let account = account.ok_or(DomainError::NotLoggedIn)?;
        let right = self.passwords.matches(password, Some(&account.password_hash));
        if !self.gate.check_secret(&account.name_key, right).await? {
            return Err(refused(AccountError::WrongPassword));
        }
        Ok(account)
    }

    /// Checks `me`'s password and makes the changes. A new address waits for the code mailed to
    /// it ([`Self::confirm_address`]); so does the unconfirmed address again once its code no
    /// longer holds. A new password withdraws a waiting address, ends every session of the
    /// account and opens a new one, whose token the answer carries.
    pub async fn change(&self, me: &str, changes: &Changes) -> Result<Changed, DomainError> {
        let current = self.checked(me, &changes.current_password).await?;
        let now = self.clock.now_ms();
        let email = changes
            .email
            .as_deref()
            .map(str::trim)
            .filter(|e| *e != current.email || !(current.email_confirmed || current.pending_at(now).is_some()));
        if let Some(email) = email {
            check_email(email).map_err(refused)?;
        }
        let lang = changes.lang.as_deref().map(checked_lang).transpose().map_err(refused)?;
        let hash = match &changes.new_password {
            Some(new) => {
                check_password(new).map_err(refused)?;
                Some(self.passwords.hash(new).await?)
            }
            None => None,
        };
        let mut unit = self.store.begin_accounts().await?;
        // Only over the password just checked: two changes at once do not both pass.
        if !unit
            .update_account(me, lang, hash.as_deref(), &current.password_hash)
            .await?
        {
            return Err(refused(AccountError::ChangedMeanwhile));
        }
        let token = match hash {
            Some(_) => Some(self.after_new_password(&mut unit, me, now).await?),
            None => None,
        };
        if let Some(email) = email {
            let code = new_code();
            let pending = PendingAddress {
                email: email.to_string(),
                code_hash: code_hash(&code),
                expires_ms: now + CODE_HOURS * 3600 * 1000,
            };
            unit.set_pending(me, Some(&pending)).await?;
            let lang = lang.unwrap_or(current.lang);
            self.mail_code(&mut unit, &current, email, lang, &code, !current.email_confirmed)
                .await?;
        }
        unit.commit().await?;
        Ok(Changed {
            account: self.view(me).await?,
            token,
        })
    }

    /// After a new password: a waiting address is withdrawn and every session of `me` ends; the
    /// token of a new one.
    async fn after_new_password(&self, unit: &mut S::Unit<'_>, me: &str, now: i64) -> Result<String, DomainError> {
        unit.set_pending(me, None).await?;
        unit.end_sessions(me).await?;
        let token = new_token();
        unit.open_session(me, &token_hash(&token), now, now + SESSION_SECONDS * 1000)
            .await?;
        Ok(token)
    }

    /// Queues the mail that brings `email` its code, in `lang` (`first`: the account has no
    /// confirmed address yet).
    async fn mail_code(
        &self,
        unit: &mut S::Unit<'_>,
        account: &Account,
        email: &str,
        lang: Lang,
        code: &str,
        first: bool,
    ) -> Result<(), DomainError> {
        let news = Notification::AddressCode {
            account: account.name.clone(),
            code: code.to_string(),
            link: self.public.map(|url| url.page(&format!("/account?code={code}"))),
            first,
            hours: CODE_HOURS,
        };
        unit.mail_address(&account.name, email, &news, lang).await
    }

    /// Makes the address waiting on `me`'s account its address when `code` is the one mailed to
    /// it, and tells the old address if it was confirmed. A wrong code counts as a failed log-in,
    /// so codes cannot be guessed.
    pub async fn confirm_address(&self, me: &str, code: &str) -> Result<AccountView, DomainError> {
        let account = self.store.begin_accounts().await?.account(me).await?;
        let account = account.ok_or(DomainError::NotLoggedIn)?;
        let Some(pending) = account.pending.clone() else {
            return Err(refused(AccountError::NoNewAddress));
        };
        let now = self.clock.now_ms();
        if pending.expires_ms <= now {
            return Err(refused(AccountError::CodeExpired));
        }
        let right = std::future::ready(code_hash(code) == pending.code_hash);
        if !self.gate.check_secret(&account.name_key, right).await? {
            return Err(refused(AccountError::BadCode(pending.email)));
        }
        let mut unit = self.store.begin_accounts().await?;
        if !unit.confirm_pending(me, &pending.code_hash, now).await? {
            return Err(refused(AccountError::ChangedMeanwhile));
        }
        if account.email_confirmed && !account.email.eq_ignore_ascii_case(&pending.email) {
            let news = Notification::AddressChanged {
                account: account.name.clone(),
                email: pending.email.clone(),
            };
            unit.mail_address(&account.name, &account.email, &news, Lang::En)
                .await?;
        }
        unit.commit().await?;
        self.view(me).await
    }

    /// Checks a name (as names compare; an account whose name reads as an older one's is found
    /// by its exact name) and password and opens a session of [`SESSION_SECONDS`]. An unknown
    /// name is checked against a dummy hash, as long as a known one, and counted like a wrong
    /// password: one answer for both, so names are not revealed.
    pub async fn login(&self, name: &str, password: &str) -> Result<LoggedIn, DomainError> {
        let found = self.store.begin_accounts().await?.account_by_name(name).await?;
        let key = found.as_ref().map_or_else(|| name_key(name), |a| a.name_key.clone());
        let check = self
            .passwords
            .matches(password, found.as_ref().map(|a| a.password_hash.as_str()));
        let matches = self.gate.check_secret(&key, check).await?;
        let Some(account) = found.filter(|_| matches) else {
            return Err(refused(AccountError::BadLogin));
        };
        let (token, now) = (new_token(), self.clock.now_ms());
        let mut unit = self.store.begin_accounts().await?;
        unit.open_session(&account.id, &token_hash(&token), now, now + SESSION_SECONDS * 1000)
            .await?;
        unit.commit().await?;
        Ok(LoggedIn {
            token,
            account: account.id,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::fake::accounts::{FakeGate, FakePasswords};
    use crate::app::fake::{FakeStore, FixedClock};

    /// The fakes a desk is made of.
    struct World {
        store: FakeStore,
        gate: FakeGate,
        passwords: FakePasswords,
        clock: FixedClock,
    }

    fn world() -> World {
        World {
            store: FakeStore::default(),
            gate: FakeGate {
                cap: 3,
                ..Default::default()
            },
            passwords: FakePasswords::default(),
            clock: FixedClock(1_000_000),
        }
    }

    impl World {
        fn desk(&self) -> AccountDesk<'_, FakeStore, FakeGate, FakePasswords, FixedClock> {
            AccountDesk {
                store: &self.store,
                gate: &self.gate,
                passwords: &self.passwords,
                clock: &self.clock,
                public: None,
            }
        }

        /// The codes mailed so far, with their addresses.
        fn codes(&self) -> Vec<(String, String)> {
            let data = self.store.data.borrow();
            let codes = data.mail.iter().filter_map(|(to, _, n)| match n {
                Notification::AddressCode { code, .. } => Some((to.clone(), code.clone())),
                _ => None,
            });
            codes.collect()
        }
    }

    fn ida() -> SignUp {
        SignUp {
            name: "Ida".into(),
            email: " ida@example.org ".into(),
            password: "long enough".into(),
            lang: "de".into(),
        }
    }

    #[tokio::test]
    async fn a_new_account_waits_for_its_code_and_a_wrong_code_counts_as_a_failure() {
        let w = world();
        let created = w.desk().create(&ida(), CodeBy::Mail).await.expect("made");
        assert_eq!(created.account.lang, Lang::De);
        assert_eq!(created.account.pending_email.as_deref(), Some("ida@example.org"));
        assert!(!created.account.email_confirmed);
        assert_eq!(w.codes(), [("ida@example.org".to_string(), created.code.clone())]);
        let me = created.account.id;
        let wrong = w.desk().confirm_address(&me, "AAAA-AAAA").await;
        assert_eq!(
            wrong.expect_err("wrong code"),
            DomainError::Account(AccountError::BadCode("ida@example.org".into()))
        );
        assert_eq!(*w.gate.failures.borrow(), ["ida"]);
        let code = created.code.to_lowercase().replace('-', " ");
        let shown = w
            .desk()
            .confirm_address(&me, &code)
            .await
            .expect("case and dashes do not matter");
        assert!(shown.email_confirmed && shown.pending_email.is_none());
        let again = w.desk().confirm_address(&me, &created.code).await;
        assert_eq!(
            again.expect_err("used"),
            DomainError::Account(AccountError::NoNewAddress)
        );
    }

    #[tokio::test]
    async fn a_sign_up_is_checked_before_anything_is_stored() {
        let w = world();
        let refusals = [
            (
                SignUp {
                    name: "I/da".into(),
                    ..ida()
                },
                AccountError::BadName,
            ),
            (
                SignUp {
                    password: "short".into(),
                    ..ida()
                },
                AccountError::WeakPassword,
            ),
            (
                SignUp {
                    email: "ida at example".into(),
                    ..ida()
                },
                AccountError::BadEmail,
            ),
            (
                SignUp {
                    lang: "fr".into(),
                    ..ida()
                },
                AccountError::BadLang,
            ),
        ];
        for (new, why) in refusals {
            let refused = w.desk().create(&new, CodeBy::Reply).await;
            assert_eq!(refused.expect_err("refused"), DomainError::Account(why));
        }
        assert!(w.store.data.borrow().accounts.is_empty() && w.gate.sign_ups.borrow().is_empty());
        w.desk().create(&ida(), CodeBy::Reply).await.expect("made");
        assert!(w.codes().is_empty(), "the code goes in the reply");
        let twin = SignUp {
            name: "IDA".into(),
            ..ida()
        };
        let taken = w.desk().create(&twin, CodeBy::Reply).await;
        assert_eq!(
            taken.expect_err("taken"),
            DomainError::Account(AccountError::NameTaken("IDA".into()))
        );
    }

    #[tokio::test]
    async fn an_unknown_name_and_a_wrong_password_get_one_answer_and_both_count() {
        let w = world();
        w.desk().create(&ida(), CodeBy::Reply).await.expect("made");
        let unknown = w.desk().login("Nobody", "guess one").await.expect_err("unknown");
        let wrong = w.desk().login("ida", "guess two").await.expect_err("wrong");
        assert_eq!(unknown, wrong);
        assert_eq!(unknown, DomainError::Account(AccountError::BadLogin));
        assert_eq!(
            *w.passwords.dummy_checks.borrow(),
            ["guess one"],
            "the unknown name cost a check"
        );
        assert_eq!(*w.gate.failures.borrow(), ["nobody", "ida"]);
        let logged_in = w.desk().login(" IDA ", "long enough").await.expect("right");
        assert_eq!(
            w.store.data.borrow().sessions,
            [(token_hash(&logged_in.token), logged_in.account)]
        );
        for _ in 0..2 {
            let _ = w.desk().login("ida", "guess again").await;
        }
        let limited = w.desk().login("ida", "long enough").await.expect_err("limited");
        assert!(matches!(
            limited,
            DomainError::RateLimited {
                what: crate::domain::Limited::LogIns,
                ..
            }
        ));
    }

    #[tokio::test]
    async fn a_new_password_ends_every_session_and_withdraws_a_waiting_address() {
        let w = world();
        let me = w.desk().create(&ida(), CodeBy::Reply).await.expect("made").account.id;
        let old = w.desk().login("ida", "long enough").await.expect("in");
        let wrong = Changes {
            current_password: "not it".into(),
            lang: Some("en".into()),
            ..Default::default()
        };
        let refused = w.desk().change(&me, &wrong).await.expect_err("wrong password");
        assert_eq!(refused, DomainError::Account(AccountError::WrongPassword));
        assert_eq!(w.store.data.borrow().accounts[&me].lang, Lang::De, "nothing changed");
        let changes = Changes {
            current_password: "long enough".into(),
            new_password: Some("longer still".into()),
            ..Default::default()
        };
        let changed = w.desk().change(&me, &changes).await.expect("changed");
        let token = changed.token.expect("a new session");
        let sessions = w.store.data.borrow().sessions.clone();
        assert_eq!(sessions, [(token_hash(&token), me.clone())]);
        assert!(!sessions.iter().any(|(hash, _)| *hash == token_hash(&old.token)));
        assert_eq!(
            changed.account.pending_email, None,
            "the first address's code was withdrawn"
        );
        w.desk().login("ida", "longer still").await.expect("the new password");
    }

    #[tokio::test]
    async fn a_new_address_takes_effect_with_its_code_and_the_old_one_is_told() {
        let w = world();
        let created = w.desk().create(&ida(), CodeBy::Reply).await.expect("made");
        let me = created.account.id;
        w.desk()
            .confirm_address(&me, &created.code)
            .await
            .expect("first address");
        let changes = Changes {
            current_password: "long enough".into(),
            email: Some("new@example.org".into()),
            lang: Some("en".into()),
            ..Default::default()
        };
        let changed = w.desk().change(&me, &changes).await.expect("changed");
        assert_eq!(
            changed.account.email, "ida@example.org",
            "mail goes to the old address meanwhile"
        );
        assert_eq!(changed.account.pending_email.as_deref(), Some("new@example.org"));
        let (to, code) = w.codes().pop().expect("a code");
        assert_eq!(to, "new@example.org");
        let later = World {
            clock: FixedClock(1_000_000 + CODE_HOURS * 3600 * 1000),
            ..w
        };
        let expired = later.desk().confirm_address(&me, &code).await;
        assert_eq!(
            expired.expect_err("too late"),
            DomainError::Account(AccountError::CodeExpired)
        );
        let w = World {
            clock: FixedClock(1_000_000),
            ..later
        };
        let shown = w.desk().confirm_address(&me, &code).await.expect("in time");
        assert_eq!((shown.email.as_str(), shown.lang), ("new@example.org", Lang::En));
        let data = w.store.data.borrow();
        let (to, _, told) = data.mail.last().expect("a notice");
        assert_eq!(to, "ida@example.org");
        assert!(matches!(told, Notification::AddressChanged { email, .. } if email == "new@example.org"));
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
