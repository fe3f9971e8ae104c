//! The memory store: writes with a write-time embedding, reads, search.
//! The thin entry point; each concern lives in its own module
//! ([`super::write`], [`super::tasks`], [`super::search`]).
//!
//! The saves a person makes from a page (a memory, its edit, a reminder)
//! run in a task of their own that the caller awaits: a person who leaves
//! the page drops the request's future, not the save (ADR 0033). A save
//! still waits at most the embedding bound plus its insert.
use super::*;
use crate::embeddings::EmbeddingProvider;
use sqlx::PgPool;
use std::future::Future;
use std::sync::Arc;

/// Memories and reminders of every user; every method is scoped to one
/// `user_id` (another user's row is [`MemoryError::NotFound`]).
#[derive(Clone)]
pub struct MemoryStore {
    pub db: PgPool,
    /// The memory pipeline's embedder (`MAXY_MEMORY_EMBEDDING_*`).
    pub embedder: Arc<dyn EmbeddingProvider>,
    /// The search's weights and bars for this model ([`super::floor::for_model`]).
    pub tuning: super::ranking::Tuning,
    /// The language model that judges the search's best candidates
    /// ([`super::judge`]); `None` or the offline planner: the ranking stands.
    pub judge: Option<Arc<dyn crate::llm::LlmProvider>>,
}

impl MemoryStore {
    pub fn new(
        db: PgPool,
        embedder: Arc<dyn EmbeddingProvider>,
        tuning: super::ranking::Tuning,
    ) -> Self {
        MemoryStore {
            db,
            embedder,
            tuning,
            judge: None,
        }
    }

    /// The same store, its searches judged by `llm` when it is a model.
    pub fn with_judge(self, llm: Arc<dyn crate::llm::LlmProvider>) -> Self {
        MemoryStore {
            judge: Some(llm),
            ..self
        }
    }

    /// Saves a memory, embedded if the pipeline answers (never fails because
    /// of it: past the bound, its job embeds it). Completes even when the
    /// caller stops waiting.
    pub async fn save_memory(&self, user_id: i64, new: NewMemory) -> Result<Memory, MemoryError> {
        let store = self.clone();
        detached(async move { super::write::save(&store, user_id, new).await }).await
    }

    /// A memory checked and embedded, to be written by [`Self::insert_memory`]
    /// (an approval prepares before it takes a connection).
    pub async fn prepare_memory(
        &self,
        user_id: i64,
        new: NewMemory,
    ) -> Result<super::write::PreparedMemory, MemoryError> {
        super::write::prepare(self, user_id, new).await
    }

    /// Writes a prepared memory on `conn` (the caller's transaction).
    pub async fn insert_memory(
        &self,
        conn: &mut sqlx::PgConnection,
        user_id: i64,
        prepared: &super::write::PreparedMemory,
    ) -> Result<Memory, MemoryError> {
        super::write::insert(conn, user_id, prepared).await
    }

    /// Rewrites a memory's title and content (re-embedded the same way).
    /// Completes even when the caller stops waiting.
    pub async fn update_memory(
        &self,
        user_id: i64,
        id: i64,
        title: String,
        content: String,
    ) -> Result<Memory, MemoryError> {
        let store = self.clone();
        detached(async move { super::write::update(&store, user_id, id, &title, &content).await })
            .await
    }

    pub async fn delete_memory(&self, user_id: i64, id: i64) -> Result<(), MemoryError> {
        super::write::delete(self, user_id, id).await
    }

    /// The user's memories, newest first.
    pub async fn list_memories(
        &self,
        user_id: i64,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<Memory>, MemoryError> {
        super::write::list(self, user_id, limit, offset).await
    }

    /// Creates a reminder, embedded if the pipeline answers (else by its
    /// job). Completes even when the caller stops waiting.
    pub async fn create_task(&self, user_id: i64, new: NewTask) -> Result<Task, MemoryError> {
        let store = self.clone();
        detached(async move { super::tasks::create(&store, user_id, new).await }).await
    }

    /// A reminder checked and embedded, to be written by [`Self::insert_task`].
    pub async fn prepare_task(
        &self,
        user_id: i64,
        new: NewTask,
    ) -> Result<super::tasks::PreparedTask, MemoryError> {
        super::tasks::prepare(self, user_id, new).await
    }

    /// Writes a prepared reminder on `conn` (the caller's transaction).
    pub async fn insert_task(
        &self,
        conn: &mut sqlx::PgConnection,
        user_id: i64,
        prepared: &super::tasks::PreparedTask,
    ) -> Result<Task, MemoryError> {
        super::tasks::insert(conn, user_id, prepared).await
    }

    /// Marks a task done; a recurring one spawns its next occurrence, which
    /// copies the parent's embedding. Returns the spawned occurrence, if any.
    pub async fn complete_task(&self, user_id: i64, id: i64) -> Result<Option<Task>, MemoryError> {
        super::tasks::complete(self, user_id, id).await
    }

    /// Moves an open task's due date.
    pub async fn snooze_task(
        &self,
        user_id: i64,
        id: i64,
        until: DateTime<Utc>,
    ) -> Result<Task, MemoryError> {
        super::tasks::snooze(self, user_id, id, until).await
    }

    /// Open tasks due before `until` (overdue included), soonest first.
    pub async fn tasks_due(
        &self,
        user_id: i64,
        until: DateTime<Utc>,
    ) -> Result<Vec<Task>, MemoryError> {
        super::tasks::due(self, user_id, until).await
    }

    /// `user_data_semantic_search`: vector → full text → recency, over the
    /// user's memories and tasks. Logs and records the best similarity.
    pub async fn search(
        &self,
        user_id: i64,
        query: &str,
        limit: usize,
    ) -> Result<SearchAnswer, MemoryError> {
        super::search::search(self, user_id, query, limit, true).await
    }

    /// The same search, logged but not recorded: what a page rendered for a
    /// GET runs (GET never writes).
    pub async fn search_unrecorded(
        &self,
        user_id: i64,
        query: &str,
        limit: usize,
    ) -> Result<SearchAnswer, MemoryError> {
        super::search::search(self, user_id, query, limit, false).await
    }

    /// How the user's searches of the last `days` days were answered.
    pub async fn source_split(&self, user_id: i64, days: i32) -> Result<SourceSplit, MemoryError> {
        super::search::source_split(self, user_id, days).await
    }
}

/// Runs `save` in a task of its own and waits for it: dropping the caller's
/// future (the client went away) no longer cancels the write half done.
/// A panic in the save is the caller's panic, as if it had run inline.
async fn detached<T: Send + 'static>(
    save: impl Future<Output = Result<T, MemoryError>> + Send + 'static,
) -> Result<T, MemoryError> {
    match tokio::spawn(save).await {
        Ok(saved) => saved,
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        // Cancelled: only when the runtime itself shuts down.
        Err(e) => Err(MemoryError::Database(sqlx::Error::Io(
            std::io::Error::other(format!("the save was cancelled: {e}")),
        ))),
    }
}
