//! Rate limits: failed log-ins per account and source, counted in the database (so that every
//! process counts them alike: the web and API of each `serve`, its SMTP listener, and each
//! `mail ingest`, which is a process of its own per mail), and order submissions per account
//! (in memory, per process).
//!
//! Log-ins: an attempt is refused before its password is checked (429 `rate_limited`; in mail a
//! refusal line) when the name tried had, within [`FailureCaps::source_window_ms`] (15 minutes),
//! [`FailureCaps::per_source`] (10) failures from the same source — the client's IP address on
//! the web and the API, the sender's address in mail — or, within
//! [`FailureCaps::account_window_ms`] (an hour), [`FailureCaps::per_account`] (30) failures from
//! all sources together, against guessing spread over many addresses. So a mail sender and a
//! browser are separate sources: failures by mail refuse further mail from that address, while
//! the same account on the web is refused only by its own failures there or by the cap over all
//! sources. That cap lets somebody who guesses from many addresses lock the account out for up
//! to an hour; without it, guesses would be limited per address only. An attempt is counted
//! before its password is checked and taken back when it was right, so attempts made at once
//! cannot together pass a cap; successful log-ins and refused attempts are not counted (a
//! refusal ends when the oldest failure of its window ages out). A failure is counted for the name tried, whether or not an account has it, so the
//! answers do not tell which names exist.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::domain::{DomainError, Limited};
use crate::sql::limits as counted;
use crate::store::{Store, now_ms};

/// Beyond this many tracked keys, keys whose limit has fully recovered are forgotten.
const PRUNE_ABOVE: usize = 10_000;

/// Where a log-in attempt comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A web or API client, by its IP address (counted per IPv6 /64: see
    /// [`crate::client_address::counted_network`]).
    Client(IpAddr),
    /// A mail, by its sender's address (any case).
    Mail(String),
}

impl Source {
    /// The source as stored: `ip:…` or `mail:…` (lower case).
    pub(crate) fn key(&self) -> String {
        match self {
            Source::Client(ip) => format!("ip:{}", crate::client_address::counted_network(*ip)),
            Source::Mail(address) => format!("mail:{}", address.trim().to_lowercase()),
        }
    }
}

/// A log-in attempt under way: counted as a failed log-in unless [`Attempt::succeeded`] is
/// called (so an attempt whose check never ends, too, counts).
#[must_use = "an attempt counts as failed unless it is marked as succeeded"]
#[derive(Debug)]
pub struct Attempt {
    token: String,
}

impl Attempt {
    /// The password (or code) was right: the attempt is not counted.
    pub async fn succeeded(self, store: &Store) -> Result<(), DomainError> {
        self.forget(store).await
    }

    /// The password (or code) was wrong: the attempt stays counted.
    pub fn failed(self) {}

    async fn forget(&self, store: &Store) -> Result<(), DomainError> {
        Ok(counted::forget_failure(store, &self.token).await?)
    }
}

/// How many failed log-ins refuse further attempts, and over which time.
#[derive(Debug, Clone, Copy)]
pub struct FailureCaps {
    /// Failures of one name from one source ...
    pub per_source: i64,
    /// ... within this many milliseconds.
    pub source_window_ms: i64,
    /// Failures of one name from all sources together ...
    pub per_account: i64,
    /// ... within this many milliseconds.
    pub account_window_ms: i64,
}

impl Default for FailureCaps {
    fn default() -> Self {
        FailureCaps {
            per_source: 10,
            source_window_ms: 15 * 60_000,
            per_account: 30,
            account_window_ms: 60 * 60_000,
        }
    }
}

/// How many sign-ups refuse further ones: each costs a password hash and mails a code to the
/// address given, so neither a client nor an address may ask for many.
#[derive(Debug, Clone, Copy)]
pub struct SignUpCaps {
    /// Sign-ups from one source (client address, mail sender) ...
    pub per_source: i64,
    /// ... within this many milliseconds.
    pub source_window_ms: i64,
    /// Sign-ups for one e-mail address, from anywhere ...
    pub per_address: i64,
    /// ... within this many milliseconds.
    pub address_window_ms: i64,
}

impl Default for SignUpCaps {
    fn default() -> Self {
        SignUpCaps {
            per_source: 5,
            source_window_ms: 60 * 60_000,
            per_address: 3,
            address_window_ms: 24 * 60 * 60_000,
        }
    }
}

/// The service's rate limits.
#[derive(Clone)]
pub struct Limits {
    failures: FailureCaps,
    sign_ups: SignUpCaps,
    orders: Arc<DefaultKeyedRateLimiter<String>>,
    echoes: Arc<DefaultKeyedRateLimiter<String>>,
}

/// The allowances.
#[derive(Debug, Clone, Copy)]
pub struct LimitSettings {
    /// Order submissions per account and minute (the burst is the same number).
    pub orders_per_minute: u32,
    /// Live echoes of orders being typed, per account (the page asks after each pause in typing).
    pub echoes_per_minute: u32,
    /// Failed log-ins that refuse further attempts.
    pub login_failures: FailureCaps,
    /// New accounts that refuse further sign-ups.
    pub sign_ups: SignUpCaps,
}

