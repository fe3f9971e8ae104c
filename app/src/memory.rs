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

/// Where a snoozed reminder goes, with their French labels.
pub const SNOOZES: &[(&str, &str)] = &[("tomorrow", "+1 jour"), ("monday", "Lundi prochain")];

/// One memory as the page lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemoryView {
    pub id: i64,
    pub title: String,
    pub content: String,
    /// « Assistant », « Résumé de conversation » or « Saisie manuelle ».
    pub origin_label: String,
    /// Whether its vector is stored (search by meaning finds it).
    pub embedded: bool,
    /// « 12/11/2026 ».
    pub created_on: String,
}

/// One open reminder due this week (overdue ones included).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReminderView {
    pub id: i64,
    pub title: String,
    pub description: String,
    /// « 03/12/2026 09:00 » (UTC), when it has a due date.
    pub due_on: Option<String>,
    pub overdue: bool,
    /// « Chaque semaine »… `None` for a one-off.
    pub recurrence_label: Option<String>,
    pub request_id: Option<i64>,
}

/// One search result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HitView {
    /// `memory` or `task`.
    pub kind: String,
    /// « mémoire » or « rappel ».
    pub kind_label: String,
    pub id: i64,
    pub title: String,
    pub content: String,
    /// Cosine similarity (vector), full-text rank (fts), 0 (recency).
    pub score: f64,
    /// `vector`, `fts` or `recency`: the step that found this hit.
    pub matched_by: String,
    pub due_on: Option<String>,
}

/// A search's answer: which step of the chain answered, and its hits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchView {
    /// `vector`, `fts` or `recency`.
    pub source: String,
    pub hits: Vec<HitView>,
    /// Not run: the page was opened from another site (see [`search_memory`]).
    pub held: bool,
}

impl SearchView {
    /// The answer to a search held back.
    pub fn held() -> Self {
        SearchView {
            source: String::new(),
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
    /// Due before the end of this week, overdue first.
    pub reminders: Vec<ReminderView>,
    pub split: SourceSplitView,
}

/// A reminder as the form posts it; the server checks everything.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReminderInput {
    pub title: String,
    pub description: String,
    /// `YYYY-MM-DD` (the date input) or RFC 3339; empty: no due date.
    pub due_on: String,
    /// `HH:MM` (UTC); empty: 08:00.
    pub due_time: String,
    /// One of [`RECURRENCES`]' values.
    pub recurrence: String,
}

/// The label of a search source (the page's badge).
pub fn source_label(source: &str) -> &'static str {
    match source {
        "vector" => "vecteur",
        "fts" => "plein texte",
        _ => "récence",
    }
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

/// The search box (a GET form: the page reads `?q=`). A page opened from
/// another site gets [`SearchView::held`]: a link elsewhere must neither
/// spend an embedding nor write in a signed-in member's name. Only a search
/// the page posts (this function called over HTTP, as the page does with
/// JavaScript) is recorded; a page rendered for a GET searches without
/// writing (GET never writes).
#[server(endpoint = "memory/search")]
pub async fn search_memory(query: String) -> Result<SearchView, AppError> {
    use crate::auth::access;
    let user = access::require_team()?;
    if access::is_cross_site_navigation() {
        return Ok(SearchView::held());
    }
    desk()?.search(user.id, query, access::is_post()).await
}

/// Memories, reminders due this week and the source split.
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
