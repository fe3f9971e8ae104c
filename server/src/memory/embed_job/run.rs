//! The handler of `memory.embed` (and of the legacy `training.embed`): the
//! jobs of a batch grouped by table, each table's rows embedded in one
//! query-lane call by the backfill's own batch ([`batch::run_ids`]), one
//! outcome per job.
use super::{subject, KIND, LEGACY_TRAINING_KIND};
use crate::db::user_data_embeddings::Table;
use crate::embeddings::{EmbeddingError, EmbeddingProvider, Urgency};
use crate::jobs::{FailMode, Job, JobHandler, Outcome, Priority, Registry};
use crate::memory::backfill::batch::{self, BatchError, BatchReport, Pipeline};
use sqlx::PgPool;
use std::sync::Arc;

/// Rows per batch: a few short texts, so the query lane they share with
/// searches is never held long (a search waits for at most one batch).
pub const BATCH_SIZE: i64 = 8;

/// Adds `memory.embed` and the legacy `training.embed`, run with the memory
/// pipeline's provider (memories, tasks) and the training pipeline's
/// (sessions).
pub fn register_jobs(
    registry: Registry,
    db: &PgPool,
    memory: Arc<dyn EmbeddingProvider>,
    training: Arc<dyn EmbeddingProvider>,
) -> Registry {
    let handler = |kind| MemoryEmbed {
        kind,
        db: db.clone(),
        memory: memory.clone(),
        training: training.clone(),
    };
    registry
        .with(handler(KIND))
        .with(handler(LEGACY_TRAINING_KIND))
}

pub struct MemoryEmbed {
    kind: &'static str,
    db: PgPool,
    memory: Arc<dyn EmbeddingProvider>,
    training: Arc<dyn EmbeddingProvider>,
}

impl MemoryEmbed {
    fn provider(&self, table: Table) -> &dyn EmbeddingProvider {
        match table {
            Table::Memories | Table::Tasks => self.memory.as_ref(),
            Table::TrainingSessions => self.training.as_ref(),
        }
    }
}

#[async_trait::async_trait]
impl JobHandler for MemoryEmbed {
    fn kind(&self) -> &'static str {
        self.kind
    }

    fn batch_size(&self) -> i64 {
        BATCH_SIZE
    }

    fn priority(&self) -> Priority {
        Priority::Interactive
    }

    async fn run(&self, jobs: Vec<Job>) -> Vec<(i64, Outcome)> {
        let mut outcomes = Vec::with_capacity(jobs.len());
        let mut rows: Vec<(i64, Table, i64)> = Vec::with_capacity(jobs.len());
        for job in &jobs {
            match subject(job) {
                Some((table, id)) => rows.push((job.id, table, id)),
                None => outcomes.push((
                    job.id,
                    Outcome::failed(
                        FailMode::Permanent,
                        format!("payload names no row: {}", job.payload),
                    ),
                )),
            }
        }
        for table in Table::ALL {
            let mine: Vec<&(i64, Table, i64)> = rows.iter().filter(|r| r.1 == table).collect();
            if mine.is_empty() {
                continue;
            }
            let mut ids: Vec<i64> = mine.iter().map(|r| r.2).collect();
            ids.sort_unstable();
            ids.dedup();
            let result = embed_rows(&self.db, table, self.provider(table), &ids).await;
            outcomes.extend(
                mine.iter()
                    .map(|(job, _, id)| (*job, outcome(&result, *id))),
            );
        }
        outcomes
    }
}

/// Embeds the rows `ids` of `table` that still need a vector, on the query
/// lane, in one transaction.
pub async fn embed_rows(
    db: &PgPool,
    table: Table,
    provider: &dyn EmbeddingProvider,
    ids: &[i64],
) -> Result<BatchReport, BatchError> {
    let p = Pipeline::with_provider(table, provider, Urgency::Interactive);
    batch::run_ids(db, &p, ids).await
}

/// What the job of row `id` records after its batch.
pub fn outcome(result: &Result<BatchReport, BatchError>, id: i64) -> Outcome {
    match result {
        Ok(report) => {
            if let Some((_, reason)) = report.refused.iter().find(|(row, _)| *row == id) {
                Outcome::failed(
                    FailMode::Retry,
                    format!("the server refused the text: {reason}"),
                )
            } else if report.held.contains(&id) {
                // Whoever holds it (a backfill batch, a write in progress)
                // embeds or rewrites it; look again soon.
                Outcome::failed(
                    FailMode::UnavailableSoon,
                    "the row is held by another transaction",
                )
            } else {
                // Embedded, or no longer in need (written with its own
                // vector since, or deleted).
                Outcome::Done
            }
        }
        Err(BatchError::Embedding(e @ EmbeddingError::Unavailable(_))) => {
            Outcome::failed(FailMode::UnavailableSoon, e)
        }
        Err(BatchError::Embedding(e @ EmbeddingError::DimensionMismatch { .. })) => {
            // A misconfiguration: retrying cannot help. The row keeps its
            // NULL vector; `maxy embed memory` embeds it once fixed.
            Outcome::failed(
                FailMode::Permanent,
                format!(
                    "{e}: fix the pipeline's model or dimensions, then run `maxy embed memory`"
                ),
            )
        }
        Err(e) => Outcome::failed(FailMode::Retry, e),
    }
}
