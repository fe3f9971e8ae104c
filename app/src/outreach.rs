//! Outreach from the catalogue builder: sending a catalogue to its organizer
//! (e-mailed when e-mail is set up, and a magic link to copy), revoking that link, reading what the organizer
//! answered (favourites, comment), and asking venues for their availability.
//! Team only; every server function checks its caller, then calls one
//! [`Outreach`] method.
use crate::errors::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The most venues one « Demander les disponibilités » may ask at once.
pub const MAX_CHECKS_AT_ONCE: usize = 32;

/// Everything the builder's outreach panel shows for one request.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OutreachView {
    pub request_id: i64,
    /// The catalogue named, or the request's current standard one.
    pub catalogue: Option<CatalogueOutreachState>,
    /// The latest availability check of each venue asked for this request
    /// (venues of the catalogue or not).
    pub checks: Vec<CheckState>,
    /// Whether sends are e-mailed (else the links are only shown to copy).
    pub mail_configured: bool,
    /// The e-mails of this request, newest first.
    pub mails: Vec<MailSendState>,
}

/// One e-mail as the team follows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MailSendState {
    pub send_id: i64,
    /// « Catalogue » or « Disponibilité ».
    pub what: String,
    pub recipient: String,
    pub recipient_name: Option<String>,
    pub subject: String,
    /// « 06/12/2026 à 14:05 », Paris time.
    pub queued_on: String,
    pub queued_by: Option<String>,
    /// `queued`, `sent` or `failed`.
    pub status: String,
    /// « En file », « Envoyé le … », « Échec »…, in French.
    pub status_label: String,
    pub attempts: i32,
    /// The last failure, in French.
    pub last_error: Option<String>,
    /// « nouvel essai automatique à 14:07 », when the queue will try again.
    pub next_try: Option<String>,
    /// A person may ask for another attempt now.
    pub can_retry: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CatalogueOutreachState {
    pub catalogue_id: i64,
    /// `standard` or `training` (never sendable).
    pub kind: String,
    /// `draft`, `sent` or `archived`.
    pub status: String,
    /// « 01/12/2026 à 15:30 » (UTC), when sent.
    pub sent_on: Option<String>,
    /// Live organizer links (not expired, not revoked).
    pub live_links: usize,
    /// How often the organizer opened them.
    pub link_uses: i64,
    pub organizer_comment: Option<String>,
    pub organizer_comment_on: Option<String>,
    pub picks: Vec<OutreachPick>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutreachPick {
    pub pick_id: i64,
    pub member_id: i64,
    pub code: String,
    pub name: String,
    /// `recommended` or `compatible`.
    pub tier: String,
    pub organizer_favorite: bool,
    /// The organizer's comment on this venue, and when (Paris time).
    pub organizer_comment: Option<String>,
    pub organizer_comment_on: Option<String>,
}

/// One availability check as the team sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckState {
    pub check_id: i64,
    pub member_id: i64,
    pub code: String,
    pub name: String,
    /// `pending`, `available`, `unavailable` or `expired`.
    pub status: String,
    /// The venue's conditions (status `available`).
    pub conditions: Option<String>,
    /// The venue's comment.
    pub answer: Option<String>,
    pub sent_on: String,
    /// « 3 h 20 », « 2 j 4 h »: answered_at − sent_at.
    pub delay: Option<String>,
    pub expires_on: String,
}

/// A sent catalogue: the organizer's link, shown once (it is not stored).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SentCatalogue {
    pub catalogue_id: i64,
    pub link_id: i64,
    /// `/c/<token>`: the page prefixes the site's address.
    pub path: String,
    pub expires_on: String,
    /// The organizer's address the catalogue was e-mailed to.
    pub emailed_to: Option<String>,
    /// Why it was not e-mailed (« envoi par e-mail non configuré »…).
    pub mail_note: Option<String>,
}

/// One venue asked: its check and the link to pass on, shown once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SentCheck {
    pub member_id: i64,
    pub code: String,
    pub name: String,
    pub check_id: i64,
    /// `/v/<token>`.
    pub path: String,
    /// The venue already had a pending check: it was kept (same deadline),
    /// with a fresh link.
    pub reused: bool,
    pub expires_on: String,
    /// The venue's address the check was e-mailed to.
    pub emailed_to: Option<String>,
    /// Why it was not e-mailed.
    pub mail_note: Option<String>,
}

/// Outreach (implemented by the server). The caller is already known to be
/// a team member; `user_id` is recorded as the author.
#[cfg(feature = "ssr")]
#[async_trait::async_trait]
pub trait Outreach: Send + Sync {
    async fn view(
        &self,
        request_id: i64,
        catalogue_id: Option<i64>,
    ) -> Result<OutreachView, AppError>;
    async fn send_catalogue(
        &self,
        user_id: i64,
        catalogue_id: i64,
    ) -> Result<SentCatalogue, AppError>;
    /// Revokes every live organizer link of the catalogue; how many.
    async fn revoke_catalogue_links(
        &self,
        user_id: i64,
        catalogue_id: i64,
    ) -> Result<usize, AppError>;
    async fn send_availability_checks(
        &self,
        user_id: i64,
        request_id: i64,
        member_ids: Vec<i64>,
    ) -> Result<Vec<SentCheck>, AppError>;
    /// Asks for another attempt of an e-mail not delivered yet, now.
    async fn retry_mail(&self, user_id: i64, send_id: i64) -> Result<(), AppError>;
}

#[server(endpoint = "outreach/view")]
pub async fn load_outreach(
    request_id: i64,
    #[server(default)] catalogue_id: Option<i64>,
) -> Result<OutreachView, AppError> {
    crate::auth::access::require_team()?;
    crate::services::service::<dyn Outreach>()?
        .view(request_id, catalogue_id)
        .await
}

/// Sends a standard catalogue to its organizer: returns the link to copy.
#[server(endpoint = "outreach/send")]
pub async fn send_catalogue(catalogue_id: i64) -> Result<SentCatalogue, AppError> {
    let user = crate::auth::access::require_team()?;
    crate::services::service::<dyn Outreach>()?
        .send_catalogue(user.id, catalogue_id)
        .await
}

/// Closes the organizer links of a catalogue: `/c/<token>` refuses them.
#[server(endpoint = "outreach/revoke")]
pub async fn revoke_catalogue_links(catalogue_id: i64) -> Result<usize, AppError> {
    let user = crate::auth::access::require_team()?;
    crate::services::service::<dyn Outreach>()?
        .revoke_catalogue_links(user.id, catalogue_id)
        .await
}

/// Asks venues whether they are free for the request (one check and one
/// link per venue; a venue's pending check is reused).
#[server(endpoint = "outreach/availability")]
pub async fn send_availability_checks(
    request_id: i64,
    #[server(default)] member_ids: Vec<i64>,
) -> Result<Vec<SentCheck>, AppError> {
    let user = crate::auth::access::require_team()?;
    crate::services::service::<dyn Outreach>()?
        .send_availability_checks(user.id, request_id, member_ids)
        .await
}

/// Another attempt of an undelivered e-mail, now (the queue retries by
/// itself; this is for a person who fixed the cause).
#[server(endpoint = "outreach/mail/retry")]
pub async fn retry_mail(send_id: i64) -> Result<(), AppError> {
    let user = crate::auth::access::require_team()?;
    crate::services::service::<dyn Outreach>()?
        .retry_mail(user.id, send_id)
        .await
}
