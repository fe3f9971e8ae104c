//! Admin-only data: the audit log.
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// One line of the audit log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditEvent {
    pub at: String,
    pub actor: String,
    pub action: String,
    pub object: Option<String>,
}

/// The latest audit events (admins only).
#[server(endpoint = "admin/audit")]
pub async fn audit_events() -> Result<Vec<AuditEvent>, ServerFnError> {
    crate::auth::access::require_admin()?;
    crate::ports::portal()?
        .audit_events(200)
        .await
        .map_err(|e| e.into_server_error())
}
