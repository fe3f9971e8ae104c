//! The arguments of every tool, as Rust types: their JSON Schemas (what the
//! model sees) are generated from them, and a model's input is accepted only
//! if it deserializes into them (unknown fields refused) and passes
//! `validate`. Nothing here has a `confirmed`-like field: a write is
//! approved by a person on a card, never by an argument.
//!
//! `request_id` left out means the conversation's request (DEMANDE EN
//! COURS) for read tools; write tools always name it, so a card shows
//! exactly what it will change.
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------- read tools

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetRequest {
    /// The request's id; the conversation's request when left out.
    pub request_id: Option<i64>,
    /// Or its reference (« D-2025-00007 »), when that is what the user gave.
    pub reference: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListRequestEmails {
    pub request_id: Option<i64>,
    /// At most this many e-mails, newest first (1-20, default 10).
    pub limit: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindSimilarRequests {
    /// The request to compare with; the conversation's request when left out.
    pub request_id: Option<i64>,
}

/// The venue search (three stages) with the conversation's request as
/// default context.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchMembers {
    /// The need in French, as the organizer would say it.
    pub text: String,
    /// Pool slug; the request's pool when left out, else every pool.
    pub pool: Option<String>,
    /// Group size (hard filter with the configurations).
    pub participants: Option<u32>,
    /// Room layouts: reunion, u, theatre, cabaret, ecole, banquet, cocktail.
    #[serde(default)]
    pub configurations: Vec<String>,
    /// Five-digit French postal codes.
    #[serde(default)]
    pub postal_codes: Vec<String>,
    /// A centre and a radius in km.
    pub near: Option<Near>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Near {
    pub lat: f64,
    pub lng: f64,
    pub radius_km: f64,
}

/// One venue by its code (e.g. `PAR-00042`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetMember {
    pub code: String,
}

/// Signals of up to 16 venues: team favourites, response rate and delay,
/// past catalogues.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetMemberSignals {
    pub codes: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountMembers {
    pub pool: Option<String>,
    /// Five-digit postal codes; with `departments`, either will do.
    #[serde(default)]
    pub postal_codes: Vec<String>,
    /// Départements of Île-de-France (and the Oise), two digits: `93`.
    #[serde(default)]
    pub departments: Vec<String>,
    /// Only venues within this radius of a centre.
    pub near: Option<Near>,
    /// Ruled out whatever else matches (« sauf le 17e »).
    #[serde(default)]
    pub excluded_postal_codes: Vec<String>,
    #[serde(default)]
    pub excluded_departments: Vec<String>,
    /// Kinds of venue ruled out: rooftop, péniche, sous-sol, cave-voûtée,
    /// loft, industriel, extérieur.
    #[serde(default)]
    pub excluded_kinds: Vec<String>,
    /// Only venues whose sheet carries every one of these tags (terrasse,
    /// parking, accessible-pmr…).
    #[serde(default)]
    pub tags: Vec<String>,
    /// Tags a venue must not carry (« sans parking »).
    #[serde(default)]
    pub excluded_tags: Vec<String>,
    /// With `min_capacity`: rooms holding that many in this layout.
    pub configuration: Option<String>,
    pub min_capacity: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchTraining {
    /// What the new request is about, by meaning.
    pub text: Option<String>,
    /// seminaire, soiree, diner, cocktail… (lower-case).
    pub event_type: Option<String>,
    /// 1-10, default 5.
    pub limit: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchKnowledge {
    pub query: String,
    /// Only this venue's entries.
    pub member_code: Option<String>,
    /// 1-10, default 5.
    pub limit: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetSearchPreferences {
    pub request_id: Option<i64>,
}

/// The caller's own memories and reminders, by meaning (vector → full
/// text → recency).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UserDataSemanticSearch {
    /// What to remember, in the team's words (« médicaments cette semaine »).
    pub query: String,
    /// 1-10, default 5.
    pub limit: Option<u32>,
}

/// Requests listed and counted with the « Demandes » page's filters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListRequests {
    /// new, qualifying, catalogue_sent, won, lost, cancelled; or open (new
    /// and qualifying: waiting for a catalogue, « à qualifier »).
    pub status: Option<String>,
    /// Pool slug (chateaux, hotels…).
    pub pool: Option<String>,
    /// Events on or after this day (AAAA-MM-JJ).
    pub from: Option<String>,
    /// Events on or before this day (AAAA-MM-JJ).
    pub to: Option<String>,
    /// Only the requests assigned to the caller.
    #[serde(default)]
    pub mine: bool,
    /// Words of the event, a reference or an organizer's name.
    pub text: Option<String>,
    /// At most this many requests listed, newest first (1-20, default 10);
    /// the counts cover every match.
    pub limit: Option<u32>,
}

/// A request's catalogues with their picks and the organizer's feedback.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetRequestCatalogues {
    /// The request's id; the conversation's request when left out.
    pub request_id: Option<i64>,
}

// --------------------------------------------------------------- write tools

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    Recommended,
    Compatible,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CataloguePick {
    pub member_code: String,
    pub tier: Tier,
    /// One French sentence: why this venue for this request.
    pub reason: String,
    /// The room to pin (search_members' matched room), when known.
    pub room_id: Option<i64>,
}

/// Adds venues to the request's draft catalogue: 1 to 16 picks, at most 4
/// recommended and 4 compatible in chat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddMembersToCatalog {
    pub request_id: i64,
    pub picks: Vec<CataloguePick>,
    /// When the draft already holds venues: « replace » (the draft becomes
    /// these picks) or « complete » (these go into its free places only;
    /// venues already in it are left out). Left out: added when they fit,
    /// else the free places are completed, else the draft is replaced; the
    /// card says which.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<DraftMode>,
}

