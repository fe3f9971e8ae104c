//! The « Mémoire » page's data: what Maxy remembers for one team member
//! (memories) and what it reminds them of (reminders), searched by meaning
//! (seed 003: vector → full text → recency, with the source that answered).
//! The DTOs (dates already formatted: this crate has no chrono), the
//! [`MemoryDesk`] service the server implements, and the server functions:
//! each one checks that a team member is signed in, then makes one call
//! scoped to that member's id — nobody reads or writes another's memory.
use crate::errors::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// Recurrences a reminder may have, with their French labels.
pub const RECURRENCES: &[(&str, &str)] = &[
    ("none", "Aucune"),
    ("daily", "Chaque jour"),
    ("weekly", "Chaque semaine"),
    ("monthly", "Chaque mois"),
];

/// Where a snoozed reminder goes, with their buttons' French labels.
pub const SNOOZES: &[(&str, &str)] = &[
    ("tomorrow", "Reporter d'un jour"),
    ("monday", "Reporter à lundi"),
];

/// One memory as the page lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemoryView {
    pub id: i64,
    pub title: String,
    pub content: String,
    /// « Retenu par Maxy », « Tiré d'une conversation » or « Saisi à la main ».
    pub origin_label: String,
    /// Whether its vector is stored (search by meaning finds it).
    pub embedded: bool,
    /// « 12/11/2026 ».
    pub created_on: String,
}

/// Where an open reminder stands, by its due date: the page lists them in
/// this order, each group under its heading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DueGroup {
    Overdue,
    /// Due from now to the end of this week (Sunday, in Paris).
    ThisWeek,
    Later,
    NoDate,
}

impl DueGroup {
    /// The group's heading on the page.
    pub fn heading(self) -> &'static str {
        match self {
            DueGroup::Overdue => "En retard",
            DueGroup::ThisWeek => "Cette semaine",
            DueGroup::Later => "Plus tard",
            DueGroup::NoDate => "Sans échéance",
        }
    }

    /// `data-group` of the page's lists (tests and styles).
    pub fn key(self) -> &'static str {
        match self {
            DueGroup::Overdue => "overdue",
            DueGroup::ThisWeek => "this_week",
            DueGroup::Later => "later",
            DueGroup::NoDate => "no_date",
        }
    }
}

/// One open reminder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReminderView {
    pub id: i64,
    pub title: String,
    pub description: String,
    /// « 03/12/2026 09:00 » (Paris time), when it has a due date.
    pub due_on: Option<String>,
    pub group: DueGroup,
    /// « Chaque semaine »… `None` for a one-off.
    pub recurrence_label: Option<String>,
    pub request_id: Option<i64>,
}

/// How sure the search is that a hit answers the question (the server's
/// `memory::Confidence`). The page shows words, never a score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HitConfidence {
    /// « correspond ».
    Matches,
    /// « peut-être »: related, not sure.
    Maybe,
    /// Nothing matched: one of the latest, shown instead (no label).
    Recent,
}

impl HitConfidence {
    /// The hit's label; a recent one (nothing matched) carries none.
    pub fn label(self) -> Option<&'static str> {
        match self {
            HitConfidence::Matches => Some("correspond"),
            HitConfidence::Maybe => Some("peut-être"),
            HitConfidence::Recent => None,
        }
    }
}

/// One search result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HitView {
    /// `memory` or `task`.
    pub kind: String,
    /// « souvenir » or « rappel ».
    pub kind_label: String,
    pub id: i64,
    pub title: String,
    pub content: String,
    pub confidence: HitConfidence,
    /// Found by the query's own words rather than by meaning: the page
    /// says so (« contient vos mots »), which tells a person why it came up.
    pub by_words: bool,
    pub due_on: Option<String>,
}

/// A search's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchView {
    /// The query searched (trimmed): the page shows a posted answer only
    /// under the URL of its own query.
    pub query: String,
    /// Nothing matched: the hits are the latest memories and reminders,
    /// shown instead (« Aucun souvenir ne correspond ; voici les plus
    /// récents »).
    pub nothing_matched: bool,
    pub hits: Vec<HitView>,
    /// Not run: the page was opened from another site (see [`memory_results`]).
    pub held: bool,
}

