//! A session's embedding: the session is written without calling the
//! embedding server (its outage can never fail the write) and its
//! `memory.embed` job is queued in the writing transaction
//! ([`crate::memory::embed_job`]): an interactive job, run within moments by
//! the process's interactive worker through the training pipeline's query
//! lane (`MAXY_TRAINING_EMBEDDING_*`), ahead of any venue batch (ADR 0033).
//! An outage re-queues the job within 30 s, never `failed`; the session
//! meanwhile answers by its words.
use crate::db::user_data_embeddings::Table;
use crate::embeddings::EmbeddingProvider;
use crate::jobs::Outcome;
use crate::memory::embed_job::{self, run};
use sqlx::{PgExecutor, PgPool};

pub use super::text::text_of;
pub use embed_job::KIND;

/// The start-up sweep queues at most this many sessions per start.
const SWEEP_LIMIT: i64 = 10_000;

pub fn dedupe_key(session_id: i64) -> String {
    embed_job::dedupe_key(Table::TrainingSessions, session_id)
}

/// Queues the embedding of one session (idempotent).
pub async fn enqueue(db: impl PgExecutor<'_>, session_id: i64) -> sqlx::Result<()> {
    embed_job::enqueue(db, Table::TrainingSessions, session_id).await
}

/// Queues the sessions still without a vector of `provider`'s model and
/// dimension (see [`embed_job::enqueue_missing`]).
pub async fn enqueue_missing(db: &PgPool, provider: &dyn EmbeddingProvider) -> sqlx::Result<usize> {
    embed_job::enqueue_missing(db, Table::TrainingSessions, provider, SWEEP_LIMIT).await
}

/// Embeds the sessions of `ids` that still need it, as their jobs do; the
/// first outcome that is not `Done` (or `Done`).
pub async fn embed_sessions(db: &PgPool, provider: &dyn EmbeddingProvider, ids: &[i64]) -> Outcome {
    let result = run::embed_rows(db, Table::TrainingSessions, provider, ids).await;
    ids.iter()
        .map(|id| run::outcome(&result, *id))
        .find(|o| *o != Outcome::Done)
        .unwrap_or(Outcome::Done)
}