/// What an `add_members_to_catalog` does to a draft that holds venues.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DraftMode {
    Replace,
    Complete,
}

/// Changes fields of a request; fields left out are kept.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateRequest {
    pub request_id: i64,
    /// new, qualifying, catalogue_sent, won, lost, cancelled.
    pub status: Option<String>,
    pub team_memo: Option<String>,
    pub search_hints: Option<String>,
    pub participants: Option<u32>,
    pub event_type: Option<String>,
    pub configurations: Option<Vec<String>>,
    pub postal_codes: Option<Vec<String>>,
}

/// Asks a venue whether it is free for the request's dates (a magic link
/// is sent; the venue answers on its own page).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequestAvailabilityCheck {
    pub request_id: i64,
    pub member_code: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Directives {
    /// The kind of event the rule applies to: « festif », « séminaire »…
    pub trigger: String,
    #[serde(default)]
    pub prefer: Vec<String>,
    #[serde(default)]
    pub avoid: Vec<String>,
}

/// Records what the team taught: a verdict on a venue for a request, or a
/// general guideline (with directives).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTrainingSession {
    pub request_id: Option<i64>,
    pub member_code: Option<String>,
    /// approved, rejected, demoted, guideline.
    pub verdict: String,
    pub reason: String,
    /// geo, capacity, ambiance, service, other.
    pub category: String,
    pub event_type: Option<String>,
    pub directives: Option<Directives>,
}

/// A fact about a venue for the knowledge base.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddKnowledgeEntry {
    pub member_code: String,
    pub title: String,
    pub content: String,
}

/// A durable fact for the caller's memory (« le Pavillon ne prend plus de
/// groupes le dimanche »).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SaveMemory {
    pub title: Option<String>,
    pub content: String,
}

/// A reminder for the caller, optionally about a request.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateReminder {
    pub title: String,
    pub description: Option<String>,
    /// RFC 3339 (`2026-12-03T09:00:00+01:00`) or a date (`2026-12-03`, 08:00 UTC).
    pub due_at: String,
    /// none, daily, weekly, monthly (default none).
    pub recurrence: Option<String>,
    pub request_id: Option<i64>,
}

/// What the assistant is about to do, in a sentence, to learn which
/// playbooks and skills fit (`seek_guidance`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeekGuidance {
    /// The action described in French (« qualifier la demande D-2025-00043 »).
    pub action: String,
}

/// Opens a playbook by its name (`start_playbook`); an open one is replaced.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StartPlaybook {
    /// The playbook's name, as `seek_guidance` gives it (`qualification-demande`).
    pub name: String,
}

/// Ends the open playbook before its last step (`abandon_playbook`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AbandonPlaybook {
    /// Why, in a sentence the team reads in the decision log.
    pub reason: String,
}
