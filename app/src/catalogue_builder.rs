//! The catalogue builder as the team's pages see it: a request's catalogue
//! in two tiers, the operations that edit it (each saved at once, each
//! naming the version it was based on), the acceptance rate of the search's
//! picks, and the training workspace (« Atelier »).
//!
//! Server functions are thin adapters: they check the caller is on the team,
//! then call one method of [`CatalogueBuilder`] (implemented by the server).
use crate::errors::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The longest reason of a pick, in characters (the assistant's
/// `add_members_to_catalog` uses the same cap).
pub const MAX_REASON_CHARS: usize = 300;

/// The norm of a standard catalogue: 4 recommended + 4 compatible.
pub const SLOTS_PER_TIER: usize = 4;

/// The tier of a pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    Recommended,
    Compatible,
}

impl Tier {
    pub const BOTH: [Tier; 2] = [Tier::Recommended, Tier::Compatible];

    /// The value stored in `catalogue_picks.tier`.
    pub fn key(self) -> &'static str {
        match self {
            Tier::Recommended => "recommended",
            Tier::Compatible => "compatible",
        }
    }

    pub fn parse(key: &str) -> Result<Tier, AppError> {
        match key.trim() {
            "recommended" => Ok(Tier::Recommended),
            "compatible" => Ok(Tier::Compatible),
            other => Err(AppError::Invalid(format!(
                "Rang inconnu : « {other} » (attendu : recommended ou compatible)."
            ))),
        }
    }

    /// The French heading of the tier.
    pub fn label(self) -> &'static str {
        match self {
            Tier::Recommended => "Fortement recommandés",
            Tier::Compatible => "Compatibles",
        }
    }

    pub fn other(self) -> Tier {
        match self {
            Tier::Recommended => Tier::Compatible,
            Tier::Compatible => Tier::Recommended,
        }
    }
}

/// The short summary of the request shown above the tiers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestSummary {
    pub reference: String,
    pub description: String,
    pub event_type: Option<String>,
    pub participants: Option<i32>,
    /// French labels of the requested configurations.
    pub configurations: Vec<String>,
    /// Area wording and postal codes, as one line.
    pub area: String,
    pub dates: Option<String>,
    pub pool: String,
    /// Invented in the training workspace.
    pub workspace_scenario: bool,
}

/// A room of a picked venue that holds the group in a requested layout.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoomChoice {
    pub id: i64,
    pub name: String,
    /// Configuration key (`cocktail`…) in which it holds the group.
    pub configuration: String,
    pub capacity: i32,
}

/// One venue of the catalogue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PickView {
    pub member_id: i64,
    pub code: String,
    pub name: String,
    pub city: String,
    pub postal_code: String,
    pub tier: Tier,
    pub position: i32,
    /// The reason as the organizer reads it (no internal signal).
    pub reason: String,
    /// What only the team sees: « favori de l'équipe », « déjà proposé 2
    /// fois », « répond en 8 h en général »… Never sent to the organizer.
    #[serde(default)]
    pub team_note: Vec<String>,
    /// The pinned room, when one is.
    pub room: Option<RoomChoice>,
    /// A pinned room that no longer holds the group (request changed since).
    pub room_unfit: Option<String>,
    /// The rooms that may be pinned: only those holding the group in a
    /// requested configuration.
    pub room_options: Vec<RoomChoice>,
    /// `ai` (search, assistant) or `team`.
    pub added_by: String,
    /// From the request's zone (its centre, else its postal codes'), in km;
    /// `None` when either place is unknown.
    #[serde(default)]
    pub distance_km: Option<f64>,
    /// The venue's pool, when it is not the request's.
    #[serde(default)]
    pub other_pool: Option<String>,
}

/// How many of the search's picks the team kept, moved or replaced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Acceptance {
    pub search_picks: i32,
    /// Still in the catalogue, in the tier the search gave.
    pub kept: i32,
    /// Still in the catalogue, in the other tier.
    pub moved: i32,
    /// Removed from the catalogue.
    pub replaced: i32,
}

impl Acceptance {
    /// Kept ÷ search picks, in whole percent (`None` without picks).
    pub fn rate_percent(&self) -> Option<i32> {
        (self.search_picks > 0)
            .then(|| ((f64::from(self.kept) * 100.0) / f64::from(self.search_picks)).round() as i32)
    }
}

