//! Admin-only data: the audit log.
use crate::errors::AppError;
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

/// Reads the audit log (implemented by the server).
#[cfg(feature = "ssr")]
#[async_trait::async_trait]
pub trait AuditLog: Send + Sync {
    /// The latest `limit` events, newest first.
    async fn latest(&self, limit: u32) -> Result<Vec<AuditEvent>, AppError>;
}

/// The latest audit events (admins only).
#[server(endpoint = "admin/audit")]
pub async fn audit_events() -> Result<Vec<AuditEvent>, AppError> {
    crate::auth::access::require_admin()?;
    crate::services::service::<dyn AuditLog>()?
        .latest(200)
        .await
}
