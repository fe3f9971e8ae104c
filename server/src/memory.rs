//! Team members' memory (seed 003): facts the assistant remembers across
//! conversations (`ai_memories`) and reminders (`tasks`), written with an
//! embedding when the memory pipeline answers and without one when it does
//! not (never a failed write), searched vector → full text → recency.
//!
//! [`MemoryStore`] is the one entry point: the memory page, the assistant's
//! tools and executors, and the conversation summariser all write and search
//! through it.
pub mod backfill;
pub mod calibration;
pub mod dates;
pub mod embed;
pub mod embed_job;
pub mod floor;
pub mod judge;
pub mod ranking;
pub mod recurrence;
pub mod search;
pub mod store;
pub mod tasks;
pub mod validate;
pub mod vector_index;
pub mod write;

pub use store::MemoryStore;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// Longest memory content or task description accepted (characters).
pub const MAX_CONTENT_CHARS: usize = 4_000;
/// Longest title accepted (characters).
pub const MAX_TITLE_CHARS: usize = 200;
/// Longest search query accepted (characters).
pub const MAX_QUERY_CHARS: usize = 500;

#[derive(Debug, thiserror::Error)]
pub enum MemoryError {
    /// A search with nothing to look for.
    #[error("la recherche est vide")]
    EmptyQuery,
    /// A text field is empty (the field's French name).
    #[error("{0} est vide")]
    Empty(&'static str),
    /// A text field is longer than allowed.
    #[error("{field} dépasse {max} caractères ({got})")]
    TooLong {
        field: &'static str,
        max: usize,
        got: usize,
    },
    /// An unknown id, or another user's: the caller is never told which.
    #[error("introuvable")]
    NotFound,
    /// A recurrence rule this product does not understand.
    #[error("récurrence invalide : {0}")]
    InvalidRecurrence(String),
    /// A date that cannot be used (a snooze into the past).
    #[error("date invalide : {0}")]
    InvalidDate(&'static str),
    /// The task is already done or cancelled: it cannot be snoozed.
    #[error("ce rappel n'est plus ouvert")]
    NotOpen,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// How a memory was written (`ai_memories.source`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryOrigin {
    /// The assistant's `save_memory` tool (after approval).
    Tool,
    /// The conversation summariser.
    Summary,
    /// Written by hand on the memory page.
    Manual,
}

#[derive(Clone, Debug)]
pub struct NewMemory {
    pub title: String,
    pub content: String,
    pub origin: MemoryOrigin,
    pub conversation_id: Option<i64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Memory {
    pub id: i64,
    pub title: String,
    pub content: String,
    pub origin: MemoryOrigin,
    pub conversation_id: Option<i64>,
    /// False while the row waits for its embedding job.
    pub embedded: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Clone, Debug)]
pub struct NewTask {
    pub title: String,
    pub description: String,
    pub due_at: Option<DateTime<Utc>>,
    /// iCalendar-style rule (`FREQ=WEEKLY;BYDAY=MO`); `None` = one-off.
    pub recurrence: Option<String>,
    pub request_id: Option<i64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    Open,
    Done,
    Cancelled,
}

#[derive(Clone, Debug, Serialize)]
pub struct Task {
    pub id: i64,
    pub title: String,
    pub description: String,
    pub due_at: Option<DateTime<Utc>>,
    pub status: TaskStatus,
    pub recurrence: Option<String>,
    pub parent_task_id: Option<i64>,
    pub request_id: Option<i64>,
    pub embedded: bool,
    pub created_at: DateTime<Utc>,
}

/// Which step of the chain answered (seed 003, part 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SearchSource {
    Vector,
    Fts,
    Recency,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HitKind {
    Memory,
    Task,
}

/// How sure the search is that a hit answers the question; what the page
/// and the assistant's tool say instead of a bare score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// « correspond »: the evidence clears the tuned bar.
    Matches,
    /// « peut-être »: related, not sure.
    Maybe,
    /// Nothing matched: one of the latest memories, shown instead
    /// (« aucun souvenir ne correspond ; voici les plus récents »).
    Recent,
}

#[derive(Clone, Debug, Serialize)]
pub struct Hit {
    pub kind: HitKind,
    pub id: i64,
    pub title: String,
    /// The memory's content or the task's description.
    pub content: String,
    /// Cosine similarity for vector hits, the full-text rank otherwise
    /// (recency hits: 0).
    pub score: f64,
    /// The step that found this hit (a fused answer mixes vector and fts).
    pub matched_by: SearchSource,
    pub confidence: Confidence,
    pub due_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SearchAnswer {
    pub source: SearchSource,
    pub hits: Vec<Hit>,
    /// The best cosine similarity seen, above the floor or not (logged for
    /// recalibration); `None` when no query vector was available.
    pub best_similarity: Option<f64>,
}

/// How recent searches were answered, for the memory page's chart.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SourceSplit {
    pub vector: i64,
    pub fts: i64,
    pub recency: i64,
}
