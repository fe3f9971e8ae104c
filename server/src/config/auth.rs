//! Sign-in, sessions and magic links.
use super::{ConfigError, Env};
use ipnet::IpNet;
use std::net::IpAddr;
use std::time::Duration;

#[derive(Clone)]
pub struct AuthSettings {
    /// Signs magic links. `None`: a random key per process (links die with it).
    pub secret_key: Option<Vec<u8>>,
    /// The address users reach the app at, e.g. `https://maxy.example.org`:
    /// cookies get `Secure` when it is https, and links are built on it.
    pub public_url: Option<String>,
    /// A session ends after this long without use (sliding).
    pub session_ttl: Duration,
    /// A session ends this long after sign-in, used or not.
    pub session_max_age: Duration,
    pub link_ttl: Duration,
    /// Peers whose `X-Forwarded-For` is believed (reverse proxies, load
    /// balancers). Empty: the socket's peer is the client.
    pub trusted_proxies: Vec<IpNet>,
    /// Clients that may read `/metrics` (`MAXY_METRICS_ALLOW`; loopback by
    /// default, empty with `none`). Everyone else gets a 404.
    pub metrics_allow: Vec<IpNet>,
}

impl std::fmt::Debug for AuthSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthSettings")
            .field("secret_key", &self.secret_key.as_ref().map(|_| "***"))
            .field("public_url", &self.public_url)
            .field("session_ttl", &self.session_ttl)
            .field("session_max_age", &self.session_max_age)
            .field("link_ttl", &self.link_ttl)
            .field("trusted_proxies", &self.trusted_proxies)
            .field("metrics_allow", &self.metrics_allow)
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
        let ttl_hours: u64 = env.number("MAXY_SESSION_TTL_HOURS", 168, 1..=8760)?;
        let max_days: u64 = env.number("MAXY_SESSION_MAX_DAYS", 30, 1..=365)?;
        if max_days * 24 < ttl_hours {
            return Err(ConfigError::Invalid {
                var: "MAXY_SESSION_MAX_DAYS".into(),
                expected: format!(
                    "at least MAXY_SESSION_TTL_HOURS ({ttl_hours} h = {} days, rounded up)",
                    ttl_hours.div_ceil(24)
                ),
                got: max_days.to_string(),
            });
        }
        Ok(AuthSettings {
            secret_key,
            public_url,
            session_ttl: Duration::from_secs(3600 * ttl_hours),
            session_max_age: Duration::from_secs(86_400 * max_days),
            link_ttl: Duration::from_secs(86_400 * env.number("MAXY_LINK_TTL_DAYS", 30, 1..=365)?),
            trusted_proxies: address_list(env, "MAXY_TRUSTED_PROXIES")?.unwrap_or_default(),
            metrics_allow: metrics_allow(env)?,
        })
    }

    /// Whether cookies must carry `Secure` (the app is served over TLS).
    pub fn secure_cookies(&self) -> bool {
        self.public_url
            .as_deref()
            .is_some_and(|u| u.starts_with("https://"))
    }

    /// Whether `client` may read `/metrics`.
    pub fn may_read_metrics(&self, client: IpAddr) -> bool {
        let client = client.to_canonical();
        self.metrics_allow.iter().any(|net| net.contains(&client))
    }

    /// Whether `peer` is one of the configured proxies.
    pub fn is_trusted_proxy(&self, peer: IpAddr) -> bool {
        let peer = peer.to_canonical();
        self.trusted_proxies.iter().any(|net| net.contains(&peer))
    }
}

/// `MAXY_METRICS_ALLOW`: who may scrape `/metrics`. Unset: this machine
/// only (a Prometheus beside the server); `none`: nobody.
fn metrics_allow(env: &Env) -> Result<Vec<IpNet>, ConfigError> {
    const VAR: &str = "MAXY_METRICS_ALLOW";
    if env.raw(VAR)?.is_some_and(|v| v.trim() == "none") {
        return Ok(Vec::new());
    }
    Ok(address_list(env, VAR)?.unwrap_or_else(|| {
        vec![
            IpNet::from(IpAddr::from([127, 0, 0, 1])),
            IpNet::from(IpAddr::from(std::net::Ipv6Addr::LOCALHOST)),
        ]
    }))
}

/// Addresses or CIDR blocks, separated by commas; `None` when unset.
fn address_list(env: &Env, var: &str) -> Result<Option<Vec<IpNet>>, ConfigError> {
    let Some(list) = env.raw(var)? else {
        return Ok(None);
    };
    list.split(',')
        .map(str::trim)
        .map(|item| {
            item.parse::<IpNet>()
                .or_else(|_| item.parse::<IpAddr>().map(IpNet::from))
                .map(|net| net.trunc())
                .map_err(|_| ConfigError::Invalid {
                    var: var.into(),
                    expected: "addresses or CIDR blocks separated by commas, like 127.0.0.1,10.0.0.0/8,::1".into(),
                    got: item.into(),
                })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

#[cfg(test)]
mod tests;
