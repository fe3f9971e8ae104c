//! Venue search as the team's pages see it: the criteria they send, the
//! ranked picks they get back, with every stage's timing.
use crate::errors::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

pub mod sheet;
pub use sheet::{load_venue_sheet, VenueSheet};

/// The longest search text accepted: a few words typed, or a whole
/// e-mail pasted with its signature and the start of its thread (the
/// reader keeps the body).
pub const MAX_TEXT_CHARS: usize = 6000;

/// What the search form (or the chat tool) asks for. Free text is parsed on
/// the server: structured fields given here win over what the text says.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SearchForm {
    /// Pool slug; empty: every pool. Never narrowed silently: the results
    /// say which pools were searched ([`SearchResults::pools`]).
    pub pool: String,
    /// Free French text: "rooftop festif dans le 8e pour 100 personnes".
    pub text: String,
    /// Signed so that a negative count gets a clear refusal, not a parse error.
    pub participants: Option<i64>,
    /// Configuration keys: reunion, u, theatre, cabaret, ecole, banquet, cocktail.
    pub configurations: Vec<String>,
    pub postal_codes: Vec<String>,
    /// A centre (both or neither) and a radius around it, in km.
    pub near_lat: Option<f64>,
    pub near_lng: Option<f64>,
    pub radius_km: Option<f64>,
    /// The request's kind of event (« cocktail », « séminaire »): the
    /// team's training for that kind applies. When absent, the event types
    /// the training knows are looked for in the text.
    pub event_type: Option<String>,
    /// The request this search serves: its search preferences apply
    /// (over the caller's own), as defaults.
    pub request_id: Option<i64>,
    /// Preference keys not to apply to this search (`zone`, `favoris`,
    /// `specialites`): « retirer » on the Lieux page.
    pub skip_defaults: Vec<String>,
    /// How a person names the centre above (« Boulogne-Billancourt », a
    /// saved zone's label): shown in « Compris » instead of coordinates.
    pub near_label: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoolOption {
    pub slug: String,
    pub name: String,
}

/// The answer: picks in two tiers, what was understood, and how it went.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchResults {
    /// What the criteria were understood as (French, for display).
    pub understood: Vec<String>,
    pub semantic_query: String,
    pub recommended: Vec<VenuePick>,
    pub compatible: Vec<VenuePick>,
    /// Candidates left out by the ranking (not padded into the tiers).
    pub rejected: usize,
    /// Those the LLM turned down explicitly, with its reason.
    pub rejected_reasons: Vec<RejectedPick>,
    /// Advice and degraded-mode notices (French).
    pub notices: Vec<String>,
    /// The area is too broad to choose well (seed 001, "demande très large"):
    /// the caller should ask to narrow it (a postal code, a commune, a
    /// radius). Meanwhile the results are the nearest to Paris centre.
    pub narrow_area: bool,
    /// A similar past request whose catalogue could be reused.
    pub similar_request: Option<SimilarRequest>,
    pub stats: SearchStats,
    /// Which pools were searched: every answer says it.
    pub pools: PoolScope,
    /// How the picks are ordered within each tier, in French (« Ordre :
    /// dans chaque groupe, … »); the order is what it says.
    pub order: String,
    /// The search was not run: the page was opened from another site, and a
    /// search costs model calls and writes metrics. The form is filled in;
    /// the user runs it with one click.
    pub held: bool,
    /// The search preferences applied as defaults, and whose they are.
    pub applied_defaults: Vec<crate::search_preferences::AppliedDefault>,
    /// The defaults this search cleared (`sans=`) that would have applied:
    /// the page offers each back (« rétablir »).
    pub removed_defaults: Vec<crate::search_preferences::AppliedDefault>,
    /// The criteria as applied, for the form to show (and the user to
    /// correct): the text's reading where the form left a field empty.
    pub applied: AppliedCriteria,
    /// The request this search serves (`demande=`), when the caller may add
    /// to its catalogue: each result offers « Ajouter au catalogue ».
    pub for_request: Option<RequestTarget>,
}

/// The search's criteria as applied, field by field (see
/// [`SearchResults::applied`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AppliedCriteria {
    pub participants: Option<u32>,
    /// Configuration keys.
    pub configurations: Vec<String>,
    pub postal_codes: Vec<String>,
    /// The area in words when it is no list of postal codes (« 2 km autour
    /// de Bastille », « Hauts-de-Seine »).
    pub zone: Option<String>,
}

