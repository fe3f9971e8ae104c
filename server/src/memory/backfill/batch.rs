//! One batch of the memory backfill, and of the `memory.embed` job: claim
//! rows in a transaction (after a cursor for the backfill, by id for the
//! job), build their texts, embed them in one provider call, store the
//! vectors, commit. Any failure before the commit rolls the whole batch back
//! (no row is half done), and the claim's locks go with it.
//!
//! The backfill goes on the document lane; the job on the query lane (a
//! person's row is waiting, ADR 0033). A backfill batch takes over the
//! queued jobs of its rows and leaves alone the rows whose job a worker is
//! running, so neither embeds what the other does.
use super::{memory_text, task_text, Providers};
use crate::db::training_sessions;
use crate::db::user_data_embeddings::{self, Table};
use crate::embeddings::documents::embed_documents_as;
use crate::embeddings::{EmbeddingError, EmbeddingProvider, Urgency};
use crate::jobs::{record, worker_id, FailMode, Outcome};
use crate::memory::embed_job::{dedupe_key, legacy_training_key};
use crate::training::text::text_of;
use sqlx::{PgConnection, PgPool};

/// A table with the provider of its pipeline and the lane its texts take.
pub struct Pipeline<'a> {
    pub table: Table,
    provider: &'a dyn EmbeddingProvider,
    urgency: Urgency,
}

impl<'a> Pipeline<'a> {
    /// The backfill's: bulk work, on the document lane.
    pub fn new(table: Table, providers: Providers<'a>) -> Self {
        let provider = match table {
            Table::Memories | Table::Tasks => providers.memory,
            Table::TrainingSessions => providers.training,
        };
        Self::with_provider(table, provider, Urgency::Bulk)
    }

    pub fn with_provider(
        table: Table,
        provider: &'a dyn EmbeddingProvider,
        urgency: Urgency,
    ) -> Self {
        Pipeline {
            table,
            provider,
            urgency,
        }
    }

    pub fn model(&self) -> &str {
        self.provider.model()
    }

    /// The configuration caps dimensions at 2,000.
    pub fn dims(&self) -> i32 {
        i32::try_from(self.provider.dimensions()).unwrap_or(i32::MAX)
    }

    pub fn label(&self) -> &'static str {
        match self.table {
            Table::Memories | Table::Tasks => "memory",
            Table::TrainingSessions => "training",
        }
    }

    pub fn infix(&self) -> &'static str {
        match self.table {
            Table::Memories | Table::Tasks => "MEMORY",
            Table::TrainingSessions => "TRAINING",
        }
    }
}

#[derive(Debug)]
pub enum BatchOutcome {
    /// Nothing left after the cursor.
    Done,
    Committed(BatchReport),
}

#[derive(Debug, Default)]
pub struct BatchReport {
    /// The cursor for the next batch.
    pub last_id: i64,
    /// Rows claimed (embedded, refused or busy).
    pub claimed: u64,
    pub embedded: u64,
    /// (row id, reason) of texts the server refused.
    pub refused: Vec<(i64, String)>,
    /// Rows whose embedding job a worker is running (left to it).
    pub busy: u64,
    /// [`run_ids`]: rows still in need that another transaction held (a
    /// backfill batch, a write in progress), so not embedded here.
    pub held: Vec<i64>,
}

#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Embedding(#[from] EmbeddingError),
}

/// Runs one batch after `after` (id order), committed on success.
pub async fn run(
    db: &PgPool,
    p: &Pipeline<'_>,
    after: i64,
    limit: i64,
) -> Result<BatchOutcome, BatchError> {
    let mut tx = db.begin().await?;
    let ids =
        user_data_embeddings::claim(&mut tx, p.table, p.model(), p.dims(), after, limit).await?;
    let Some(&last_id) = ids.last() else {
        tx.commit().await?;
        return Ok(BatchOutcome::Done);
    };
    let mut report = BatchReport {
        last_id,
        claimed: ids.len() as u64,
        ..BatchReport::default()
    };
    // Rows may have `memory.embed` jobs: take the queued ones of this batch
    // (so no worker embeds the same rows after us) and leave alone the rows
    // a worker is embedding right now.
    let jobs = RowJobs::claim(db, p.table, &ids).await?;
    let mine: Vec<i64> = ids
        .iter()
        .copied()
        .filter(|id| !jobs.busy.contains(id))
        .collect();
    report.busy = (ids.len() - mine.len()) as u64;

    let result = embed_and_store(&mut tx, p, &mine, &mut report).await;
    let result = match result {
        Ok(()) => tx.commit().await.map_err(BatchError::from),
        // Dropping `tx` rolls the batch back.
        Err(e) => Err(e),
    };
    jobs.record(db, &result, &report).await?;
    result.map(|()| BatchOutcome::Committed(report))
}

/// Embeds and stores, in one transaction, the rows among `ids` that still
/// need a vector (what the `memory.embed` job runs). Rows no longer in need
/// (embedded since, deleted) are left out; rows another transaction holds
/// are listed in [`BatchReport::held`].
pub async fn run_ids(
    db: &PgPool,
    p: &Pipeline<'_>,
    ids: &[i64],
) -> Result<BatchReport, BatchError> {
    let mut tx = db.begin().await?;
    let claimed =
        user_data_embeddings::claim_ids(&mut tx, p.table, p.model(), p.dims(), ids).await?;
    let mut report = BatchReport {
        last_id: claimed.last().copied().unwrap_or_default(),
        claimed: claimed.len() as u64,
        ..BatchReport::default()
    };
    let skipped: Vec<i64> = ids
        .iter()
        .copied()
        .filter(|id| !claimed.contains(id))
        .collect();
    if !skipped.is_empty() {
        report.held =
            user_data_embeddings::still_pending(&mut *tx, p.table, p.model(), p.dims(), &skipped)
                .await?;
    }
    embed_and_store(&mut tx, p, &claimed, &mut report).await?;
    tx.commit().await?;
    Ok(report)
}

