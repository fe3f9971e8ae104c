//! Random tokens, their stored hashes, and the HMAC that binds a magic link
//! to its purpose.
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

/// 32 random bytes from the operating system, URL-safe base64 (43 chars).
pub fn random_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

/// What the database stores instead of a token.
pub fn hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// The secret that signs magic links; from `MAXY_SECRET_KEY`.
#[derive(Clone)]
pub struct SigningKey(Vec<u8>);

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SigningKey(***)")
    }
}

impl SigningKey {
    pub fn new(bytes: Vec<u8>) -> Self {
        SigningKey(bytes)
    }

    /// A fresh key (links signed with it die with the process).
    pub fn random() -> Result<Self, getrandom::Error> {
        let mut bytes = vec![0u8; 32];
        getrandom::fill(&mut bytes)?;
        Ok(SigningKey(bytes))
    }

    fn mac(&self, purpose: &str, secret: &str) -> Hmac<Sha256> {
        // HMAC accepts keys of any length: this cannot fail.
        let mut mac =
            <Hmac<Sha256> as Mac>::new_from_slice(&self.0).unwrap_or_else(|_| unreachable!());
        mac.update(purpose.as_bytes());
        mac.update(b"\0");
        mac.update(secret.as_bytes());
        mac
    }

    /// `<secret>.<signature>`: the signature binds the secret to `purpose`.
    pub fn sign(&self, purpose: &str, secret: &str) -> String {
        let tag = self.mac(purpose, secret).finalize().into_bytes();
        format!("{secret}.{}", URL_SAFE_NO_PAD.encode(&tag[..16]))
    }

    /// Whether `token` was signed by this key for `purpose` (constant-time).
    pub fn verify(&self, purpose: &str, token: &str) -> bool {
        let Some((secret, signature)) = token.split_once('.') else {
            return false;
        };
        let Ok(tag) = URL_SAFE_NO_PAD.decode(signature) else {
            return false;
        };
        tag.len() == 16
            && self
                .mac(purpose, secret)
                .verify_truncated_left(&tag)
                .is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_url_safe() {
        let (a, b) = (random_token().unwrap(), random_token().unwrap());
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        assert!(a
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    }

    #[test]
    fn a_signature_binds_token_purpose_and_key() {
        let key = SigningKey::new(b"k".repeat(32));
        let token = key.sign("catalogue", "abc");
        assert!(key.verify("catalogue", &token));
        assert!(!key.verify("availability", &token), "wrong purpose");
        assert!(
            !SigningKey::new(b"x".repeat(32)).verify("catalogue", &token),
            "wrong key"
        );
        let tampered = token.replacen("abc", "abd", 1);
        assert!(!key.verify("catalogue", &tampered), "tampered secret");
        assert!(!key.verify("catalogue", "abc"), "no signature");
        assert!(!key.verify("catalogue", "abc.!!!"), "garbage signature");
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_strings_never_verify(s in ".*") {
            let key = SigningKey::new(b"k".repeat(32));
            proptest::prop_assert!(!key.verify("catalogue", &s) || s == key.sign("catalogue", s.split('.').next().unwrap_or_default()));
        }
    }
}
