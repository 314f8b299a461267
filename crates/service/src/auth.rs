//! Passwords (Argon2id), session tokens and confirmation codes (random; only their SHA-256 is
//! stored).

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

/// The passwords this process checked against the dummy hash (tests see that an unknown name is
/// checked as long as a known one; each test looks for a password of its own, so tests running
/// at the same time do not disturb each other).
#[cfg(test)]
pub(crate) static DUMMY_CHECKS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// How often `password` was checked against the dummy hash.
#[cfg(test)]
pub(crate) fn dummy_checks_of(password: &str) -> usize {
    let checked = DUMMY_CHECKS.lock().unwrap_or_else(|e| e.into_inner());
    checked.iter().filter(|p| *p == password).count()
}

/// The hash of a random password made with the same cost as every new hash, once per process.
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    // Should hashing fail (it does not with the defaults), the check below fails at once.
    DUMMY.get_or_init(|| hash_password(&new_token()).unwrap_or_default())
}

/// Whether a password matches the stored PHC string of an account; without one (no account has
/// the name tried), the password is checked against a dummy hash of the same cost and does not
/// match, so that the time a log-in takes does not tell whether the name exists.
pub fn verify_or_dummy(password: &str, stored: Option<&str>) -> bool {
    match stored {
        Some(stored) => verify_password(password, stored),
        None => {
            #[cfg(test)]
            DUMMY_CHECKS
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(password.to_string());
            let _ = verify_password(password, dummy_hash());
            false
        }
    }
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

/// The letters of a confirmation code: no 0/O, 1/I/L, so that it can be typed from a mail.
const CODE_LETTERS: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// A new random confirmation code to be typed by hand: eight letters as `ABCD-EFGH`.
pub fn new_code() -> String {
    let mut rng = rand::rng();
    let mut code = String::with_capacity(9);
    for i in 0..8 {
        if i == 4 {
            code.push('-');
        }
        code.push(CODE_LETTERS[rng.random_range(0..CODE_LETTERS.len())] as char);
    }
    code
}

/// The stored form of a confirmation code as typed: case, spaces and dashes do not matter.
pub fn code_hash(typed: &str) -> String {
    let letters: String = typed
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
        .collect();
    sha256_hex(letters.as_bytes())
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
    fn an_unknown_name_is_checked_against_a_dummy_hash_of_the_same_cost() {
        let dummy = dummy_hash();
        assert!(dummy.starts_with("$argon2id$"), "{dummy}");
        let real = hash_password("correct horse").expect("hashes");
        let params = |h: &str| h.split('$').nth(3).map(str::to_string);
        assert_eq!(params(dummy), params(&real), "the same cost parameters");
        assert!(std::ptr::eq(dummy, dummy_hash()), "made once");
        assert!(verify_or_dummy("correct horse", Some(&real)));
        assert!(!verify_or_dummy("correct horse", None));
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

    #[test]
    fn codes_are_random_and_read_regardless_of_case_and_dashes() {
        let a = new_code();
        assert_eq!(a.len(), 9);
        assert_eq!(a.as_bytes()[4], b'-');
        assert!(
            a.chars()
                .filter(|&c| c != '-')
                .all(|c| CODE_LETTERS.contains(&(c as u8)))
        );
        assert_ne!(a, new_code());
        let typed = format!(" {} ", a.replace('-', " ").to_lowercase());
        assert_eq!(code_hash(&typed), code_hash(&a));
        assert_ne!(code_hash("ABCD-EFGH"), code_hash("ABCD-EFGJ"));
    }
}
