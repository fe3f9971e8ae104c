//! Authorization in one place: every server function and every server route
//! asks one of these helpers before doing anything.
//!
//! Refusals carry a user-safe French message and the right HTTP status; the
//! reason is never more precise than the caller is entitled to know (no "this
//! e-mail does not exist", no "this link was revoked" vs "expired").
use super::{Role, SessionUser};
use http::StatusCode;
use leptos::prelude::*;

/// Why a call is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Denied {
    /// Nobody is signed in.
    SignInRequired,
    /// Signed in, but the role does not allow it.
    Forbidden,
    /// A magic link that is unknown, expired, revoked, tampered with or for
    /// another purpose: all look the same from outside.
    InvalidLink,
    /// Too many attempts from this address or for this account.
    TooManyRequests,
}

impl Denied {
    pub fn status(self) -> StatusCode {
        match self {
            Denied::SignInRequired => StatusCode::UNAUTHORIZED,
            Denied::Forbidden => StatusCode::FORBIDDEN,
            Denied::InvalidLink => StatusCode::NOT_FOUND,
            Denied::TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
        }
    }

    pub fn message(self) -> &'static str {
        match self {
            Denied::SignInRequired => "Connectez-vous pour continuer.",
            Denied::Forbidden => "Cette action est réservée aux administrateurs.",
            Denied::InvalidLink => "Ce lien n'est pas valide ou a expiré. Demandez un nouveau lien à l'équipe Reciprok.",
            Denied::TooManyRequests => "Trop de tentatives. Réessayez dans une minute.",
        }
    }

    /// Sets the response status and turns the refusal into a server-function error.
    pub fn into_server_error(self) -> ServerFnError {
        if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
            response.set_status(self.status());
        }
        ServerFnError::ServerError(self.message().to_string())
    }
}

/// The signed-in caller, as the server's authentication layer found it.
pub fn caller() -> Option<SessionUser> {
    use_context::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<SessionUser>().cloned())
}

/// The caller's role must include `needed`.
pub fn require_role(user: Option<SessionUser>, needed: Role) -> Result<SessionUser, Denied> {
    match user {
        None => Err(Denied::SignInRequired),
        Some(user) if user.role.includes(needed) => Ok(user),
        Some(_) => Err(Denied::Forbidden),
    }
}

/// A team member or an admin.
pub fn require_team() -> Result<SessionUser, ServerFnError> {
    require_role(caller(), Role::Team).map_err(Denied::into_server_error)
}

/// An admin.
pub fn require_admin() -> Result<SessionUser, ServerFnError> {
    require_role(caller(), Role::Admin).map_err(Denied::into_server_error)
}
