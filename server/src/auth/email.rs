//! The one normalisation of an e-mail address: what the rate limits key on,
//! what sign-in looks up, and what `maxy user create` stores.
//!
//! It is done here, in Rust, and the database compares with `=`: PostgreSQL's
//! `lower()` follows the database's collation and disagrees with Rust on some
//! letters (`İ` is `i` for one and `i̇` for the other), and two normalisations
//! would let `admİn@…` reach `admin@…`'s account under another limit key.
//! Accounts are created with ASCII addresses only ([`is_storable`]), where
//! every lower-casing agrees.

/// The longest address accepted (RFC 5321's limit for a whole path).
pub const MAX_CHARS: usize = 254;

/// Trimmed and lower-cased (Unicode rules, so the result is the same on every
/// machine).
pub fn normalize(raw: &str) -> String {
    raw.trim().to_lowercase()
}

/// Whether `normalized` may be stored as an account's address: ASCII, one `@`
/// with something on both sides, no spaces, not too long.
pub fn is_storable(normalized: &str) -> bool {
    let Some((local, domain)) = normalized.split_once('@') else {
        return false;
    };
    normalized.len() <= MAX_CHARS
        && normalized.is_ascii()
        && !local.is_empty()
        && !domain.is_empty()
        && !domain.contains('@')
        && !normalized
            .chars()
            .any(|c| c.is_ascii_whitespace() || c.is_ascii_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_normalisation_for_keys_and_lookups() {
        assert_eq!(
            normalize("  Camille.Martin@Reciprok.FR\n"),
            "camille.martin@reciprok.fr"
        );
        // Not `admin@…`: a dotted capital I does not fold onto a plain i.
        let dotted = normalize("admİn@reciprok.fr");
        assert_ne!(dotted, "admin@reciprok.fr");
        assert!(!is_storable(&dotted));
        // The Kelvin sign folds to k on every machine alike.
        assert_eq!(normalize("\u{212A}@x.fr"), "k@x.fr");
    }

    #[test]
    fn only_plain_addresses_are_stored() {
        assert!(is_storable("boss@example.org"));
        for bad in ["", "boss", "@x.fr", "boss@", "a@b@c", "a b@x.fr", "é@x.fr"] {
            assert!(!is_storable(bad), "{bad:?}");
        }
        assert!(!is_storable(&format!("{}@x.fr", "a".repeat(250))));
    }
}
