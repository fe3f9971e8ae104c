//! Extractors for server routes: `TeamUser` and `AdminUser` refuse the
//! request (401 / 403, French message) unless the caller has the role.
use app::auth::access::{require_role, Denied};
use app::auth::{Role, SessionUser};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};

/// A signed-in team member or admin.
pub struct TeamUser(pub SessionUser);

/// A signed-in admin.
pub struct AdminUser(pub SessionUser);

/// A refusal as an HTTP response.
pub struct Refusal(pub Denied);

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.0.status(), self.0.message()).into_response()
    }
}

fn caller(parts: &Parts, needed: Role) -> Result<SessionUser, Refusal> {
    require_role(parts.extensions.get::<SessionUser>().cloned(), needed).map_err(Refusal)
}

impl<S: Send + Sync> FromRequestParts<S> for TeamUser {
    type Rejection = Refusal;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        caller(parts, Role::Team).map(TeamUser)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for AdminUser {
    type Rejection = Refusal;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        caller(parts, Role::Admin).map(AdminUser)
    }
}