impl Default for LimitSettings {
    fn default() -> Self {
        LimitSettings {
            orders_per_minute: 60,
            echoes_per_minute: 120,
            login_failures: FailureCaps::default(),
            sign_ups: SignUpCaps::default(),
        }
    }
}

fn quota(per_minute: u32) -> Quota {
    Quota::per_minute(NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN))
}

/// The refusal of an attempt counted already: `count` attempts (this one included) since
/// `now - window`, the oldest at `oldest`; None while `count` is within `cap`. The wait ends
/// when the oldest ages out of the window.
fn over_cap(
    what: Limited,
    (count, oldest): (i64, Option<i64>),
    cap: i64,
    window: i64,
    now: i64,
) -> Option<DomainError> {
    (count > cap).then(|| DomainError::RateLimited {
        what,
        wait_ms: oldest.map_or(window, |oldest| oldest + window - now).max(0),
    })
}

/// Counts one `what` of `account` in an in-memory limiter; an error when there were too many.
fn per_account(limiter: &DefaultKeyedRateLimiter<String>, account: &str, what: Limited) -> Result<(), DomainError> {
    if limiter.len() > PRUNE_ABOVE {
        limiter.retain_recent();
    }
    limiter.check_key(&account.to_string()).map_err(|not_until| {
        let wait = not_until.wait_time_from(DefaultClock::default().now());
        DomainError::RateLimited {
            what,
            wait_ms: wait.as_millis() as i64,
        }
    })
}

impl Limits {
    /// Limits with the given allowances.
    pub fn new(settings: LimitSettings) -> Limits {
        Limits {
            failures: settings.login_failures,
            sign_ups: settings.sign_ups,
            orders: Arc::new(RateLimiter::keyed(quota(settings.orders_per_minute))),
            echoes: Arc::new(RateLimiter::keyed(quota(settings.echoes_per_minute))),
        }
    }

    /// Starts a log-in attempt for the name whose key is `account_key` (see
    /// [`crate::names::name_key`]) from `source`, to be made before the password is checked: the
    /// attempt is counted as a failure at once, and refused (and not counted) when it would
    /// exceed a cap (see the module's description). Counting first means attempts made at the
    /// same moment cannot together pass a cap. [`Attempt::succeeded`] takes it back.
    pub async fn login_attempt(
        &self,
        store: &Store,
        account_key: &str,
        source: &Source,
    ) -> Result<Attempt, DomainError> {
        let caps = self.failures;
        let now = now_ms();
        counted::prune_failures(store, now - caps.source_window_ms.max(caps.account_window_ms)).await?;
        let attempt = Attempt {
            token: crate::auth::new_id(),
        };
        counted::add_failure(store, account_key, &source.key(), now, &attempt.token).await?;
        let checks = [
            (Some(source.key()), caps.per_source, caps.source_window_ms),
            (None, caps.per_account, caps.account_window_ms),
        ];
        for (source, cap, window) in checks {
            let count = counted::failures(store, account_key, source.as_deref(), now - window).await?;
            if let Some(refusal) = over_cap(Limited::LogIns, count, cap, window, now) {
                attempt.forget(store).await?;
                return Err(refusal);
            }
        }
        Ok(attempt)
    }

    /// Checks a secret (password, code) for the name whose key is `account_key`, tried from
    /// `source`, as one log-in attempt ([`Limits::login_attempt`]): refused when there were too
    /// many failures, else whether `check` found it right (a wrong one stays counted).
    pub async fn check_secret(
        &self,
        store: &Store,
        account_key: &str,
        source: &Source,
        check: impl std::future::Future<Output = bool>,
    ) -> Result<bool, DomainError> {
        let attempt = self.login_attempt(store, account_key, source).await?;
        if !check.await {
            attempt.failed();
            return Ok(false);
        }
        attempt.succeeded(store).await?;
        Ok(true)
    }

    /// Counts a sign-up from `source` for the address `email`, to be asked before its password
    /// is hashed; refused (and not counted) beyond the caps of [`SignUpCaps`]. Counted first, as
    /// log-in attempts are, so that sign-ups at the same moment cannot together pass a cap.
    pub async fn sign_up(&self, store: &Store, source: &Source, email: &str) -> Result<(), DomainError> {
        let caps = self.sign_ups;
        let now = now_ms();
        counted::prune_sign_ups(store, now - caps.source_window_ms.max(caps.address_window_ms)).await?;
        let (token, address) = (crate::auth::new_id(), email.trim().to_lowercase());
        counted::add_sign_up(store, &source.key(), &address, now, &token).await?;
        let checks = [
            (
                counted::SignUpsOf::Source(&source.key()),
                caps.per_source,
                caps.source_window_ms,
            ),
            (
                counted::SignUpsOf::Address(&address),
                caps.per_address,
                caps.address_window_ms,
            ),
        ];
        for (of, cap, window) in checks {
            let count = counted::sign_ups(store, of, now - window).await?;
            if let Some(refusal) = over_cap(Limited::SignUps, count, cap, window, now) {
                counted::forget_sign_up(store, &token).await?;
                return Err(refusal);
            }
        }
        Ok(())
    }

