//! The fake's account store, and fakes of the gate (failures counted per name, sign-ups per
//! address) and of password hashing (no Argon2: the tests stay fast).

use std::cell::RefCell;

use spielleiter_engine::report::Lang;

use super::{FakeStore, FakeUnit};
use crate::app::ports::{AccountStore, AccountUnit, Gate, Passwords};
use crate::domain::account::{Account, PendingAddress};
use crate::domain::{DomainError, Limited, Notification};

impl AccountStore for FakeStore {
    type Unit<'a> = FakeUnit<'a>;

    async fn begin_accounts(&self) -> Result<FakeUnit<'_>, DomainError> {
        Ok(FakeUnit {
            store: self,
            data: self.data.borrow().clone(),
        })
    }
}

impl FakeUnit<'_> {
    fn account_mut(&mut self, id: &str) -> Option<&mut Account> {
        self.data.accounts.get_mut(id)
    }
}

impl AccountUnit for FakeUnit<'_> {
    async fn account(&mut self, id: &str) -> Result<Option<Account>, DomainError> {
        Ok(self.data.accounts.get(id).cloned())
    }

    async fn account_by_name(&mut self, name: &str) -> Result<Option<Account>, DomainError> {
        let key = crate::names::name_key(name);
        let all = self.data.accounts.values();
        let exact = all.clone().find(|a| a.name == name.trim());
        Ok(exact.or_else(|| all.clone().find(|a| a.name_key == key)).cloned())
    }

    async fn name_key_taken(&mut self, key: &str) -> Result<bool, DomainError> {
        Ok(self.data.accounts.values().any(|a| a.name_key == key))
    }

    async fn insert_account(&mut self, account: &Account, _created_ms: i64) -> Result<bool, DomainError> {
        if self.name_key_taken(&account.name_key).await? {
            return Ok(false);
        }
        self.data.accounts.insert(account.id.clone(), account.clone());
        Ok(true)
    }

    async fn update_account(
        &mut self,
        id: &str,
        lang: Option<Lang>,
        hash: Option<&str>,
        if_hash: &str,
    ) -> Result<bool, DomainError> {
        let Some(a) = self.account_mut(id).filter(|a| a.password_hash == if_hash) else {
            return Ok(false);
        };
        a.lang = lang.unwrap_or(a.lang);
        a.password_hash = hash.unwrap_or(&a.password_hash).to_string();
        Ok(true)
    }

    async fn set_pending(&mut self, id: &str, pending: Option<&PendingAddress>) -> Result<(), DomainError> {
        if let Some(a) = self.account_mut(id) {
            a.pending = pending.cloned();
        }
        Ok(())
    }

    async fn confirm_pending(&mut self, id: &str, code_hash: &str, _now_ms: i64) -> Result<bool, DomainError> {
        let Some(a) = self.account_mut(id) else {
            return Ok(false);
        };
        match a.pending.take() {
            Some(p) if p.code_hash == code_hash => {
                (a.email, a.email_confirmed) = (p.email, true);
                Ok(true)
            }
            other => {
                a.pending = other;
                Ok(false)
            }
        }
    }

    async fn end_sessions(&mut self, id: &str) -> Result<(), DomainError> {
        self.data.sessions.retain(|(_, account)| account != id);
        Ok(())
    }

    async fn open_session(&mut self, id: &str, token_hash: &str, _now: i64, _expires: i64) -> Result<(), DomainError> {
        self.data.sessions.push((token_hash.to_string(), id.to_string()));
        Ok(())
    }

    async fn mail_address(
        &mut self,
        _name: &str,
        email: &str,
        n: &Notification,
        lang: Lang,
    ) -> Result<(), DomainError> {
        self.data.mail.push((email.to_string(), lang, n.clone()));
        Ok(())
    }
}

/// A gate that refuses a name's secrets after `cap` failures and an address's sign-ups after
/// `cap` sign-ups.
#[derive(Debug, Default)]
pub(crate) struct FakeGate {
    /// How many of each are allowed.
    pub(crate) cap: usize,
    /// The names whose secret was tried wrongly, once per failure.
    pub(crate) failures: RefCell<Vec<String>>,
    /// The addresses signed up for.
    pub(crate) sign_ups: RefCell<Vec<String>>,
}

impl Gate for FakeGate {
    async fn check_secret(&self, key: &str, right: impl Future<Output = bool>) -> Result<bool, DomainError> {
        if self.failures.borrow().iter().filter(|k| *k == key).count() >= self.cap {
            return Err(DomainError::RateLimited {
                what: Limited::LogIns,
                wait_ms: 1000,
            });
        }
        let right = right.await;
        if !right {
            self.failures.borrow_mut().push(key.to_string());
        }
        Ok(right)
    }

    async fn sign_up(&self, email: &str) -> Result<(), DomainError> {
        let email = email.trim().to_lowercase();
        if self.sign_ups.borrow().iter().filter(|e| **e == email).count() >= self.cap {
            return Err(DomainError::RateLimited {
                what: Limited::SignUps,
                wait_ms: 1000,
            });
        }
        self.sign_ups.borrow_mut().push(email);
        Ok(())
    }
}

/// Passwords "hashed" by a prefix, and the checks made without a stored hash (unknown names).
#[derive(Debug, Default)]
pub(crate) struct FakePasswords {
    /// The passwords checked against no hash.
    pub(crate) dummy_checks: RefCell<Vec<String>>,
}

impl Passwords for FakePasswords {
    async fn hash(&self, password: &str) -> Result<String, DomainError> {
        Ok(format!("hash:{password}"))
    }

    async fn matches(&self, password: &str, stored: Option<&str>) -> bool {
        match stored {
            Some(stored) => stored == format!("hash:{password}"),
            None => {
                self.dummy_checks.borrow_mut().push(password.to_string());
                false
            }
        }
    }
}
