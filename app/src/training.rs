//! What the team teaches Maxy: a verdict on a venue for a request (the
//! « Apprendre » button), or a guideline with structured directives
//! (`{trigger, prefer, avoid}`, seed 000). The DTOs, the [`Training`]
//! service the server implements, and the server functions (each one
//! authorizes its caller, then makes one call).
// The forms post without JavaScript: one server-function argument per form
// field. The `server` macro does not carry an item's `allow` over to the
// client function it generates, so it is allowed here.
#![allow(clippy::too_many_arguments)]
use crate::errors::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// Verdicts a team member can give on a venue, in the order the form
/// offers them; their French labels are `fr::training_verdict`.
pub const VENUE_VERDICTS: &[&str] = &["rejected", "demoted", "approved"];

/// One session as the `/entrainement` page lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainingSessionView {
    pub id: i64,
    /// `approved`, `rejected`, `demoted` or `guideline`.
    pub verdict: String,
    pub verdict_label: String,
    pub category_label: String,
    pub event_type: Option<String>,
    /// « Le Jardin Caché (#102) », when the session is about a venue.
    pub venue: Option<String>,
    pub request_reference: Option<String>,
    pub reason: String,
    pub trigger: Option<String>,
    pub prefer: Vec<String>,
    pub avoid: Vec<String>,
    pub author: Option<String>,
    /// « 12/11/2026 ».
    pub created_on: String,
    /// Whether its vector is stored (search by meaning finds it).
    pub embedded: bool,
    /// The caller wrote it, or is an admin.
    pub can_delete: bool,
}

/// A lesson as the forms post it (every field a string, lists
/// comma-separated); the server checks everything.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TrainingInput {
    pub request_id: Option<i64>,
    pub member_id: Option<i64>,
    pub catalogue_id: Option<i64>,
    pub verdict: String,
    pub reason: String,
    pub category: String,
    pub event_type: String,
    pub trigger: String,
    pub prefer: String,
    pub avoid: String,
}

/// The training service (implemented by the server).
#[cfg(feature = "ssr")]
#[async_trait::async_trait]
pub trait Training: Send + Sync {
    /// Validates and records one session (author: `user_id`); its id.
    async fn create(&self, user_id: i64, input: TrainingInput) -> Result<i64, AppError>;
    /// The newest sessions, of one kind of event when given.
    async fn list(
        &self,
        user: &crate::auth::SessionUser,
        event_type: Option<String>,
    ) -> Result<Vec<TrainingSessionView>, AppError>;
    /// Deletes a session the caller wrote (admins: any).
    async fn delete(&self, user: &crate::auth::SessionUser, id: i64) -> Result<(), AppError>;
}

/// « Apprendre » on a venue: a verdict, a reason, optional directives.
#[server(endpoint = "training/learn")]
pub async fn learn(
    request_id: Option<i64>,
    member_id: Option<i64>,
    catalogue_id: Option<i64>,
    verdict: String,
    reason: String,
    category: String,
    event_type: String,
    trigger: String,
    prefer: String,
    avoid: String,
) -> Result<i64, AppError> {
    let user = crate::auth::access::require_team()?;
    crate::services::service::<dyn Training>()?
        .create(
            user.id,
            TrainingInput {
                request_id,
                member_id,
                catalogue_id,
                verdict,
                reason,
                category,
                event_type,
                trigger,
                prefer,
                avoid,
            },
        )
        .await
}

/// A guideline without a venue: directives required.
#[server(endpoint = "training/guideline")]
pub async fn add_guideline(
    request_id: Option<i64>,
    reason: String,
    category: String,
    event_type: String,
    trigger: String,
    prefer: String,
    avoid: String,
) -> Result<i64, AppError> {
    let user = crate::auth::access::require_team()?;
    crate::services::service::<dyn Training>()?
        .create(
            user.id,
            TrainingInput {
                request_id,
                verdict: "guideline".into(),
                reason,
                category,
                event_type,
                trigger,
                prefer,
                avoid,
                ..TrainingInput::default()
            },
        )
        .await
}

/// The newest sessions (the `/entrainement` page).
#[server(endpoint = "training/list")]
pub async fn list_training(
    event_type: Option<String>,
) -> Result<Vec<TrainingSessionView>, AppError> {
    let user = crate::auth::access::require_team()?;
    crate::services::service::<dyn Training>()?
        .list(&user, event_type)
        .await
}

/// Deletes one session (its author, or an admin).
#[server(endpoint = "training/delete")]
pub async fn delete_training(id: i64) -> Result<(), AppError> {
    let user = crate::auth::access::require_team()?;
    crate::services::service::<dyn Training>()?
        .delete(&user, id)
        .await
}
