//! Extractors for server routes: `TeamUser` and `AdminUser` refuse the
//! request (401 / 403 `AppError`) unless the caller has the role.
use app::auth::access::require_role;
use app::auth::{Role, SessionUser};
use app::errors::AppError;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;

/// A signed-in team member or admin.
pub struct TeamUser(pub SessionUser);

/// A signed-in admin.
pub struct AdminUser(pub SessionUser);

fn caller(parts: &Parts, needed: Role) -> Result<SessionUser, AppError> {
    require_role(parts.extensions.get::<SessionUser>().cloned(), needed)
}

impl<S: Send + Sync> FromRequestParts<S> for TeamUser {
    type Rejection = AppError;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        caller(parts, Role::Team).map(TeamUser)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for AdminUser {
    type Rejection = AppError;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        caller(parts, Role::Admin).map(AdminUser)
    }
}