impl SearchView {
    /// The answer to a search held back.
    pub fn held(query: String) -> Self {
        SearchView {
            query,
            nothing_matched: false,
            hits: Vec::new(),
            held: true,
        }
    }
}

/// How the member's searches of the last 30 days were answered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SourceSplitView {
    pub vector: i64,
    pub fts: i64,
    pub recency: i64,
}

impl SourceSplitView {
    pub fn total(&self) -> i64 {
        self.vector + self.fts + self.recency
    }
}

/// Everything the page shows besides a search.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MemoryBoard {
    /// Newest first.
    pub memories: Vec<MemoryView>,
    /// Open reminders in [`DueGroup`] order, soonest first within a group;
    /// at most [`REMINDERS_SHOWN`].
    pub reminders: Vec<ReminderView>,
    /// Open reminders past the cap (the page says how many).
    pub more_reminders: i64,
    pub split: SourceSplitView,
}

/// Open reminders the page lists at once.
pub const REMINDERS_SHOWN: usize = 30;

/// A reminder as the form posts it; the server checks everything.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReminderInput {
    pub title: String,
    pub description: String,
    /// `YYYY-MM-DD` (the date input) or RFC 3339; empty: no due date.
    pub due_on: String,
    /// `HH:MM`, Paris time; empty: 09:00.
    pub due_time: String,
    /// One of [`RECURRENCES`]' values.
    pub recurrence: String,
}

/// How a search of the chart was answered, in a person's words (seed 003's
/// sources `vector`, `fts`, `recency` never reach the page).
pub fn source_label(source: &str) -> &'static str {
    match source {
        "vector" => "Trouvé par le sens",
        "fts" => "Trouvé par les mots",
        _ => "Rien trouvé",
    }
}

/// The page of a search's results: `/memoire?q=…`.
pub fn results_url(query: &str) -> String {
    let mut url = String::from("/memoire?q=");
    for b in query.trim().bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            url.push(b as char);
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url
}

/// The memory service (implemented by the server). Every method is scoped
/// to `user_id`: another member's id is « introuvable », like an unknown one.
#[cfg(feature = "ssr")]
#[async_trait::async_trait]
pub trait MemoryDesk: Send + Sync {
    /// `record`: whether the search goes into the member's source split
    /// (`memory_searches`); only a posted search may write.
    async fn search(
        &self,
        user_id: i64,
        query: String,
        record: bool,
    ) -> Result<SearchView, AppError>;
    async fn overview(&self, user_id: i64) -> Result<MemoryBoard, AppError>;
    /// A memory written by hand; its id.
    async fn save(&self, user_id: i64, title: String, content: String) -> Result<i64, AppError>;
    async fn update(
        &self,
        user_id: i64,
        id: i64,
        title: String,
        content: String,
    ) -> Result<(), AppError>;
    async fn delete(&self, user_id: i64, id: i64) -> Result<(), AppError>;
    /// A reminder created from the page; its id.
    async fn create_reminder(&self, user_id: i64, input: ReminderInput) -> Result<i64, AppError>;
    /// « Fait »: the id of the next occurrence of a recurring reminder.
    async fn complete_reminder(&self, user_id: i64, id: i64) -> Result<Option<i64>, AppError>;
    /// « Reporter »: `until` is one of [`SNOOZES`]' values.
    async fn snooze_reminder(&self, user_id: i64, id: i64, until: String) -> Result<(), AppError>;
}

#[cfg(feature = "ssr")]
fn desk() -> Result<std::sync::Arc<dyn MemoryDesk>, AppError> {
    crate::services::service::<dyn MemoryDesk>()
}

