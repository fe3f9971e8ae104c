//! Accounts and access, independent of HTTP: passwords, sessions, tokens,
//! magic links and rate limits. The HTTP side (the authentication middleware,
//! the CSRF check, the sign-in routes, the extractors) lives in `crate::http`.
pub mod email;
pub mod magic_links;
pub mod password;
pub mod rate_limit;
pub mod sessions;
pub mod tokens;
