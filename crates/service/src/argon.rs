//! The password port (`crate::app::ports::Passwords`) on Argon2id (`crate::auth`).

/// Passwords hashed and checked with Argon2id on a blocking thread (a hash takes a while).
#[derive(Debug, Clone, Copy, Default)]
pub struct Argon;

impl crate::app::ports::Passwords for Argon {
    async fn hash(&self, password: &str) -> Result<String, crate::domain::DomainError> {
        let password = password.to_string();
        tokio::task::spawn_blocking(move || crate::auth::hash_password(&password))
            .await
            .map_err(|e| e.to_string())
            .and_then(|r| r)
            .map_err(|e| {
                eprintln!("hashing a password: {e}");
                crate::domain::DomainError::Account(crate::domain::account::AccountError::UnusablePassword)
            })
    }

    async fn matches(&self, password: &str, stored: Option<&str>) -> bool {
        let (password, stored) = (password.to_string(), stored.map(str::to_string));
        tokio::task::spawn_blocking(move || crate::auth::verify_or_dummy(&password, stored.as_deref()))
            .await
            .unwrap_or(false)
    }
}
