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
    /// The organizer's own comment, if they left one.
    pub comment: Option<String>,
    /// The team member the organizer deals with.
    pub contact: Option<TeamContact>,
    /// « 05/01/2027 »: the last day this page opens (and takes answers).
    pub open_until: Option<String>,
}

/// Who sent the catalogue, as the organizer may reach them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TeamContact {
    pub name: String,
    pub email: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CataloguePick {
    /// The pick's id: what the organizer's favourite form names.
    pub id: i64,
    /// `recommended` or `compatible`.
    pub tier: String,
    pub name: String,
    pub address: Option<String>,
    pub city: String,
    pub postal_code: String,
    pub explanation: Option<String>,
    /// The pinned room, with its capacity in the requested configuration.
    pub room: Option<PinnedRoom>,
    /// Marked by the organizer.
    pub favorite: bool,
    /// The organizer's comment on this venue.
    pub comment: Option<String>,
}

impl CataloguePick {
    /// The card's `id`: where a form posted from it brings the page back.
    pub fn anchor(&self) -> String {
        format!("lieu-{}", self.id)
    }
}

/// The room the team matched to the request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PinnedRoom {
    pub name: String,
    /// Configuration key (`cocktail`…) and the room's capacity in it.
    pub configuration: Option<String>,
    pub capacity: Option<i32>,
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
    /// The venue's conditions when it answered "available with conditions".
    pub conditions: Option<String>,
    pub answer_until: String,
}

/// The venue's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AvailabilityAnswer {
    pub choice: AvailabilityChoice,
    /// Required (non-blank) with [`AvailabilityChoice::WithConditions`].
    pub conditions: String,
    pub comment: String,
}

/// Available, not available, or available with conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AvailabilityChoice {
    Available,
    Unavailable,
    WithConditions,
}

impl AvailabilityChoice {
    /// The form's values: `true`, `false` and `conditions` (the first two
    /// as the form has always sent them).
    pub fn parse(value: &str) -> Option<Self> {
        match value.trim() {
            "true" => Some(Self::Available),
            "false" => Some(Self::Unavailable),
            "conditions" => Some(Self::WithConditions),
            _ => None,
        }
    }
}

/// The longest comment a venue or an organizer may leave.
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
    /// Marks (or unmarks) a pick of the link's catalogue as a favourite;
    /// a pick of another catalogue is refused like a bad link.
    async fn set_organizer_favorite(
        &self,
        token: &str,
        pick_id: i64,
        favorite: bool,
    ) -> Result<OrganizerCatalogue, AppError>;
    /// Saves the organizer's comment (an empty one removes it).
    async fn save_organizer_comment(
        &self,
        token: &str,
        comment: &str,
    ) -> Result<OrganizerCatalogue, AppError>;
    /// Saves the organizer's comment on one venue of the link's catalogue
    /// (an empty one removes it); a pick of another catalogue is refused
    /// like a bad link.
    async fn save_organizer_pick_comment(
        &self,
        token: &str,
        pick_id: i64,
        comment: &str,
    ) -> Result<OrganizerCatalogue, AppError>;
}

/// Where a form posted without JavaScript brings the organizer back: their
/// page, at the card they acted on (`None`: the top). Only a plain form
/// post (one that accepts HTML) is redirected; a call from the page's own
/// script gets the data.
#[cfg(feature = "ssr")]
fn back_to(token: &str, anchor: Option<String>) {
    use leptos::prelude::use_context;
    let plain_post = use_context::<http::request::Parts>().is_some_and(|parts| {
        parts
            .headers
            .get(http::header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("text/html"))
    });
    let well_formed = token
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'));
    if plain_post && well_formed {
        let fragment = anchor.map(|a| format!("#{a}")).unwrap_or_default();
        leptos_axum::redirect(&format!("/c/{token}{fragment}"));
    }
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

/// `available` is `true`, `false` or `conditions` (then `conditions` must
/// say which). Both texts are optional fields of the form.
#[server(endpoint = "links/availability/answer")]
pub async fn answer_availability(
    token: String,
    available: String,
    #[server(default)] conditions: String,
    #[server(default)] comment: String,
) -> Result<VenueAvailability, AppError> {
    let choice = AvailabilityChoice::parse(&available).ok_or_else(|| {
        AppError::Invalid(
            "Indiquez si vous êtes disponible, pas disponible, ou disponible sous conditions."
                .into(),
        )
    })?;
    let answer = AvailabilityAnswer {
        choice,
        conditions,
        comment,
    };
    crate::services::service::<dyn LinkViews>()?
        .answer_availability(&token, answer)
        .await
}

/// The organizer marks (`favorite = true`) or unmarks a venue of their catalogue.
#[server(endpoint = "links/catalogue/favorite")]
pub async fn set_organizer_favorite(
    token: String,
    // Defaults: the token is checked before anything else, so a call
    // without them is refused like any bad link.
    #[server(default)] pick_id: i64,
    #[server(default)] favorite: bool,
) -> Result<OrganizerCatalogue, AppError> {
    let catalogue = crate::services::service::<dyn LinkViews>()?
        .set_organizer_favorite(&token, pick_id, favorite)
        .await?;
    back_to(&token, Some(format!("lieu-{pick_id}")));
    Ok(catalogue)
}

/// The organizer's comment on their catalogue (one, editable).
#[server(endpoint = "links/catalogue/comment")]
pub async fn save_organizer_comment(
    token: String,
    #[server(default)] comment: String,
) -> Result<OrganizerCatalogue, AppError> {
    let catalogue = crate::services::service::<dyn LinkViews>()?
        .save_organizer_comment(&token, &comment)
        .await?;
    back_to(&token, Some(COMMENT_ANCHOR.to_string()));
    Ok(catalogue)
}

/// The catalogue comment's section `id`.
pub const COMMENT_ANCHOR: &str = "commentaire";

/// The organizer's comment on one venue of their catalogue.
#[server(endpoint = "links/catalogue/pick-comment")]
pub async fn save_organizer_pick_comment(
    token: String,
    #[server(default)] pick_id: i64,
    #[server(default)] comment: String,
) -> Result<OrganizerCatalogue, AppError> {
    let catalogue = crate::services::service::<dyn LinkViews>()?
        .save_organizer_pick_comment(&token, pick_id, &comment)
        .await?;
    back_to(&token, Some(format!("lieu-{pick_id}")));
    Ok(catalogue)
}