async fn embed_and_store(
    tx: &mut PgConnection,
    p: &Pipeline<'_>,
    ids: &[i64],
    report: &mut BatchReport,
) -> Result<(), BatchError> {
    let rows = texts(tx, p.table, ids).await?;
    if rows.is_empty() {
        return Ok(());
    }
    let texts: Vec<String> = rows.iter().map(|(_, t)| t.clone()).collect();
    let documents = embed_documents_as(p.provider, &texts, p.urgency).await?;
    for (i, reason) in documents.rejected {
        if let Some((id, _)) = rows.get(i) {
            report.refused.push((*id, reason));
        }
    }
    let expected = p.provider.dimensions();
    // The client's canary checks sizes already; whatever the provider, a
    // vector of another size must never reach a table, nor half a batch.
    if let Some(got) = documents
        .vectors
        .iter()
        .flatten()
        .map(Vec::len)
        .find(|&n| n != expected as usize)
    {
        return Err(EmbeddingError::DimensionMismatch { expected, got }.into());
    }
    for ((id, _), vector) in rows.iter().zip(documents.vectors) {
        let Some(vector) = vector else { continue };
        let vector = pgvector::Vector::from(vector);
        if user_data_embeddings::store(&mut *tx, p.table, *id, &vector, p.model(), p.dims()).await?
        {
            report.embedded += 1;
        }
    }
    Ok(())
}

/// (id, text to embed) of the rows `ids`, built as the write path builds them.
async fn texts(
    tx: &mut PgConnection,
    table: Table,
    ids: &[i64],
) -> Result<Vec<(i64, String)>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    Ok(match table {
        Table::Memories => user_data_embeddings::titled_texts(tx, table, ids)
            .await?
            .into_iter()
            .map(|(id, title, content)| (id, memory_text(&title, &content)))
            .collect(),
        Table::Tasks => user_data_embeddings::titled_texts(tx, table, ids)
            .await?
            .into_iter()
            .map(|(id, title, description)| (id, task_text(&title, &description)))
            .collect(),
        Table::TrainingSessions => {
            let mut sources = training_sessions::embedding_sources(tx, ids).await?;
            sources.sort_by_key(|s| s.id);
            sources.iter().map(|s| (s.id, text_of(s))).collect()
        }
    })
}

/// The embedding jobs of one batch of rows (`memory.embed`, and
/// `training.embed` for sessions an older version queued).
struct RowJobs {
    worker: String,
    /// (job id, row id) of the queued jobs this batch took over.
    claimed: Vec<(i64, i64)>,
    /// Rows whose job another worker is running.
    busy: Vec<i64>,
}

impl RowJobs {
    async fn claim(db: &PgPool, table: Table, ids: &[i64]) -> Result<Self, sqlx::Error> {
        let worker = worker_id(0);
        let mut keys: Vec<(String, i64)> =
            ids.iter().map(|id| (dedupe_key(table, *id), *id)).collect();
        if table == Table::TrainingSessions {
            keys.extend(ids.iter().map(|id| (legacy_training_key(*id), *id)));
        }
        let row_of = |key: &str| keys.iter().find(|(k, _)| k == key).map(|(_, id)| *id);
        let names: Vec<String> = keys.iter().map(|(k, _)| k.clone()).collect();
        // Claim first, then look for running jobs: a job running that is
        // not ours was taken by a worker before us.
        let taken = crate::db::jobs::claim_keys(db, &names, &worker).await?;
        let claimed: Vec<(i64, i64)> = taken
            .iter()
            .filter_map(|(job, key)| Some((job.id, row_of(key)?)))
            .collect();
        let running = crate::db::jobs::running_keys(db, &names).await?;
        let busy = running
            .iter()
            .filter(|key| !taken.iter().any(|(_, mine)| mine == *key))
            .filter_map(|key| row_of(key))
            .collect();
        Ok(RowJobs {
            worker,
            claimed,
            busy,
        })
    }

    /// Closes the jobs taken over: done when the batch committed (a refused
    /// text's job is retried later), re-queued when it did not.
    async fn record(
        self,
        db: &PgPool,
        result: &Result<(), BatchError>,
        report: &BatchReport,
    ) -> Result<(), sqlx::Error> {
        if self.claimed.is_empty() {
            return Ok(());
        }
        let outcomes: Vec<(i64, Outcome)> = self
            .claimed
            .iter()
            .map(|(job, row)| {
                let outcome = match result {
                    Ok(()) => match report.refused.iter().find(|(id, _)| id == row) {
                        Some((_, reason)) => Outcome::failed(FailMode::Retry, reason),
                        None => Outcome::Done,
                    },
                    Err(BatchError::Embedding(e @ EmbeddingError::DimensionMismatch { .. })) => {
                        Outcome::failed(FailMode::Permanent, e)
                    }
                    Err(BatchError::Embedding(e @ EmbeddingError::Unavailable(_))) => {
                        Outcome::failed(FailMode::UnavailableSoon, e)
                    }
                    Err(e) => Outcome::failed(FailMode::Retry, e),
                };
                (*job, outcome)
            })
            .collect();
        record(db, &self.worker, &outcomes).await
    }
}
