//! One batch of the memory backfill: claim rows in a transaction, build
//! their texts, embed them in one provider call, store the vectors, commit.
//! Any failure before the commit rolls the whole batch back (no row is half
//! done), and the claim's locks go with it.
use super::{memory_text, task_text, Providers};
use crate::db::training_sessions;
use crate::db::user_data_embeddings::{self, Table};
use crate::embeddings::documents::embed_documents;
use crate::embeddings::{EmbeddingError, EmbeddingProvider};
use crate::jobs::{record, worker_id, FailMode, Outcome};
use crate::training::embed::{dedupe_key, text_of};
use sqlx::{PgConnection, PgPool};

/// A table with the provider of its pipeline.
pub struct Pipeline<'a> {
    pub table: Table,
    provider: &'a dyn EmbeddingProvider,
}

impl<'a> Pipeline<'a> {
    pub fn new(table: Table, providers: Providers<'a>) -> Self {
        let provider = match table {
            Table::Memories | Table::Tasks => providers.memory,
            Table::TrainingSessions => providers.training,
        };
        Pipeline { table, provider }
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
    /// Training sessions whose `training.embed` job a worker is running.
    pub busy: u64,
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
    // Training sessions also have `training.embed` jobs: take the queued
    // ones of this batch (so no worker embeds the same sessions after us)
    // and leave alone the sessions a worker is embedding right now.
    let jobs = match p.table {
        Table::TrainingSessions => Some(TrainingJobs::claim(db, &ids).await?),
        _ => None,
    };
    let mine: Vec<i64> = match &jobs {
        Some(jobs) => ids
            .iter()
            .copied()
            .filter(|id| !jobs.busy.contains(id))
            .collect(),
        None => ids.clone(),
    };
    report.busy = (ids.len() - mine.len()) as u64;

    let result = embed_and_store(&mut tx, p, &mine, &mut report).await;
    let result = match result {
        Ok(()) => tx.commit().await.map_err(BatchError::from),
        // Dropping `tx` rolls the batch back.
        Err(e) => Err(e),
    };
    if let Some(jobs) = jobs {
        jobs.record(db, &result, &report).await?;
    }
    result.map(|()| BatchOutcome::Committed(report))
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
    let documents = embed_documents(p.provider, &texts).await?;
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

/// The `training.embed` jobs of one batch of sessions.
struct TrainingJobs {
    worker: String,
    /// (job id, session id) of the queued jobs this batch took over.
    claimed: Vec<(i64, i64)>,
    /// Sessions whose job another worker is running.
    busy: Vec<i64>,
}

impl TrainingJobs {
    async fn claim(db: &PgPool, ids: &[i64]) -> Result<Self, sqlx::Error> {
        let worker = worker_id(0);
        let keys: Vec<String> = ids.iter().map(|id| dedupe_key(*id)).collect();
        // Claim first, then look for running jobs: a job running that is
        // not ours was taken by a worker before us.
        let claimed: Vec<(i64, i64)> = crate::db::jobs::claim_keys(db, &keys, &worker)
            .await?
            .into_iter()
            .filter_map(|(job, key)| Some((job.id, ids[keys.iter().position(|k| *k == key)?])))
            .collect();
        let running = crate::db::jobs::running_keys(db, &keys).await?;
        let busy = ids
            .iter()
            .zip(&keys)
            .filter(|(id, key)| {
                running.contains(key) && !claimed.iter().any(|(_, mine)| mine == *id)
            })
            .map(|(id, _)| *id)
            .collect();
        Ok(TrainingJobs {
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
        let outcomes: Vec<(i64, Outcome)> = self
            .claimed
            .iter()
            .map(|(job, session)| {
                let outcome = match result {
                    Ok(()) => match report.refused.iter().find(|(id, _)| id == session) {
                        Some((_, reason)) => Outcome::failed(FailMode::Retry, reason),
                        None => Outcome::Done,
                    },
                    Err(BatchError::Embedding(e @ EmbeddingError::DimensionMismatch { .. })) => {
                        Outcome::failed(FailMode::Permanent, e)
                    }
                    Err(BatchError::Embedding(e @ EmbeddingError::Unavailable(_))) => {
                        Outcome::failed(FailMode::Unavailable, e)
                    }
                    Err(e) => Outcome::failed(FailMode::Retry, e),
                };
                (*job, outcome)
            })
            .collect();
        record(db, &self.worker, &outcomes).await
    }
}