    /// Counts an order submission by `account`; an error when there were too many.
    pub fn orders(&self, account: &str) -> Result<(), DomainError> {
        per_account(&self.orders, account, Limited::Orders)
    }

    /// Counts a live echo of orders for `account`; an error when there were too many.
    pub fn echo(&self, account: &str) -> Result<(), DomainError> {
        per_account(&self.echoes, account, Limited::Echoes)
    }
}

/// The rate limits of one request's source, as the use cases see them.
pub struct SourceGate<'a> {
    /// The service's limits.
    pub limits: &'a Limits,
    /// Where failures and sign-ups are counted.
    pub store: &'a Store,
    /// Where the request comes from.
    pub source: Source,
}

impl crate::app::ports::Gate for SourceGate<'_> {
    async fn check_secret(
        &self,
        key: &str,
        right: impl std::future::Future<Output = bool>,
    ) -> Result<bool, DomainError> {
        self.limits.check_secret(self.store, key, &self.source, right).await
    }

    async fn sign_up(&self, email: &str) -> Result<(), DomainError> {
        self.limits.sign_up(self.store, &self.source, email).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_submissions_run_out_per_account() {
        let limits = Limits::new(LimitSettings {
            orders_per_minute: 2,
            echoes_per_minute: 1,
            ..Default::default()
        });
        assert!(limits.orders("a").is_ok() && limits.orders("a").is_ok());
        let error = limits.orders("a").expect_err("a third is refused");
        assert!(
            matches!(
                error,
                DomainError::RateLimited {
                    what: Limited::Orders,
                    ..
                }
            ),
            "{error:?}"
        );
        assert!(limits.orders("b").is_ok());
        assert!(
            limits.echo("a").is_ok() && limits.echo("a").is_err(),
            "echoes are counted apart"
        );
    }

    #[tokio::test]
    async fn failed_log_ins_refuse_per_source_and_over_all_sources() {
        let store = Store::open("sqlite::memory:").await.expect("a database");
        let limits = Limits::new(LimitSettings {
            login_failures: FailureCaps {
                per_source: 3,
                source_window_ms: 60_000,
                per_account: 5,
                account_window_ms: 120_000,
            },
            ..Default::default()
        });
        let here = Source::Client([127, 0, 0, 1].into());
        let there = Source::Mail("Anna@Example.org".into());
        let mail = Source::Mail("anna@example.org ".into());
        let attempt = |source: Source| {
            let (limits, store) = (&limits, &store);
            async move { limits.login_attempt(store, "anna", &source).await }
        };
        for _ in 0..3 {
            attempt(here.clone()).await.expect("allowed").failed();
        }
        let error = attempt(here.clone()).await.expect_err("a fourth is refused");
        assert!(
            matches!(
                error,
                DomainError::RateLimited {
                    what: Limited::LogIns,
                    ..
                }
            ),
            "{error:?}"
        );
        let bert = limits.login_attempt(&store, "bert", &here).await;
        bert.expect("another name").succeeded(&store).await.expect("forgotten");
        attempt(there.clone()).await.expect("another source").failed();
        attempt(mail.clone()).await.expect("4 of 5").failed();
        // Five over all sources: a third source is refused too.
        let third = Source::Client([10, 0, 0, 1].into());
        assert!(attempt(third.clone()).await.is_err());
        // Failures older than the windows no longer count, and are forgotten.
        counted::age_failures(&store, 130_000).await.expect("aged");
        attempt(here.clone()).await.expect("allowed again").failed();
        let left = counted::failures(&store, "anna", None, 0).await.expect("counted").0;
        let others = counted::failures(&store, "bert", None, 0).await.expect("counted").0;
        assert_eq!((left, others), (1, 0), "only the last failure is kept");
    }

    #[tokio::test]
    async fn attempts_made_at_once_cannot_pass_the_cap_together() {
        let store = Store::open("sqlite::memory:").await.expect("a database");
        let limits = Limits::new(LimitSettings {
            login_failures: FailureCaps {
                per_source: 2,
                ..Default::default()
            },
            ..Default::default()
        });
        let here = Source::Client([127, 0, 0, 1].into());
        // Ten attempts under way at once (none has had its password checked yet).
        let mut allowed = Vec::new();
        for _ in 0..10 {
            if let Ok(attempt) = limits.login_attempt(&store, "anna", &here).await {
                allowed.push(attempt);
            }
        }
        assert_eq!(allowed.len(), 2, "no more attempts than the cap are under way");
        // One right password takes its attempt back: one more may be tried.
        allowed.pop().expect("one").succeeded(&store).await.expect("taken back");
        limits
            .login_attempt(&store, "anna", &here)
            .await
            .expect("room for one")
            .failed();
        assert!(limits.login_attempt(&store, "anna", &here).await.is_err());
    }
}
