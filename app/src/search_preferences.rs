//! Search preferences (issue 11, seed 000 « préférences de recherche »):
//! defaults the venue search applies for a team member and for a request —
//! a zone, « favoris d'abord », pool specialities. A request's preference
//! wins over its user's, key by key; an explicit filter of the search form
//! wins over both; no preference is today's behaviour.
//!
//! The forms post strings (an empty field means "no preference", a bad one
//! gets a clear French error) so that they work with JavaScript off.
use crate::errors::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The keys of a preference, as the search reports them and as the Lieux
/// page clears them for one search (`sans=zone`).
pub const ZONE: &str = "zone";
pub const FAVORITES_FIRST: &str = "favoris";
pub const SPECIALITIES: &str = "specialites";
pub const KEYS: [&str; 3] = [ZONE, FAVORITES_FIRST, SPECIALITIES];

/// Where an applied default comes from.
pub const FROM_REQUEST: &str = "demande";
pub const FROM_USER: &str = "utilisateur";

/// A zone: postal codes or a centre with a radius, under a label.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    /// What the team calls it (« Paris 11e »).
    pub label: String,
    pub postal_codes: Vec<String>,
    pub centre: Option<Centre>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Centre {
    pub lat: f64,
    pub lng: f64,
    pub radius_km: f64,
}

/// The tags to prefer in one pool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoolSpecialities {
    /// The pool's slug.
    pub pool: String,
    pub tags: Vec<String>,
}

/// One owner's stored preferences; `None` / empty = no preference.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchPreferences {
    pub zone: Option<Zone>,
    pub favorites_first: Option<bool>,
    pub specialities: Vec<PoolSpecialities>,
}

impl SearchPreferences {
    pub fn is_empty(&self) -> bool {
        self.zone.is_none() && self.favorites_first.is_none() && self.specialities.is_empty()
    }

    /// The tags to prefer in `pool`, if any.
    pub fn tags_for(&self, pool: &str) -> Option<&[String]> {
        self.specialities
            .iter()
            .find(|s| s.pool == pool)
            .map(|s| s.tags.as_slice())
            .filter(|t| !t.is_empty())
    }
}

/// What a preferences form posts, field by field as typed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PreferencesInput {
    pub zone_label: String,
    /// « 75011, 75012 ».
    pub postal_codes: String,
    /// « 48.8566, 2.3522 » (decimal degrees).
    pub centre: String,
    pub radius_km: String,
    /// "" (no preference), "oui" or "non".
    pub favorites_first: String,
    /// A request's: « rooftop, jardin ». A user's: one line per pool,
    /// « hotels : rooftop, jardin ».
    pub specialities: String,
}

impl PreferencesInput {
    /// The form's fields for stored preferences (what the form shows).
    pub fn from_preferences(p: &SearchPreferences, per_pool: bool) -> Self {
        let zone = p.zone.clone().unwrap_or_default();
        let centre = zone.centre;
        PreferencesInput {
            zone_label: zone.label,
            postal_codes: zone.postal_codes.join(", "),
            centre: centre.map_or(String::new(), |c| format!("{}, {}", c.lat, c.lng)),
            radius_km: centre.map_or(String::new(), |c| c.radius_km.to_string()),
            favorites_first: match p.favorites_first {
                Some(true) => "oui".into(),
                Some(false) => "non".into(),
                None => String::new(),
            },
            specialities: if per_pool {
                p.specialities
                    .iter()
                    .map(|s| format!("{} : {}", s.pool, s.tags.join(", ")))
                    .collect::<Vec<_>>()
                    .join("\n")
            } else {
                p.specialities
                    .first()
                    .map(|s| s.tags.join(", "))
                    .unwrap_or_default()
            },
        }
    }
}

/// A default the search applied, for display: « Zone : Paris 11e —
/// préférence de la demande ».
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AppliedDefault {
    /// [`ZONE`], [`FAVORITES_FIRST`] or [`SPECIALITIES`].
    pub key: String,
    /// « Zone : Paris 11e ».
    pub label: String,
    /// [`FROM_REQUEST`] or [`FROM_USER`].
    pub source: String,
}

impl AppliedDefault {
    /// « préférence de la demande » / « votre préférence ».
    pub fn source_label(&self) -> &'static str {
        if self.source == FROM_REQUEST {
            "préférence de la demande"
        } else {
            "votre préférence"
        }
    }
}

/// A request's preferences and what its search inherits from the user.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RequestPreferences {
    pub request_id: i64,
    pub reference: String,
    /// The request's pool slug (its specialities apply to it).
    pub pool: String,
    pub preferences: SearchPreferences,
    /// The caller's own preferences (applied where the request has none).
    pub mine: SearchPreferences,
    /// The Lieux page on the request's criteria, with its preferences.
    pub search_url: String,
}