// Searching. A search a person runs is a POST ([`search_memory`]: the
// search form, or « Lancer la recherche » under a search held back), which
// records it in the member's source split and then shows its results page,
// `/memoire?q=…`: without JavaScript a 303 to that GET, which renders the
// results with [`memory_results`] (searching again, unrecorded) and the
// panel that now counts the search; with JavaScript the page shows the
// posted answer as it came, goes to the same URL and reloads the panel.
// This is the app's post-then-redirect pattern (the builder's « Préparer
// le catalogue », every form of this page) rather than a search on the GET:
// GET never writes, and a link from elsewhere must not record a search in
// a signed-in member's name. The results keep a URL of their own, so a
// search can be reloaded, bookmarked and shared, without being recorded
// again.

/// The search a person runs from the page: recorded, then its results page.
#[server(endpoint = "memory/search")]
pub async fn search_memory(query: String) -> Result<SearchView, AppError> {
    use crate::auth::access;
    let user = access::require_team()?;
    access::require_post()?;
    let answer = desk()?.search(user.id, query, true).await?;
    see_results(&answer.query);
    Ok(answer)
}

/// The results of `/memoire?q=…`, never recorded (a page rendered for a
/// GET, or the page following a link with JavaScript). A page opened from
/// another site gets [`SearchView::held`]: a link elsewhere must not spend
/// an embedding in a signed-in member's name.
#[server(endpoint = "memory/results")]
pub async fn memory_results(query: String) -> Result<SearchView, AppError> {
    use crate::auth::access;
    let user = access::require_team()?;
    if access::is_cross_site_navigation() {
        return Ok(SearchView::held(query.trim().to_string()));
    }
    desk()?.search(user.id, query, false).await
}

/// Sends the browser to the results of `query`: a 303 See Other for a
/// plain form post (the browser GETs the page; leptos_axum would say 302),
/// a redirect header the page follows with JavaScript.
#[cfg(feature = "ssr")]
fn see_results(query: &str) {
    leptos_axum::redirect(&results_url(query));
    let plain_form = use_context::<http::request::Parts>().is_some_and(|parts| {
        parts
            .headers
            .get(http::header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("text/html"))
    });
    if plain_form {
        if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
            response.set_status(http::StatusCode::SEE_OTHER);
        }
    }
}

/// Memories, open reminders and the source split.
#[server(endpoint = "memory/overview")]
pub async fn memory_overview() -> Result<MemoryBoard, AppError> {
    let user = crate::auth::access::require_team()?;
    desk()?.overview(user.id).await
}

#[server(endpoint = "memory/save")]
pub async fn save_memory(title: String, content: String) -> Result<i64, AppError> {
    let user = crate::auth::access::require_team()?;
    desk()?.save(user.id, title, content).await
}

#[server(endpoint = "memory/update")]
pub async fn update_memory(id: i64, title: String, content: String) -> Result<(), AppError> {
    let user = crate::auth::access::require_team()?;
    desk()?.update(user.id, id, title, content).await
}

#[server(endpoint = "memory/delete")]
pub async fn delete_memory(id: i64) -> Result<(), AppError> {
    let user = crate::auth::access::require_team()?;
    desk()?.delete(user.id, id).await
}

#[server(endpoint = "memory/reminder")]
pub async fn create_reminder(
    title: String,
    description: String,
    due_on: String,
    due_time: String,
    recurrence: String,
) -> Result<i64, AppError> {
    let user = crate::auth::access::require_team()?;
    let input = ReminderInput {
        title,
        description,
        due_on,
        due_time,
        recurrence,
    };
    desk()?.create_reminder(user.id, input).await
}

#[server(endpoint = "memory/reminder/done")]
pub async fn complete_reminder(id: i64) -> Result<Option<i64>, AppError> {
    let user = crate::auth::access::require_team()?;
    desk()?.complete_reminder(user.id, id).await
}

#[server(endpoint = "memory/reminder/snooze")]
pub async fn snooze_reminder(id: i64, until: String) -> Result<(), AppError> {
    let user = crate::auth::access::require_team()?;
    desk()?.snooze_reminder(user.id, id, until).await
}
