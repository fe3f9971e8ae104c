//! Admin-only data: the audit log, read by kind of actor and paged through
//! with filters ([`journal`]); the assistant's state ([`status`]); accounts
//! and roles ([`accounts`]).
mod accounts;
mod journal;
mod status;

pub use accounts::*;
pub use journal::*;
pub use status::*;

use crate::errors::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// One line of the audit log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditEvent {
    pub at: String,
    pub actor: String,
    /// The action's key (`auth.sign_in`), for tools and tests.
    pub action: String,
    /// What a person reads for it (« Connexion »).
    pub action_label: String,
    /// What the row is about, in French (« demande D-2026-00042 »).
    pub object: Option<String>,
    /// For a row standing for a flood's excess, what it stands for, in
    /// French (« 187 autres échecs de connexion cette minute »).
    pub summary: Option<String>,
}

/// A view of the journal: whose actions it shows. Each view has its own
/// latest rows, so a flood of outsiders never pushes the team's rows out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AuditKind {
    All,
    /// Signed-in team members and admins.
    Team,
    /// Anonymous visitors (sign-in attempts) and magic-link holders.
    Outsiders,
    /// Jobs and the command line.
    System,
}

impl AuditKind {
    /// In the order the console offers them.
    pub const EVERY: [AuditKind; 4] = [
        AuditKind::All,
        AuditKind::Team,
        AuditKind::Outsiders,
        AuditKind::System,
    ];

    /// Its value in the console's address (`/console?journal=…`).
    pub fn param(self) -> &'static str {
        match self {
            AuditKind::All => "tout",
            AuditKind::Team => "equipe",
            AuditKind::Outsiders => "exterieurs",
            AuditKind::System => "systeme",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            AuditKind::All => "Tout",
            AuditKind::Team => "Équipe",
            AuditKind::Outsiders => "Extérieurs",
            AuditKind::System => "Système",
        }
    }

    /// The view named by `param`; none (empty) is the whole journal.
    pub fn parse(param: &str) -> Result<Self, AppError> {
        match param.trim() {
            "" => Ok(AuditKind::All),
            p => AuditKind::EVERY
                .into_iter()
                .find(|k| k.param() == p)
                .ok_or_else(|| {
                    AppError::BadRequest(
                        "Ce journal n'existe pas : choisissez Tout, Équipe, Extérieurs ou Système."
                            .into(),
                    )
                }),
        }
    }
}

/// Reads the audit log (implemented by the server).
#[cfg(feature = "ssr")]
#[async_trait::async_trait]
pub trait AuditLog: Send + Sync {
    /// The latest `limit` events of `kind`, newest first.
    async fn latest(&self, kind: AuditKind, limit: u32) -> Result<Vec<AuditEvent>, AppError>;
    /// One page of the journal, newest first, as `filters` say.
    async fn page(&self, filters: JournalFilters) -> Result<JournalPage, AppError>;
}

/// The latest audit events of one view of the journal (admins only).
#[server(endpoint = "admin/audit")]
pub async fn audit_events(#[server(default)] journal: String) -> Result<Vec<AuditEvent>, AppError> {
    crate::auth::access::require_admin()?;
    let kind = AuditKind::parse(&journal)?;
    crate::services::service::<dyn AuditLog>()?
        .latest(kind, 200)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_view_reads_back_from_its_address() {
        for kind in AuditKind::EVERY {
            assert_eq!(AuditKind::parse(kind.param()).ok(), Some(kind));
        }
        assert_eq!(AuditKind::parse("").ok(), Some(AuditKind::All));
    }

    #[test]
    fn an_unknown_view_is_a_french_bad_request() {
        let error = AuditKind::parse("admins").unwrap_err();
        assert_eq!(error.status_code(), 400);
        assert!(error.to_string().contains("Équipe"), "{error}");
    }
}
