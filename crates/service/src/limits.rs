//! Rate limits: login attempts per account name and client address (so nobody can lock another
//! player out before a deadline, while guessing stays slow), and order submissions per account.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use axum::http::StatusCode;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::ApiError;

/// Beyond this many tracked keys, keys whose limit has fully recovered are forgotten.
const PRUNE_ABOVE: usize = 10_000;

/// The service's rate limiters.
#[derive(Clone)]
pub struct Limits {
    login: Arc<DefaultKeyedRateLimiter<(String, IpAddr)>>,
    orders: Arc<DefaultKeyedRateLimiter<String>>,
    echoes: Arc<DefaultKeyedRateLimiter<String>>,
}

/// How many requests of each kind are allowed per minute (the burst is the same number).
#[derive(Debug, Clone, Copy)]
pub struct LimitSettings {
    /// Login attempts per account name and client address.
    pub logins_per_minute: u32,
    /// Order submissions per account.
    pub orders_per_minute: u32,
    /// Live echoes of orders being typed, per account (the page asks after each pause in typing).
    pub echoes_per_minute: u32,
}

impl Default for LimitSettings {
    fn default() -> Self {
        LimitSettings {
            logins_per_minute: 10,
            orders_per_minute: 60,
            echoes_per_minute: 120,
        }
    }
}

fn quota(per_minute: u32) -> Quota {
    Quota::per_minute(NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN))
}

fn check<K: std::hash::Hash + Eq + Clone>(
    limiter: &DefaultKeyedRateLimiter<K>,
    key: &K,
    what: &str,
) -> Result<(), ApiError> {
    if limiter.len() > PRUNE_ABOVE {
        limiter.retain_recent();
    }
    limiter.check_key(key).map_err(|not_until| {
        let wait = not_until.wait_time_from(DefaultClock::default().now());
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("too many {what}: try again in {} seconds", wait.as_secs() + 1),
        )
        .de(format!(
            "Zu viele Versuche: in {} Sekunden noch einmal",
            wait.as_secs() + 1
        ))
    })
}

impl Limits {
    /// Limiters with the given allowances.
    pub fn new(settings: LimitSettings) -> Limits {
        Limits {
            login: Arc::new(RateLimiter::keyed(quota(settings.logins_per_minute))),
            orders: Arc::new(RateLimiter::keyed(quota(settings.orders_per_minute))),
            echoes: Arc::new(RateLimiter::keyed(quota(settings.echoes_per_minute))),
        }
    }

    /// Counts a login attempt for `name` from `client`; an error when there were too many.
    pub fn login(&self, name: &str, client: IpAddr) -> Result<(), ApiError> {
        check(&self.login, &(name.trim().to_lowercase(), client), "login attempts")
    }

    /// Counts an order submission by `account`; an error when there were too many.
    pub fn orders(&self, account: &str) -> Result<(), ApiError> {
        check(&self.orders, &account.to_string(), "order submissions")
    }

    /// Counts a live echo of orders for `account`; an error when there were too many.
    pub fn echo(&self, account: &str) -> Result<(), ApiError> {
        check(&self.echoes, &account.to_string(), "order echoes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_allowance_runs_out_per_key() {
        let limits = Limits::new(LimitSettings {
            logins_per_minute: 3,
            orders_per_minute: 2,
            echoes_per_minute: 1,
        });
        let here: IpAddr = [127, 0, 0, 1].into();
        let there: IpAddr = [10, 0, 0, 1].into();
        for _ in 0..3 {
            assert!(limits.login("Alice", here).is_ok());
        }
        let error = limits.login("alice ", here).expect_err("a fourth attempt is refused");
        assert_eq!(
            (error.status, error.code),
            (StatusCode::TOO_MANY_REQUESTS, "rate_limited")
        );
        assert!(limits.login("alice", there).is_ok(), "another address is counted apart");
        assert!(limits.login("bob", here).is_ok(), "another name is counted apart");
        assert!(limits.orders("a").is_ok() && limits.orders("a").is_ok());
        assert!(limits.orders("a").is_err());
        assert!(limits.orders("b").is_ok());
        assert!(
            limits.echo("a").is_ok() && limits.echo("a").is_err(),
            "echoes are counted apart"
        );
    }
}
