//! What a magic link shows: one catalogue for an organizer, one availability
//! check for a venue. The token is the only credential; every call checks it.
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

#[server(endpoint = "links/catalogue")]
pub async fn load_organizer_catalogue(token: String) -> Result<OrganizerCatalogue, ServerFnError> {
    crate::ports::portal()?
        .organizer_catalogue(&token)
        .await
        .map_err(|e| e.into_server_error())
}

#[server(endpoint = "links/availability")]
pub async fn load_venue_availability(token: String) -> Result<VenueAvailability, ServerFnError> {
    crate::ports::portal()?
        .venue_availability(&token)
        .await
        .map_err(|e| e.into_server_error())
}

#[server(endpoint = "links/availability/answer")]
pub async fn answer_availability(
    token: String,
    available: bool,
    comment: String,
) -> Result<VenueAvailability, ServerFnError> {
    let answer = AvailabilityAnswer { available, comment };
    crate::ports::portal()?
        .answer_availability(&token, answer)
        .await
        .map_err(|e| e.into_server_error())
}
