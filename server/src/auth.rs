//! Accounts and access: passwords, sessions, magic links, CSRF, rate limits.
//!
//! Authentication happens once per request ([`middleware::authenticate`]
//! puts the [`app::auth::SessionUser`] in the request's extensions);
//! authorization is decided by `app::auth::access` (server functions), the
//! extractors of [`extract`] (server routes) and the page guard, all from the
//! same role rule and the same page table.
pub mod csrf;
pub mod extract;
pub mod magic_links;
pub mod middleware;
pub mod password;
pub mod rate_limit;
pub mod routes;
pub mod sessions;
pub mod tokens;
