//! Authorization in one place: every server function and every server route
//! asks one of these helpers before doing anything.
//!
//! Refusals are [`AppError`]s (401 `SignInRequired`, 403 `Forbidden`): the
//! reason is never more precise than the caller is entitled to know.
use super::{CrossSiteNavigation, Role, SessionUser};
use crate::errors::AppError;
use leptos::prelude::*;

/// The signed-in caller, as the server's authentication layer found it.
pub fn caller() -> Option<SessionUser> {
    use_context::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<SessionUser>().cloned())
}

/// Whether the page being rendered was opened from another site. Always
/// `false` for server-function calls, which are same-origin by the CSRF check.
pub fn is_cross_site_navigation() -> bool {
    use_context::<http::request::Parts>()
        .is_some_and(|parts| parts.extensions.get::<CrossSiteNavigation>().is_some())
}

/// Whether this call came as a POST: a server function called by one of our
/// pages (the CSRF check vouches for its origin), rather than a page being
/// rendered for a GET, which any site's link can make a signed-in browser
/// open. GET never writes: whatever writes asks this first.
pub fn is_post() -> bool {
    use_context::<http::request::Parts>().is_some_and(|parts| parts.method == http::Method::POST)
}

/// Refuses a write asked while a page renders for a GET (see [`is_post`]).
pub fn require_post() -> Result<(), AppError> {
    if is_post() {
        Ok(())
    } else {
        Err(AppError::CrossSite)
    }
}

/// The caller's role must include `needed`.
pub fn require_role(user: Option<SessionUser>, needed: Role) -> Result<SessionUser, AppError> {
    match user {
        None => Err(AppError::SignInRequired),
        Some(user) if user.role.includes(needed) => Ok(user),
        Some(_) => Err(AppError::Forbidden),
    }
}

/// A team member or an admin.
pub fn require_team() -> Result<SessionUser, AppError> {
    require_role(caller(), Role::Team)
}

/// An admin.
pub fn require_admin() -> Result<SessionUser, AppError> {
    require_role(caller(), Role::Admin)
}