/// A request a search serves: its reference and the venues its draft
/// catalogue already holds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestTarget {
    pub request_id: i64,
    pub reference: String,
    pub in_catalogue: Vec<i64>,
}

impl SearchResults {
    /// The answer to a search held back (see [`SearchResults::held`]).
    pub fn held() -> Self {
        SearchResults {
            held: true,
            ..SearchResults::default()
        }
    }
}

/// The pools a search covered, by name.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PoolScope {
    /// No pool was chosen: every pool was searched.
    pub all: bool,
    pub names: Vec<String>,
}

impl PoolScope {
    /// « Cherché dans tous les pools (5) : Hôtels, Restaurants… » or
    /// « Cherché dans le pool Hôtels. »; empty when no search ran.
    pub fn sentence(&self) -> String {
        match (self.all, self.names.as_slice()) {
            (_, []) => String::new(),
            (true, names) => format!(
                "Cherché dans tous les pools ({}) : {}.",
                names.len(),
                names.join(", ")
            ),
            (false, names) => format!("Cherché dans le pool {}.", names.join(", ")),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VenuePick {
    pub member_id: i64,
    pub code: String,
    pub name: String,
    pub city: String,
    pub postal_code: String,
    /// The room that satisfies the configuration × capacity criteria.
    pub matched_room: Option<MatchedRoom>,
    pub distance_km: Option<f64>,
    pub similarity: Option<f64>,
    pub score: f64,
    /// One French sentence: why this venue for this request.
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RejectedPick {
    #[serde(default)]
    pub member_id: i64,
    pub code: String,
    pub name: String,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchedRoom {
    pub id: i64,
    pub name: String,
    pub configuration: String,
    pub capacity: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimilarRequest {
    /// Its page (`/demandes/<id>`), when found.
    #[serde(default)]
    pub request_id: Option<i64>,
    pub reference: String,
    pub summary: String,
    pub catalogue_id: i64,
}

/// Candidates and milliseconds per stage; `None` = stage skipped. Stage 2
/// runs inside stage 1's statement: its time is part of `sql_ms`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchStats {
    pub sql_candidates: usize,
    pub vector_candidates: Option<usize>,
    pub sql_ms: f64,
    pub embed_ms: Option<f64>,
    pub rank_ms: f64,
    pub total_ms: f64,
    /// `vector`, `fts` or `none`.
    pub similarity_source: String,
    /// `llm`, `deterministic` or `direct`; `none` when no search ran.
    pub ranking_source: String,
}

impl SearchStats {
    /// False when the search was refused before running (an unknown postal
    /// code or a place outside the area alone): its notices say why.
    pub fn ran(&self) -> bool {
        self.ranking_source != "none"
    }
}

/// The venue search pipeline (implemented by the server).
#[cfg(feature = "ssr")]
#[async_trait::async_trait]
pub trait VenueSearch: Send + Sync {
    async fn pools(&self) -> Result<Vec<PoolOption>, AppError>;
    async fn search(&self, user_id: i64, form: SearchForm) -> Result<SearchResults, AppError>;
    /// One venue's sheet; `AppError::NotFound` for an unknown id.
    async fn sheet(&self, member_id: i64) -> Result<sheet::VenueSheet, AppError>;
}

/// The pools the team can search in.
#[server(endpoint = "venues/pools")]
pub async fn list_pools() -> Result<Vec<PoolOption>, AppError> {
    crate::auth::access::require_team()?;
    crate::services::service::<dyn VenueSearch>()?.pools().await
}

/// Runs the three-stage search (team only). A page opened from another site
/// gets [`SearchResults::held`] instead: a link elsewhere must not spend the
/// team's model budget with a signed-in member's session.
#[server(endpoint = "venues/search")]
pub async fn search_venues(form: SearchForm) -> Result<SearchResults, AppError> {
    let user = crate::auth::access::require_team()?;
    if crate::auth::access::is_cross_site_navigation() {
        return Ok(SearchResults::held());
    }
    crate::services::service::<dyn VenueSearch>()?
        .search(user.id, form)
        .await
}
