//! Who is calling, as pages and server functions see it.
//!
//! The server authenticates every request (session cookie → [`SessionUser`]
//! in the request's extensions); the helpers of [`access`] decide what that
//! caller may do. Every server function starts with one of them.
#[cfg(feature = "ssr")]
pub mod access;

use crate::errors::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// A role: admins can do everything the team can, and run the console.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Team,
    Admin,
}

impl Role {
    /// Whether this role includes `needed` (admin ⊇ team).
    pub fn includes(self, needed: Role) -> bool {
        self == Role::Admin || needed == Role::Team
    }

    pub fn parse(text: &str) -> Option<Role> {
        match text {
            "team" => Some(Role::Team),
            "admin" => Some(Role::Admin),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Team => "team",
            Role::Admin => "admin",
        }
    }
}

/// The signed-in team member or admin.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionUser {
    pub id: i64,
    pub email: String,
    pub display_name: String,
    pub role: Role,
    /// Labels used by playbook eligibility (`'x' in profiles`).
    pub profiles: Vec<String>,
}

impl SessionUser {
    pub fn is_admin(&self) -> bool {
        self.role == Role::Admin
    }
}

/// The client's address as the server decided it (the socket's peer, or what
/// trusted proxies say), in the request's extensions: for the audit log and
/// rate limits of whatever serves the request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub std::net::IpAddr);

/// Marks a page request that came from another site (`Sec-Fetch-Site:
/// cross-site`, or an `Origin`/`Referer` from elsewhere). The server puts it in
/// the request's extensions; a page opened this way runs no costly work on
/// its own, since any site can make a signed-in browser open any URL of ours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrossSiteNavigation;

/// The caller, or `None` when nobody is signed in. Public by design: it only
/// ever describes the caller to themselves.
#[server(endpoint = "session/user")]
pub async fn current_user() -> Result<Option<SessionUser>, AppError> {
    Ok(access::caller())
}
