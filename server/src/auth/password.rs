//! Password hashing with argon2id (PHC strings), off the async workers.
use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;
use std::sync::OnceLock;

/// The shortest password accepted when one is set.
pub const MIN_LENGTH: usize = 12;

#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    #[error("the password must have at least {MIN_LENGTH} characters")]
    TooShort,
    #[error("cannot hash the password: {0}")]
    Hash(String),
}

/// Hashes `password` with a fresh random salt (argon2id, default parameters).
pub fn hash(password: &str) -> Result<String, PasswordError> {
    if password.chars().count() < MIN_LENGTH {
        return Err(PasswordError::TooShort);
    }
    hash_with_salt(password, &SaltString::generate(&mut OsRng))
}

/// Hashes with a given salt: only for deterministic demo data.
pub fn hash_with_salt(password: &str, salt: &SaltString) -> Result<String, PasswordError> {
    Argon2::default()
        .hash_password(password.as_bytes(), salt)
        .map(|h| h.to_string())
        .map_err(|e| PasswordError::Hash(e.to_string()))
}

/// Whether `password` matches `stored`. A missing or malformed hash still
/// costs one full verification, so timing does not tell whether an account
/// exists or has a password.
pub fn verify(password: &str, stored: Option<&str>) -> bool {
    let parsed = stored.and_then(|s| PasswordHash::new(s).ok());
    match parsed {
        Some(hash) => Argon2::default()
            .verify_password(password.as_bytes(), &hash)
            .is_ok(),
        None => {
            if let Some(Ok(dummy)) = dummy_hash().as_deref().map(PasswordHash::new) {
                let _ = Argon2::default().verify_password(password.as_bytes(), &dummy);
            }
            false
        }
    }
}

/// A hash nobody knows the password of, computed once.
fn dummy_hash() -> &'static Option<String> {
    static DUMMY: OnceLock<Option<String>> = OnceLock::new();
    DUMMY.get_or_init(|| {
        hash_with_salt(
            "no account has this password",
            &SaltString::generate(&mut OsRng),
        )
        .ok()
    })
}

/// [`verify`] on a blocking thread (argon2 takes tens of milliseconds of CPU).
pub async fn verify_async(password: String, stored: Option<String>) -> bool {
    tokio::task::spawn_blocking(move || verify(&password, stored.as_deref()))
        .await
        .unwrap_or(false)
}

/// [`hash`] on a blocking thread.
pub async fn hash_async(password: String) -> Result<String, PasswordError> {
    tokio::task::spawn_blocking(move || hash(&password))
        .await
        .map_err(|e| PasswordError::Hash(e.to_string()))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_password_only() {
        let h = hash("correct horse battery").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify("correct horse battery", Some(&h)));
        assert!(!verify("correct horse batterY", Some(&h)));
        assert!(!verify("", Some(&h)));
    }

    #[test]
    fn missing_or_broken_hashes_never_verify() {
        assert!(!verify("anything at all", None));
        assert!(!verify("anything at all", Some("not a phc string")));
    }

    #[test]
    fn short_passwords_are_refused() {
        assert!(matches!(hash("short"), Err(PasswordError::TooShort)));
    }
}