/// A catalogue as the builder shows it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CatalogueView {
    pub catalogue_id: i64,
    pub request_id: i64,
    /// `standard` or `training`.
    pub kind: String,
    /// `draft`, `sent` or `archived`.
    pub status: String,
    /// What every edit must name (optimistic concurrency).
    pub version: i32,
    pub request: RequestSummary,
    pub recommended: Vec<PickView>,
    pub compatible: Vec<PickView>,
    /// Short tiers, over-norm tiers… (French; never a block).
    pub warnings: Vec<String>,
    /// The most picks this catalogue may hold (16, or 25 in training).
    pub max_picks: usize,
    pub acceptance: Option<Acceptance>,
    /// « Modifié par Camille à 14:32 ».
    pub last_edit: Option<String>,
    pub sent_on: Option<String>,
    /// What the latest fill from the search said (French, transient).
    pub notices: Vec<String>,
}

impl CatalogueView {
    /// Sent or archived catalogues are read-only in the builder.
    pub fn read_only(&self) -> bool {
        self.status != "draft"
    }

    pub fn is_training(&self) -> bool {
        self.kind == "training"
    }

    pub fn tier(&self, tier: Tier) -> &[PickView] {
        match tier {
            Tier::Recommended => &self.recommended,
            Tier::Compatible => &self.compatible,
        }
    }
}

/// What the builder page opens on. A draft is created only by « Préparer
/// le catalogue » ([`open_catalogue`], a POST): GET never writes, and a link
/// from anywhere can make a signed-in browser open the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BuilderStart {
    /// The request's catalogue of the kind asked (see [`CatalogueBuilder::open`]).
    Catalogue(Box<CatalogueView>),
    /// None yet: the request alone, with the button that prepares it.
    NotPrepared {
        request_id: i64,
        training: bool,
        request: RequestSummary,
    },
}

/// One edit of a catalogue (the server functions build it from their
/// arguments; every one is saved at once).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Edit {
    /// A venue by code (or exact name) at the end of `tier`.
    Add {
        member: String,
        tier: Tier,
    },
    Remove {
        member_id: i64,
    },
    /// To the end of the other tier.
    Move {
        member_id: i64,
        tier: Tier,
    },
    /// To `position` (0-based) within its tier.
    Reorder {
        member_id: i64,
        position: i64,
    },
    /// `None` unpins.
    PinRoom {
        member_id: i64,
        room_id: Option<i64>,
    },
    Reason {
        member_id: i64,
        reason: String,
    },
}

/// A venue the add box offers (from every pool: the team chooses).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemberOption {
    pub code: String,
    pub name: String,
    pub city: String,
    /// Its pool's name, so a venue of another pool is told apart.
    #[serde(default)]
    pub pool: String,
}

/// What « Ajouter au catalogue » from a search did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AddedFromSearch {
    /// False: the venue was already in the catalogue (nothing written).
    pub added: bool,
    /// « Ajouté aux compatibles de D-2026-00012. »
    pub message: String,
}

/// A past request the workspace can train on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScenarioOption {
    pub request_id: i64,
    pub reference: String,
    pub summary: String,
    pub event_type: Option<String>,
    pub participants: Option<i32>,
    pub workspace_scenario: bool,
    /// Picks in its training catalogue, when it has one.
    pub training_picks: Option<i64>,
}

/// A request invented in the workspace (« Atelier »). `default`: the form
/// encoding leaves out empty lists and absent values.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct InventedScenario {
    pub pool: String,
    pub description: String,
    pub participants: Option<i64>,
    pub configurations: Vec<String>,
    /// Comma- or space-separated postal codes.
    pub postal_codes: String,
    pub area: String,
    pub event_type: String,
}

