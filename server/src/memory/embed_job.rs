//! The `memory.embed` job: the fall-back of a write-time embedding. A
//! memory, a reminder or a lesson saved without a vector (the embedding
//! server timed out, was down, or answered another dimension) gets one job,
//! queued with the row (in the writing transaction), that embeds it as soon
//! as an embedding server answers (ADR 0033). Training sessions, whose
//! write never calls the embedding server, always get one.
//!
//! The kind is [interactive](crate::jobs::Priority::Interactive): workers
//! take it before venue batches, and each process has a worker for it
//! alone. Its texts go through the query lane, as the write's would have;
//! while the server is down the job is re-queued within 30 s
//! ([`FailMode::UnavailableSoon`](crate::jobs::FailMode::UnavailableSoon)).
//! Which rows need a vector, how they are claimed and how a vector is
//! stored are the backfill's own ([`super::backfill::batch`]): the job, the
//! backfill and a write racing them never embed a row twice nor leave a
//! stale vector.
//!
//! This file is what writers need (the kind, the key, the enqueue); the
//! handler is [`run`].
pub mod run;

use crate::db::user_data_embeddings::{self, Table};
use crate::embeddings::EmbeddingProvider;
use crate::jobs::Job;
use sqlx::{PgExecutor, PgPool};

/// Embed one row: payload `{"table": "ai_memories", "id": 42}`, key
/// `memory.embed:ai_memories:42`.
pub const KIND: &str = "memory.embed";

/// The kind training sessions were queued under before `memory.embed`
/// (payload `{"session_id": 7}`, key `training.embed:7`); still run, so the
/// jobs an older version queued are not left behind.
pub const LEGACY_TRAINING_KIND: &str = "training.embed";

pub fn payload(table: Table, id: i64) -> serde_json::Value {
    serde_json::json!({ "table": table.name(), "id": id })
}

/// One queued-or-running job per row.
pub fn dedupe_key(table: Table, id: i64) -> String {
    format!("{KIND}:{}:{id}", table.name())
}

/// The key of a training session's job under [`LEGACY_TRAINING_KIND`].
pub fn legacy_training_key(session_id: i64) -> String {
    format!("{LEGACY_TRAINING_KIND}:{session_id}")
}

/// Queues the embedding of one row (idempotent). Call it on the
/// connection that writes the row, so the job commits with it or not at all.
pub async fn enqueue(db: impl PgExecutor<'_>, table: Table, id: i64) -> sqlx::Result<()> {
    crate::jobs::enqueue(db, KIND, &payload(table, id), Some(&dedupe_key(table, id))).await?;
    Ok(())
}

/// The row a job embeds, from either kind's payload; `None` for a payload
/// no version wrote.
pub fn subject(job: &Job) -> Option<(Table, i64)> {
    let p = &job.payload;
    if let Some(session_id) = p.get("session_id").and_then(|v| v.as_i64()) {
        return Some((Table::TrainingSessions, session_id));
    }
    let table = Table::from_name(p.get("table")?.as_str()?)?;
    Some((table, p.get("id")?.as_i64()?))
}

/// Queues the rows of `table` still without a vector of `provider`'s model
/// and dimension (written before these jobs existed, or under another model
/// or size), at most `limit`: run at start-up, so a row is never left
/// unembedded for good. Idempotent. Which rows need a vector is the
/// backfill's predicate (`maxy embed memory` covers them too), so the two
/// never disagree.
pub async fn enqueue_missing(
    db: &PgPool,
    table: Table,
    provider: &dyn EmbeddingProvider,
    limit: i64,
) -> sqlx::Result<usize> {
    let dims = i32::try_from(provider.dimensions()).unwrap_or(i32::MAX);
    let ids = user_data_embeddings::pending_ids(db, table, provider.model(), dims, limit).await?;
    for id in &ids {
        enqueue(db, table, *id).await?;
    }
    Ok(ids.len())
}
