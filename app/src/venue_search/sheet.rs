//! A venue's sheet (`/lieux/<id>`): what the team needs to judge a venue
//! from a search result — where it is, its pool, its rooms with the
//! layouts and head counts each holds, its amenities and links, and the
//! requests whose catalogues hold it.
use crate::errors::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct VenueSheet {
    pub member_id: i64,
    pub code: String,
    pub name: String,
    pub address: String,
    pub postal_code: String,
    pub city: String,
    /// The pool's name, as the team calls it.
    pub pool: String,
    /// Whether it may be proposed (an inactive venue is only shown).
    pub active: bool,
    /// Third-party text, shown as text.
    pub description: String,
    pub website: Option<String>,
    pub rooms: Vec<SheetRoom>,
    /// Tags and amenities in words (« Terrasse », « Parking : 20 places »).
    pub amenities: Vec<String>,
    /// « de 45 à 90 € par personne », when the venue gave prices.
    pub prices: Option<String>,
    pub catalogues: Vec<SheetCatalogue>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SheetRoom {
    pub name: String,
    pub area_m2: Option<i32>,
    /// (configuration key, capacity), in the order layouts are shown.
    pub capacities: Vec<(String, i32)>,
}

/// A request whose catalogue holds the venue.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SheetCatalogue {
    pub request_id: i64,
    pub reference: String,
    /// « Brouillon », « Envoyé », « Archivé ».
    pub status: String,
    /// « Fortement recommandé » or « Compatible ».
    pub tier: String,
    pub training: bool,
}

/// One venue's sheet (team only; an unknown id is a French 404).
#[server(endpoint = "venues/sheet")]
pub async fn load_venue_sheet(member_id: i64) -> Result<VenueSheet, AppError> {
    crate::auth::access::require_team()?;
    crate::services::service::<dyn super::VenueSearch>()?
        .sheet(member_id)
        .await
}
