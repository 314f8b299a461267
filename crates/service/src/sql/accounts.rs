//! The account store on SQL: accounts read by column name into checked domain values, their
//! sessions, and mail to their addresses through the outbox.

use spielleiter_engine::report::Lang;
use sqlx::Row;

use super::{SqlUnit, games::unreadable, inserted, outbox};
use crate::app::ports::{AccountStore, AccountUnit};
use crate::domain::account::{Account, PendingAddress, checked_lang};
use crate::domain::{DomainError, Notification};
use crate::store::Store;

/// `SELECT` of the columns an [`Account`] is read from, then the rest of the query.
macro_rules! select_account {
    ($rest:literal) => {
        concat!(
            "SELECT id, name, name_key, email, password_hash, lang, email_confirmed_ms, pending_email, ",
            "pending_code_hash, pending_expires_ms FROM accounts ",
            $rest
        )
    };
}

/// An `accounts` row as an account; a language or waiting address that cannot be read is an
/// error.
fn account_of(r: &sqlx::any::AnyRow) -> Result<Account, DomainError> {
    let lang: String = r.try_get("lang")?;
    let pending = match (
        r.try_get::<Option<String>, _>("pending_email")?,
        r.try_get::<Option<String>, _>("pending_code_hash")?,
        r.try_get::<Option<i64>, _>("pending_expires_ms")?,
    ) {
        (Some(email), Some(code_hash), Some(expires_ms)) => Some(PendingAddress {
            email,
            code_hash,
            expires_ms,
        }),
        (None, None, None) => None,
        _ => return Err(unreadable("an account's waiting address", "columns set in part")),
    };
    Ok(Account {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        name_key: r.try_get("name_key")?,
        email: r.try_get("email")?,
        password_hash: r.try_get("password_hash")?,
        lang: checked_lang(&lang).map_err(|_| unreadable("an account's language", &lang))?,
        email_confirmed: r.try_get::<Option<i64>, _>("email_confirmed_ms")?.is_some(),
        pending,
    })
}

impl AccountStore for Store {
    type Unit<'a> = SqlUnit;

    async fn begin_accounts(&self) -> Result<SqlUnit, DomainError> {
        Ok(SqlUnit::begin(self).await?)
    }
}

impl AccountUnit for SqlUnit {
    async fn account(&mut self, id: &str) -> Result<Option<Account>, DomainError> {
        let row = sqlx::query(select_account!("WHERE id = $1"))
            .bind(id)
            .fetch_optional(&mut *self.tx)
            .await?;
        row.as_ref().map(account_of).transpose()
    }

    async fn account_by_name(&mut self, name: &str) -> Result<Option<Account>, DomainError> {
        let row = sqlx::query(select_account!(
            "WHERE name_key = $1 OR name = $2 ORDER BY CASE WHEN name = $2 THEN 0 ELSE 1 END LIMIT 1"
        ))
        .bind(crate::names::name_key(name))
        .bind(name.trim())
        .fetch_optional(&mut *self.tx)
        .await?;
        row.as_ref().map(account_of).transpose()
    }

    async fn name_key_taken(&mut self, key: &str) -> Result<bool, DomainError> {
        let row = sqlx::query("SELECT id FROM accounts WHERE name_key = $1")
            .bind(key)
            .fetch_optional(&mut *self.tx)
            .await?;
        Ok(row.is_some())
    }

    async fn insert_account(&mut self, a: &Account, created_ms: i64) -> Result<bool, DomainError> {
        let pending = a.pending.as_ref();
        inserted(
            sqlx::query(
                "INSERT INTO accounts (id, name, name_key, email, password_hash, created_ms, lang, pending_email, \
                 pending_code_hash, pending_expires_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            )
            .bind(&a.id)
            .bind(&a.name)
            .bind(&a.name_key)
            .bind(&a.email)
            .bind(&a.password_hash)
            .bind(created_ms)
            .bind(a.lang.code())
            .bind(pending.map(|p| p.email.as_str()))
            .bind(pending.map(|p| p.code_hash.as_str()))
            .bind(pending.map(|p| p.expires_ms))
            .execute(&mut *self.tx)
            .await,
        )
    }

    async fn update_account(
        &mut self,
        id: &str,
        lang: Option<Lang>,
        hash: Option<&str>,
        if_hash: &str,
    ) -> Result<bool, DomainError> {
        let changed = sqlx::query(
            "UPDATE accounts SET lang = COALESCE($1, lang), password_hash = COALESCE($2, password_hash) \
             WHERE id = $3 AND password_hash = $4",
        )
        .bind(lang.map(Lang::code))
        .bind(hash)
        .bind(id)
        .bind(if_hash)
        .execute(&mut *self.tx)
        .await?;
        Ok(changed.rows_affected() > 0)
    }

    async fn set_pending(&mut self, id: &str, pending: Option<&PendingAddress>) -> Result<(), DomainError> {
        sqlx::query(
            "UPDATE accounts SET pending_email = $1, pending_code_hash = $2, pending_expires_ms = $3 WHERE id = $4",
        )
        .bind(pending.map(|p| p.email.as_str()))
        .bind(pending.map(|p| p.code_hash.as_str()))
        .bind(pending.map(|p| p.expires_ms))
        .bind(id)
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    async fn confirm_pending(&mut self, id: &str, code_hash: &str, now_ms: i64) -> Result<bool, DomainError> {
        let changed = sqlx::query(
            "UPDATE accounts SET email = pending_email, email_confirmed_ms = $3, pending_email = NULL, \
             pending_code_hash = NULL, pending_expires_ms = NULL WHERE id = $1 AND pending_code_hash = $2",
        )
        .bind(id)
        .bind(code_hash)
        .bind(now_ms)
        .execute(&mut *self.tx)
        .await?;
        Ok(changed.rows_affected() > 0)
    }

    async fn end_sessions(&mut self, id: &str) -> Result<(), DomainError> {
        sqlx::query("DELETE FROM sessions WHERE account_id = $1")
            .bind(id)
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }

    async fn open_session(
        &mut self,
        id: &str,
        token_hash: &str,
        now_ms: i64,
        expires_ms: i64,
    ) -> Result<(), DomainError> {
        sqlx::query("INSERT INTO sessions (token_hash, account_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)")
            .bind(token_hash)
            .bind(id)
            .bind(now_ms)
            .bind(expires_ms)
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }

    async fn mail_address(&mut self, name: &str, email: &str, n: &Notification, lang: Lang) -> Result<(), DomainError> {
        let (subject, body) = crate::i18n::notification(n, lang);
        let to = outbox::Recipient::Address { name, email };
        outbox::queue(&mut self.tx, None, to, &subject, &body, None, None).await?;
        Ok(())
    }
}