/// The catalogue builder (implemented by the server). `user_id` is the
/// caller, already checked to be on the team.
#[cfg(feature = "ssr")]
#[async_trait::async_trait]
pub trait CatalogueBuilder: Send + Sync {
    /// The request's catalogue of this kind, or the request alone when it
    /// has none: what [`Self::open`] would show, without creating anything.
    async fn find(&self, request_id: i64, training: bool) -> Result<BuilderStart, AppError>;
    /// The request's draft of this kind (created when there is none: only
    /// ever on a POST); for a standard catalogue without draft whose latest
    /// one was sent, that sent one (read-only).
    async fn open(
        &self,
        user_id: i64,
        request_id: i64,
        training: bool,
    ) -> Result<CatalogueView, AppError>;
    async fn view(&self, catalogue_id: i64) -> Result<CatalogueView, AppError>;
    /// Runs the venue search for the request and fills the empty slots.
    async fn fill_from_search(
        &self,
        user_id: i64,
        catalogue_id: i64,
        version: i32,
    ) -> Result<CatalogueView, AppError>;
    async fn edit(
        &self,
        user_id: i64,
        catalogue_id: i64,
        version: i32,
        edit: Edit,
    ) -> Result<CatalogueView, AppError>;
    /// A sent catalogue copied into a new draft.
    async fn new_version(&self, user_id: i64, catalogue_id: i64)
        -> Result<CatalogueView, AppError>;
    /// « Ajouter au catalogue de D-… » on a search result: the venue goes
    /// into the request's standard draft (prepared when there is none), in
    /// the first tier with room; already there, nothing changes.
    async fn add_from_search(
        &self,
        user_id: i64,
        request_id: i64,
        member_id: i64,
    ) -> Result<AddedFromSearch, AppError>;
    /// Active venues of every pool by code or name.
    async fn lookup(&self, catalogue_id: i64, query: String)
        -> Result<Vec<MemberOption>, AppError>;
    /// The acceptance of the request's latest standard catalogue.
    async fn acceptance(&self, request_id: i64) -> Result<Option<Acceptance>, AppError>;
    async fn scenarios(&self) -> Result<Vec<ScenarioOption>, AppError>;
    /// Stores an invented request with its training draft; the request's id.
    async fn invent(&self, user_id: i64, scenario: InventedScenario) -> Result<i64, AppError>;
}

#[cfg(feature = "ssr")]
fn builder() -> Result<std::sync::Arc<dyn CatalogueBuilder>, AppError> {
    crate::services::service::<dyn CatalogueBuilder>()
}

/// What the builder page of a request shows (standard, or training with
/// `training`); reads only.
#[server(endpoint = "catalogues/find")]
pub async fn find_catalogue(request_id: i64, training: bool) -> Result<BuilderStart, AppError> {
    crate::auth::access::require_team()?;
    builder()?.find(request_id, training).await
}

/// « Préparer le catalogue »: opens the request's catalogue, creating its
/// draft when there is none. Posted only: never while a page renders.
#[server(endpoint = "catalogues/open")]
pub async fn open_catalogue(request_id: i64, training: bool) -> Result<CatalogueView, AppError> {
    let user = crate::auth::access::require_team()?;
    crate::auth::access::require_post()?;
    builder()?.open(user.id, request_id, training).await
}

#[server(endpoint = "catalogues/view")]
pub async fn load_catalogue(catalogue_id: i64) -> Result<CatalogueView, AppError> {
    crate::auth::access::require_team()?;
    builder()?.view(catalogue_id).await
}

/// « Remplir depuis la recherche ».
#[server(endpoint = "catalogues/fill")]
pub async fn fill_catalogue_from_search(
    catalogue_id: i64,
    version: i32,
) -> Result<CatalogueView, AppError> {
    let user = crate::auth::access::require_team()?;
    builder()?
        .fill_from_search(user.id, catalogue_id, version)
        .await
}

#[server(endpoint = "catalogues/add")]
pub async fn add_catalogue_pick(
    catalogue_id: i64,
    version: i32,
    member: String,
    tier: String,
) -> Result<CatalogueView, AppError> {
    let user = crate::auth::access::require_team()?;
    let edit = Edit::Add {
        member,
        tier: Tier::parse(&tier)?,
    };
    builder()?.edit(user.id, catalogue_id, version, edit).await
}

#[server(endpoint = "catalogues/remove")]
pub async fn remove_catalogue_pick(
    catalogue_id: i64,
    version: i32,
    member_id: i64,
) -> Result<CatalogueView, AppError> {
    let user = crate::auth::access::require_team()?;
    let edit = Edit::Remove { member_id };
    builder()?.edit(user.id, catalogue_id, version, edit).await
}

#[server(endpoint = "catalogues/move")]
pub async fn move_catalogue_pick(
    catalogue_id: i64,
    version: i32,
    member_id: i64,
    tier: String,
) -> Result<CatalogueView, AppError> {
    let user = crate::auth::access::require_team()?;
    let edit = Edit::Move {
        member_id,
        tier: Tier::parse(&tier)?,
    };
    builder()?.edit(user.id, catalogue_id, version, edit).await
}

