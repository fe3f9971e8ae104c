//! What a magic link shows: one catalogue for an organizer, one availability
//! check for a venue. The token is the only credential; every call checks it.
use crate::errors::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// A catalogue as its organizer sees it (read-only).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrganizerCatalogue {
    pub request_reference: String,
    pub event_summary: String,
    pub participants: i32,
    pub event_dates: Option<String>,
    pub configurations: Vec<String>,
    pub sent_on: Option<String>,
    pub picks: Vec<CataloguePick>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CataloguePick {
    /// `recommended` or `compatible`.
    pub tier: String,
    pub code: String,
    pub name: String,
    pub city: String,
    pub postal_code: String,
    pub explanation: Option<String>,
    pub room: Option<String>,
}

/// An availability check as the venue sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VenueAvailability {
    pub venue_name: String,
    pub request_reference: String,
    pub event_summary: String,
    pub participants: i32,
    pub event_dates: Option<String>,
    pub configurations: Vec<String>,
    /// `pending`, `available`, `unavailable` or `expired`.
    pub status: String,
    pub answer: Option<String>,
    pub answer_until: String,
}

/// The venue's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AvailabilityAnswer {
    pub available: bool,
    pub comment: String,
}

/// The longest comment a venue may leave.
pub const MAX_COMMENT_CHARS: usize = 2000;

/// What magic links read and write (implemented by the server). Every
/// method verifies the token first: unknown, expired, revoked, tampered or
/// wrong-purpose tokens all give [`AppError::InvalidLink`].
#[cfg(feature = "ssr")]
#[async_trait::async_trait]
pub trait LinkViews: Send + Sync {
    async fn organizer_catalogue(&self, token: &str) -> Result<OrganizerCatalogue, AppError>;
    async fn venue_availability(&self, token: &str) -> Result<VenueAvailability, AppError>;
    async fn answer_availability(
        &self,
        token: &str,
        answer: AvailabilityAnswer,
    ) -> Result<VenueAvailability, AppError>;
}

#[server(endpoint = "links/catalogue")]
pub async fn load_organizer_catalogue(token: String) -> Result<OrganizerCatalogue, AppError> {
    crate::services::service::<dyn LinkViews>()?
        .organizer_catalogue(&token)
        .await
}

#[server(endpoint = "links/availability")]
pub async fn load_venue_availability(token: String) -> Result<VenueAvailability, AppError> {
    crate::services::service::<dyn LinkViews>()?
        .venue_availability(&token)
        .await
}

#[server(endpoint = "links/availability/answer")]
pub async fn answer_availability(
    token: String,
    available: bool,
    comment: String,
) -> Result<VenueAvailability, AppError> {
    let answer = AvailabilityAnswer { available, comment };
    crate::services::service::<dyn LinkViews>()?
        .answer_availability(&token, answer)
        .await
}
