//! Sign-in, sessions and magic links.
use super::{ConfigError, Env};
use std::time::Duration;

#[derive(Clone)]
pub struct AuthSettings {
    /// Signs magic links. `None`: a random key per process (links die with it).
    pub secret_key: Option<Vec<u8>>,
    /// The address users reach the app at, e.g. `https://maxy.example.org`:
    /// cookies get `Secure` when it is https, and links are built on it.
    pub public_url: Option<String>,
    pub session_ttl: Duration,
    pub link_ttl: Duration,
}

impl std::fmt::Debug for AuthSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthSettings")
            .field("secret_key", &self.secret_key.as_ref().map(|_| "***"))
            .field("public_url", &self.public_url)
            .field("session_ttl", &self.session_ttl)
            .field("link_ttl", &self.link_ttl)
            .finish()
    }
}

const MIN_SECRET_CHARS: usize = 32;

impl AuthSettings {
    pub fn from_source(env: &Env) -> Result<Self, ConfigError> {
        let secret_key = match env.raw("MAXY_SECRET_KEY")? {
            Some(key) if key.len() >= MIN_SECRET_CHARS => Some(key.as_bytes().to_vec()),
            Some(_) => {
                return Err(ConfigError::Invalid {
                    var: "MAXY_SECRET_KEY".into(),
                    expected: format!("at least {MIN_SECRET_CHARS} characters"),
                    // Never echo a secret, even a bad one.
                    got: "(hidden)".into(),
                });
            }
            None => None,
        };
        let public_url = match env.raw("MAXY_PUBLIC_URL")? {
            Some(_) => Some(
                env.url("MAXY_PUBLIC_URL", "", &["http", "https"])?
                    .trim_end_matches('/')
                    .to_string(),
            ),
            None => None,
        };
        Ok(AuthSettings {
            secret_key,
            public_url,
            session_ttl: Duration::from_secs(
                3600 * env.number("MAXY_SESSION_TTL_HOURS", 168, 1..=8760)?,
            ),
            link_ttl: Duration::from_secs(86_400 * env.number("MAXY_LINK_TTL_DAYS", 30, 1..=365)?),
        })
    }

    /// Whether cookies must carry `Secure` (the app is served over TLS).
    pub fn secure_cookies(&self) -> bool {
        self.public_url
            .as_deref()
            .is_some_and(|u| u.starts_with("https://"))
    }
}
