//! The `training.embed` job: embeds new sessions with the training
//! pipeline's own provider (`MAXY_TRAINING_EMBEDDING_*`), so
//! `search_training` finds them by meaning. Queued by `training::create` in
//! the writing transaction; an outage re-queues the job (never `failed`),
//! and the session meanwhile answers by its words.
use crate::db::training_sessions;
use crate::db::user_data_embeddings::{self, Table};
use crate::embeddings::{EmbeddingError, EmbeddingProvider, InputType};
use crate::jobs::{FailMode, Job, JobHandler, Outcome};
use sqlx::{PgExecutor, PgPool};
use std::sync::Arc;

pub const KIND: &str = "training.embed";
/// Sessions per provider call.
pub const BATCH_SIZE: i64 = 32;

pub fn payload(session_id: i64) -> serde_json::Value {
    serde_json::json!({ "session_id": session_id })
}

pub fn dedupe_key(session_id: i64) -> String {
    format!("{KIND}:{session_id}")
}

/// Queues the embedding of one session (idempotent).
pub async fn enqueue(db: impl PgExecutor<'_>, session_id: i64) -> sqlx::Result<()> {
    crate::jobs::enqueue(
        db,
        KIND,
        &payload(session_id),
        Some(&dedupe_key(session_id)),
    )
    .await?;
    Ok(())
}

/// Queues the sessions still without a vector of `provider`'s model and
/// dimension (written before this pipeline existed, during an outage, or
/// under another model or size): run at start-up, so a lesson is never left
/// unembedded for good. Idempotent. Which rows need a vector is the
/// backfill's predicate (`maxy embed memory` covers these sessions too), so
/// the two never disagree.
pub async fn enqueue_missing(db: &PgPool, provider: &dyn EmbeddingProvider) -> sqlx::Result<usize> {
    let dims = i32::try_from(provider.dimensions()).unwrap_or(i32::MAX);
    let ids = user_data_embeddings::pending_ids(
        db,
        Table::TrainingSessions,
        provider.model(),
        dims,
        10_000,
    )
    .await?;
    for id in &ids {
        enqueue(db, *id).await?;
    }
    Ok(ids.len())
}

/// The text a session is embedded from: its event type, reason and directives.
pub fn text_of(source: &training_sessions::EmbeddingSource) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(t) = &source.event_type {
        parts.push(t.clone());
    }
    if !source.reason.trim().is_empty() {
        parts.push(source.reason.trim().to_string());
    }
    if let Some(d) = source
        .directives
        .as_ref()
        .and_then(super::directives::Directives::from_stored)
    {
        let mut line = format!("quand {}", d.trigger);
        if !d.prefer.is_empty() {
            line.push_str(&format!(" : préférer {}", d.prefer.join(", ")));
        }
        if !d.avoid.is_empty() {
            line.push_str(&format!(" ; éviter {}", d.avoid.join(", ")));
        }
        parts.push(line);
    }
    parts.join(". ")
}

pub struct TrainingEmbed {
    db: PgPool,
    provider: Arc<dyn EmbeddingProvider>,
}

impl TrainingEmbed {
    pub fn new(db: PgPool, provider: Arc<dyn EmbeddingProvider>) -> Self {
        TrainingEmbed { db, provider }
    }
}

/// Embeds the sessions of `ids` that still exist; the outcome every job of
/// the batch gets.
pub async fn embed_sessions(db: &PgPool, provider: &dyn EmbeddingProvider, ids: &[i64]) -> Outcome {
    let sources = match training_sessions::embedding_sources(db, ids).await {
        Ok(s) => s,
        Err(e) => return Outcome::failed(FailMode::Retry, format!("database error: {e}")),
    };
    if sources.is_empty() {
        return Outcome::Done;
    }
    let texts: Vec<String> = sources.iter().map(text_of).collect();
    let vectors = match provider.embed(&texts, InputType::Document).await {
        Ok(v) if v.len() == texts.len() => v,
        Ok(v) => {
            return Outcome::failed(
                FailMode::Retry,
                format!("{} vectors for {} texts", v.len(), texts.len()),
            )
        }
        Err(e @ EmbeddingError::Unavailable(_)) => {
            return Outcome::failed(FailMode::Unavailable, e)
        }
        Err(e @ EmbeddingError::DimensionMismatch { .. }) => {
            return Outcome::failed(
                FailMode::Permanent,
                format!("{e}: fix MAXY_TRAINING_EMBEDDING_MODEL / _DIMENSIONS"),
            )
        }
        Err(e) => return Outcome::failed(FailMode::Retry, e),
    };
    let dims = provider.dimensions() as usize;
    for (source, vector) in sources.iter().zip(vectors) {
        if vector.len() != dims {
            return Outcome::failed(
                FailMode::Permanent,
                format!("{} dimensions, {dims} expected", vector.len()),
            );
        }
        let vector = pgvector::Vector::from(vector);
        if let Err(e) =
            training_sessions::set_embedding(db, source.id, &vector, provider.model()).await
        {
            return Outcome::failed(FailMode::Retry, format!("database error: {e}"));
        }
    }
    Outcome::Done
}

#[async_trait::async_trait]
impl JobHandler for TrainingEmbed {
    fn kind(&self) -> &'static str {
        KIND
    }

    fn batch_size(&self) -> i64 {
        BATCH_SIZE
    }

    async fn run(&self, jobs: Vec<Job>) -> Vec<(i64, Outcome)> {
        let mut outcomes = Vec::with_capacity(jobs.len());
        let mut ids = Vec::new();
        let mut job_ids = Vec::new();
        for job in jobs {
            match job.payload.get("session_id").and_then(|v| v.as_i64()) {
                Some(id) => {
                    ids.push(id);
                    job_ids.push(job.id);
                }
                None => outcomes.push((
                    job.id,
                    Outcome::failed(
                        FailMode::Permanent,
                        format!("payload has no integer session_id: {}", job.payload),
                    ),
                )),
            }
        }
        if !ids.is_empty() {
            let outcome = embed_sessions(&self.db, self.provider.as_ref(), &ids).await;
            outcomes.extend(job_ids.into_iter().map(|id| (id, outcome.clone())));
        }
        outcomes
    }
}