#[server(endpoint = "catalogues/reorder")]
pub async fn reorder_catalogue_pick(
    catalogue_id: i64,
    version: i32,
    member_id: i64,
    position: i64,
) -> Result<CatalogueView, AppError> {
    let user = crate::auth::access::require_team()?;
    let edit = Edit::Reorder {
        member_id,
        position,
    };
    builder()?.edit(user.id, catalogue_id, version, edit).await
}

/// Pins a room (`room_id` absent or 0: unpins).
#[server(endpoint = "catalogues/pin")]
pub async fn pin_catalogue_room(
    catalogue_id: i64,
    version: i32,
    member_id: i64,
    room_id: Option<i64>,
) -> Result<CatalogueView, AppError> {
    let user = crate::auth::access::require_team()?;
    let edit = Edit::PinRoom {
        member_id,
        room_id: room_id.filter(|id| *id != 0),
    };
    builder()?.edit(user.id, catalogue_id, version, edit).await
}

#[server(endpoint = "catalogues/reason")]
pub async fn edit_catalogue_reason(
    catalogue_id: i64,
    version: i32,
    member_id: i64,
    reason: String,
) -> Result<CatalogueView, AppError> {
    let user = crate::auth::access::require_team()?;
    let edit = Edit::Reason { member_id, reason };
    builder()?.edit(user.id, catalogue_id, version, edit).await
}

/// « Nouvelle version »: a sent catalogue copied into a new draft.
#[server(endpoint = "catalogues/new-version")]
pub async fn new_catalogue_version(catalogue_id: i64) -> Result<CatalogueView, AppError> {
    let user = crate::auth::access::require_team()?;
    builder()?.new_version(user.id, catalogue_id).await
}

/// « Ajouter au catalogue de D-… » from the Lieux page (POST only: it may
/// prepare the draft).
#[server(endpoint = "catalogues/add-from-search")]
pub async fn add_from_search(request_id: i64, member_id: i64) -> Result<AddedFromSearch, AppError> {
    let user = crate::auth::access::require_team()?;
    crate::auth::access::require_post()?;
    builder()?
        .add_from_search(user.id, request_id, member_id)
        .await
}

#[server(endpoint = "catalogues/lookup")]
pub async fn lookup_catalogue_members(
    catalogue_id: i64,
    query: String,
) -> Result<Vec<MemberOption>, AppError> {
    crate::auth::access::require_team()?;
    builder()?.lookup(catalogue_id, query).await
}

#[server(endpoint = "catalogues/acceptance")]
pub async fn catalogue_acceptance(request_id: i64) -> Result<Option<Acceptance>, AppError> {
    crate::auth::access::require_team()?;
    builder()?.acceptance(request_id).await
}

#[server(endpoint = "catalogues/workspace/scenarios")]
pub async fn workspace_scenarios() -> Result<Vec<ScenarioOption>, AppError> {
    crate::auth::access::require_team()?;
    builder()?.scenarios().await
}

/// Stores an invented request (with its training draft: « Créer et
/// entraîner ») and answers with its training builder's URL.
#[server(endpoint = "catalogues/workspace/invent")]
pub async fn invent_workspace_scenario(scenario: InventedScenario) -> Result<String, AppError> {
    let user = crate::auth::access::require_team()?;
    let request_id = builder()?.invent(user.id, scenario).await?;
    Ok(training_href(request_id))
}

/// The builder of a request's standard catalogue.
pub fn builder_href(request_id: i64) -> String {
    format!("/demandes/{request_id}/catalogue")
}

/// The builder of a request's training catalogue (the workspace's).
pub fn training_href(request_id: i64) -> String {
    format!("/demandes/{request_id}/catalogue?atelier=1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_parse_their_keys_only() {
        assert_eq!(Tier::parse("recommended").ok(), Some(Tier::Recommended));
        assert_eq!(Tier::parse(" compatible ").ok(), Some(Tier::Compatible));
        assert!(Tier::parse("rejected").is_err());
        assert!(Tier::parse("").is_err());
    }

    #[test]
    fn the_rate_is_the_share_kept() {
        let a = Acceptance {
            search_picks: 8,
            kept: 5,
            moved: 2,
            replaced: 1,
        };
        assert_eq!(a.rate_percent(), Some(63));
        assert_eq!(Acceptance::default().rate_percent(), None);
    }
}