/// The search preferences (implemented by the server).
#[cfg(feature = "ssr")]
#[async_trait::async_trait]
pub trait SearchPreferencesDesk: Send + Sync {
    async fn mine(&self, user_id: i64) -> Result<SearchPreferences, AppError>;
    /// Validates and replaces the user's preferences.
    async fn save_mine(
        &self,
        user_id: i64,
        input: PreferencesInput,
    ) -> Result<SearchPreferences, AppError>;
    async fn of_request(
        &self,
        user_id: i64,
        request_id: i64,
    ) -> Result<RequestPreferences, AppError>;
    /// Validates and replaces the request's preferences.
    async fn save_for_request(
        &self,
        user_id: i64,
        request_id: i64,
        input: PreferencesInput,
    ) -> Result<SearchPreferences, AppError>;
}

/// The form's fields as the service takes them (server side only: the
/// browser just posts the fields).
#[cfg(feature = "ssr")]
fn input(
    zone_label: Option<String>,
    postal_codes: Option<String>,
    centre: Option<String>,
    radius_km: Option<String>,
    favorites_first: Option<String>,
    specialities: Option<String>,
) -> PreferencesInput {
    PreferencesInput {
        zone_label: zone_label.unwrap_or_default(),
        postal_codes: postal_codes.unwrap_or_default(),
        centre: centre.unwrap_or_default(),
        radius_km: radius_km.unwrap_or_default(),
        favorites_first: favorites_first.unwrap_or_default(),
        specialities: specialities.unwrap_or_default(),
    }
}

/// The caller's own search preferences (team only).
#[server(endpoint = "search-preferences/mine")]
pub async fn my_search_preferences() -> Result<SearchPreferences, AppError> {
    let user = crate::auth::access::require_team()?;
    crate::services::service::<dyn SearchPreferencesDesk>()?
        .mine(user.id)
        .await
}

/// Replaces the caller's preferences (team only; a field left empty is
/// "no preference").
#[server(endpoint = "search-preferences/save-mine")]
pub async fn save_my_search_preferences(
    zone_label: Option<String>,
    postal_codes: Option<String>,
    centre: Option<String>,
    radius_km: Option<String>,
    favorites_first: Option<String>,
    specialities: Option<String>,
) -> Result<SearchPreferences, AppError> {
    let user = crate::auth::access::require_team()?;
    let input = input(
        zone_label,
        postal_codes,
        centre,
        radius_km,
        favorites_first,
        specialities,
    );
    crate::services::service::<dyn SearchPreferencesDesk>()?
        .save_mine(user.id, input)
        .await
}

/// A request's preferences (team only, like the request's page).
#[server(endpoint = "search-preferences/request")]
pub async fn request_search_preferences(request_id: i64) -> Result<RequestPreferences, AppError> {
    let user = crate::auth::access::require_team()?;
    crate::services::service::<dyn SearchPreferencesDesk>()?
        .of_request(user.id, request_id)
        .await
}

/// Replaces a request's preferences (team only; the request must exist).
#[server(endpoint = "search-preferences/save-request")]
pub async fn save_request_search_preferences(
    request_id: i64,
    zone_label: Option<String>,
    postal_codes: Option<String>,
    centre: Option<String>,
    radius_km: Option<String>,
    favorites_first: Option<String>,
    specialities: Option<String>,
) -> Result<SearchPreferences, AppError> {
    let user = crate::auth::access::require_team()?;
    let input = input(
        zone_label,
        postal_codes,
        centre,
        radius_km,
        favorites_first,
        specialities,
    );
    crate::services::service::<dyn SearchPreferencesDesk>()?
        .save_for_request(user.id, request_id, input)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_shows_what_is_stored() {
        let p = SearchPreferences {
            zone: Some(Zone {
                label: "Paris 11e".into(),
                postal_codes: vec!["75011".into()],
                centre: None,
            }),
            favorites_first: Some(false),
            specialities: vec![PoolSpecialities {
                pool: "hotels".into(),
                tags: vec!["rooftop".into(), "jardin".into()],
            }],
        };
        let f = PreferencesInput::from_preferences(&p, true);
        assert_eq!(f.postal_codes, "75011");
        assert_eq!(f.favorites_first, "non");
        assert_eq!(f.specialities, "hotels : rooftop, jardin");
        let f = PreferencesInput::from_preferences(&p, false);
        assert_eq!(f.specialities, "rooftop, jardin");
        assert_eq!(p.tags_for("hotels").map(<[String]>::len), Some(2));
        assert_eq!(p.tags_for("lofts"), None);
        assert!(!p.is_empty());
        assert!(SearchPreferences::default().is_empty());
    }
}
