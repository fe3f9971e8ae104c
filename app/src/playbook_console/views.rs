//! What the console's pages show, already in French: the server formats
//! times (Europe/Paris), labels tools and bands, and sends these rows. This
//! crate has no chrono and never sees a definition, only its YAML.
use serde::{Deserialize, Serialize};

/// Statuses of a playbook, as the address and forms carry them, with their
/// French labels.
pub const STATUSES: &[(&str, &str)] = &[
    ("active", "Actif"),
    ("observe", "En observation"),
    ("disabled", "Désactivé"),
];

/// The caps a station's `max_mode` may take (the select's options).
pub const MAX_MODES: &[(&str, &str)] = &[
    ("enforce", "Imposer"),
    ("suggest", "Suggérer"),
    ("observe", "Observer"),
];

/// Modes a decision may end in (the log's band filter).
pub const MODES: &[(&str, &str)] = &[
    ("enforce", "Imposé"),
    ("suggest", "Suggéré"),
    ("observe", "Observé"),
];

/// The doors a decision came through.
pub const ORIGINS: &[(&str, &str)] = &[
    ("seek_guidance", "Demande de conseil"),
    ("implicit_gate", "Première écriture"),
    ("start_playbook", "Ouverture explicite"),
    ("step", "Règle du parcours ouvert"),
    ("abandon", "Abandon"),
];

/// The profiles a caller may have (the simulator's checkboxes).
pub const PROFILES: &[(&str, &str)] = &[
    ("admin", "Administrateur"),
    ("sales", "Commercial"),
    ("senior", "Senior"),
    ("account-manager", "Chargé de compte"),
    ("junior", "Junior"),
    ("manager", "Manager"),
];

/// The French label of `key` in `table`, or `key` itself when unknown.
pub fn label_of(table: &[(&'static str, &'static str)], key: &str) -> String {
    table
        .iter()
        .find(|(k, _)| *k == key)
        .map_or_else(|| key.to_string(), |(_, label)| label.to_string())
}

/// One playbook of the list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlaybookRow {
    pub name: String,
    /// What people read (« Qualification d'une demande »).
    pub title: String,
    pub goal: String,
    /// `active`, `observe` or `disabled` (see [`STATUSES`]).
    pub status: String,
    pub version: i32,
    /// « 12/11/2026 14:05 » (Paris).
    pub updated_at: String,
}

/// One version of a playbook's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VersionView {
    pub version: i32,
    /// Who saved it (« système » for a job or the command line).
    pub by: String,
    pub at: String,
    pub source: String,
}

/// A playbook's page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlaybookDetail {
    pub row: PlaybookRow,
    /// The YAML as the admin wrote it.
    pub source: String,
    /// Newest first.
    pub versions: Vec<VersionView>,
}

/// A tool of a station: its French label first, its name for admins.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolView {
    pub name: String,
    pub label: String,
}

/// A station and its guidance settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StationView {
    pub name: String,
    pub label: String,
    pub enforce: f64,
    pub suggest: f64,
    pub margin: f64,
    /// One of [`MAX_MODES`]' keys.
    pub max_mode: String,
    pub tools: Vec<ToolView>,
    pub updated_at: String,
}

/// The decision log's filters, as its address carries them; empty means
/// all. `page` starts at 1.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DecisionFilters {
    pub station: String,
    pub band: String,
    pub origin: String,
    pub playbook: String,
    pub page: u32,
}

/// A candidate of a decision or a simulation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CandidateView {
    pub name: String,
    /// « Playbook » or the skill's French label.
    pub label: String,
    /// « 0,91 ».
    pub score: String,
    /// One of [`MODES`]' labels.
    pub band: String,
    pub eligible: bool,
    pub reason: Option<String>,
}

/// One row of the decision log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DecisionView {
    pub id: i64,
    pub at: String,
    pub who: String,
    pub station: String,
    pub origin: String,
    /// The action as the agent described it (the query scored).
    pub action: String,
    /// The mode after the cap (« Imposé »…).
    pub mode: String,
    /// The mode the scores decided, when the cap changed it.
    pub uncapped: Option<String>,
    pub opened: Option<String>,
    pub suggested: Vec<String>,
    pub outcome: Option<String>,
    pub candidates: Vec<CandidateView>,
}

/// A page of the decision log.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DecisionPage {
    pub rows: Vec<DecisionView>,
    pub page: u32,
    pub has_next: bool,
    /// (name, label) of every station, for the filter.
    pub stations: Vec<(String, String)>,
    /// (name, title) of every playbook, for the filter.
    pub playbooks: Vec<(String, String)>,
}

/// A pattern of the week: what the agent did outside any playbook.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PatternView {
    pub key: String,
    pub count: i64,
    /// « 14 fois cette semaine, … ».
    pub sentence: String,
}

/// One series of the trend chart as a table row (the chart's text
/// alternative).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrendRow {
    pub label: String,
    pub counts: Vec<i64>,
}

/// A suggested playbook waiting for an admin.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuggestionView {
    pub id: i64,
    pub sentence: String,
    pub occurrences: i32,
    pub yaml: String,
}

/// The « Motifs » page.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MotifsView {
    /// « semaine du 03/11/2026 au 09/11/2026 ».
    pub week: String,
    pub patterns: Vec<PatternView>,
    /// The trend chart, drawn by the server (SVG markup).
    pub chart_svg: String,
    /// The chart's weeks (« 03/11 »…), oldest first.
    pub weeks: Vec<String>,
    pub trends: Vec<TrendRow>,
    pub suggestions: Vec<SuggestionView>,
}

/// What the simulator is asked (from the address of its GET form).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SimulationInput {
    pub station: String,
    /// Comma-separated profile keys.
    pub profiles: String,
    /// A JSON object.
    pub context: String,
    pub action: String,
    /// When not empty, the explicit form (a JSON object) instead of the rest.
    pub explicit: String,
}

/// The decision a simulation found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimulationView {
    /// « Imposé », « Suggéré » or « Observé ».
    pub mode: String,
    pub opened: Option<String>,
    pub suggested: Vec<String>,
    pub candidates: Vec<CandidateView>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_french_and_unknown_keys_stay_visible() {
        assert_eq!(label_of(STATUSES, "observe"), "En observation");
        assert_eq!(label_of(ORIGINS, "implicit_gate"), "Première écriture");
        assert_eq!(label_of(PROFILES, "account-manager"), "Chargé de compte");
        assert_eq!(label_of(MODES, "nouveau"), "nouveau");
    }
}
