//! Passwords (Argon2id) and session tokens (random; only their SHA-256 is stored).

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use rand::Rng;
use sha2::{Digest, Sha256};

/// The PHC string of a password hashed with Argon2id and a random salt.
pub fn hash_password(password: &str) -> Result<String, String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

/// Whether a password matches a stored PHC string.
pub fn verify_password(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored)
        .is_ok_and(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
}

/// A new random token (hex), given to the client once.
pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new random id (hex).
pub fn new_id() -> String {
    let bytes: [u8; 12] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The stored form of a token.
pub fn token_hash(token: &str) -> String {
    sha256_hex(token.as_bytes())
}

/// The SHA-256 digest of some bytes, in hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_hash_only() {
        let stored = hash_password("correct horse").expect("hashes");
        assert!(stored.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", &stored));
        assert!(!verify_password("wrong horse", &stored));
        assert!(!verify_password("correct horse", "not a hash"));
    }

    #[test]
    fn tokens_are_random_and_stored_hashed() {
        let a = new_token();
        let b = new_token();
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_ne!(token_hash(&a), a);
        assert_eq!(token_hash(&a), token_hash(&a));
    }
}
