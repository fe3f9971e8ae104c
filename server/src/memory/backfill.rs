//! `maxy embed memory`: embeds every memory, task and training session
//! whose vector is missing (written while the embedding service was down, or
//! refused by the dimension canary) or made by another model or dimension.
//! Memories and tasks go through the memory pipeline, training sessions
//! through the training pipeline, all as documents on the document lane
//! (seed 003, part 8).
//!
//! Rows saved without a vector are embedded by their `memory.embed` job
//! ([`super::embed_job`]) as soon as a server answers; this command is for
//! what jobs do not cover: a model or dimension change (every row at
//! once), or a dimension mismatch once fixed. A batch takes over the
//! queued jobs of its rows and leaves the rows whose job a worker is
//! running to that worker ([`batch`]).
//!
//! Batches of 50 rows, each claimed (`FOR UPDATE SKIP LOCKED`), embedded in
//! one provider call and committed on its own, with a polite pause between
//! batches: interrupted (Ctrl-C, outage), a rerun continues with what is
//! left. Two backfills at once, or a write racing one, never embed a row
//! twice: a claimed row is invisible to the other claims and a row is only
//! written while it still needs it. A user's edit of a claimed row waits
//! for the batch's commit (about a second with the local model; at worst the
//! document lane's timeout and retries during an outage), then its own
//! write (a fresh vector, or NULL) replaces ours: no vector of a stale text
//! survives. The trade-off: the claim holds row locks across the provider
//! call, which is what makes it exclusive without a claim column.
pub mod batch;

pub use super::embed::{memory_text, task_text};

use crate::backfill_support::{progress_bar, stop_on_ctrl_c, OutageWait, DEFAULT_PATIENCE};
use crate::db::user_data_embeddings::{self, Table};
use crate::embeddings::{EmbeddingError, EmbeddingProvider};
use batch::{BatchOutcome, Pipeline};
use sqlx::PgPool;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// Rows per provider call and per commit (seed 003: 50).
pub const DEFAULT_BATCH: usize = 50;
/// The pause between two batches, so a hosted API's rate limiter and the
/// local server's other callers are not starved.
pub const DEFAULT_PAUSE: Duration = Duration::from_millis(100);

#[derive(Clone, Debug)]
pub struct BackfillOptions {
    pub batch: usize,
    pub pause: Duration,
    /// Show a progress bar.
    pub progress: bool,
    /// How long an embedding server may stay unavailable before the walk
    /// gives up; the failed batch is tried again meanwhile.
    pub patience: Duration,
}

impl Default for BackfillOptions {
    fn default() -> Self {
        BackfillOptions {
            batch: DEFAULT_BATCH,
            pause: DEFAULT_PAUSE,
            progress: false,
            patience: DEFAULT_PATIENCE,
        }
    }
}

/// The two pipelines the backfill embeds with.
#[derive(Clone, Copy)]
pub struct Providers<'a> {
    /// Memories and tasks (`MAXY_MEMORY_EMBEDDING_*`).
    pub memory: &'a dyn EmbeddingProvider,
    /// Training sessions (`MAXY_TRAINING_EMBEDDING_*`).
    pub training: &'a dyn EmbeddingProvider,
}

/// What happened to one table.
#[derive(Clone, Debug)]
pub struct TableSummary {
    pub table: Table,
    /// Rows needing a vector when the run reached the table.
    pub pending: i64,
    pub embedded: u64,
    /// Texts the embedding server refused (left without vector).
    pub refused: u64,
    /// Rows whose embedding job a worker was running at the same time.
    pub busy: u64,
    /// Batches committed.
    pub batches: u64,
    /// The pipeline answered another dimension: the table was left as it was.
    pub mismatch: bool,
}

impl TableSummary {
    fn new(table: Table) -> Self {
        TableSummary {
            table,
            pending: 0,
            embedded: 0,
            refused: 0,
            busy: 0,
            batches: 0,
            mismatch: false,
        }
    }
}

impl std::fmt::Display for TableSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} to do, {} embedded in {} batch{}, {} refused",
            self.table.name(),
            self.pending,
            self.embedded,
            self.batches,
            if self.batches == 1 { "" } else { "es" },
            self.refused
        )?;
        if self.busy > 0 {
            write!(f, ", {} left to a running job worker", self.busy)?;
        }
        if self.mismatch {
            write!(f, "; DIMENSION MISMATCH: rows left without embedding")?;
        }
        Ok(())
    }
}

#[derive(Clone, Debug, Default)]
pub struct BackfillSummary {
    pub tables: Vec<TableSummary>,
    pub elapsed: Duration,
    /// Stopped by the caller (Ctrl-C) before the end.
    pub interrupted: bool,
}

impl BackfillSummary {
    pub fn table(&self, table: Table) -> Option<&TableSummary> {
        self.tables.iter().find(|t| t.table == table)
    }

    pub fn embedded(&self) -> u64 {
        self.tables.iter().map(|t| t.embedded).sum()
    }
}

impl std::fmt::Display for BackfillSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for t in &self.tables {
            writeln!(f, "{t}")?;
        }
        write!(f, "{:.1} s", self.elapsed.as_secs_f64())?;
        if self.interrupted {
            write!(f, "; interrupted: run it again to continue")?;
        }
        Ok(())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum BackfillError {
    #[error(
        "the {pipeline} embedding server is unavailable while embedding {table} ({source}); \
         the batches already committed are kept: run `maxy embed memory` again once it answers"
    )]
    Unavailable {
        pipeline: &'static str,
        table: &'static str,
        source: EmbeddingError,
    },
    #[error(
        "the {pipeline} embedding model answered {got} dimensions where {expected} are \
         configured: {table} rows were left without embedding; fix MAXY_{infix}_EMBEDDING_MODEL \
         / MAXY_{infix}_EMBEDDING_DIMENSIONS (or set MAXY_{infix}_EMBEDDING_SEND_DIMENSIONS) \
         and run `maxy embed memory` again"
    )]
    DimensionMismatch {
        pipeline: &'static str,
        infix: &'static str,
        table: &'static str,
        expected: u32,
        got: usize,
    },
    #[error("database error while embedding {table}: {source}")]
    Database {
        table: &'static str,
        source: sqlx::Error,
    },
}

/// Walks the three tables until done or `stop` turns `true` (checked
/// between batches). Returns the summary so far with the error that ended
/// the run, if any: batches already committed stay. A dimension mismatch
/// skips the tables of that pipeline and goes on with the other pipeline.
pub async fn backfill(
    db: &PgPool,
    providers: Providers<'_>,
    options: &BackfillOptions,
    stop: &watch::Receiver<bool>,
) -> (BackfillSummary, Result<(), BackfillError>) {
    let started = Instant::now();
    let mut summary = BackfillSummary::default();
    let result = walk(db, providers, options, stop, &mut summary).await;
    summary.elapsed = started.elapsed();
    (summary, result)
}

async fn walk(
    db: &PgPool,
    providers: Providers<'_>,
    options: &BackfillOptions,
    stop: &watch::Receiver<bool>,
    summary: &mut BackfillSummary,
) -> Result<(), BackfillError> {
    let limit = i64::try_from(options.batch.max(1)).unwrap_or(i64::MAX);
    let pipelines: Vec<Pipeline> = Table::ALL
        .into_iter()
        .map(|table| Pipeline::new(table, providers))
        .collect();
    let mut total = 0;
    for p in &pipelines {
        let mut t = TableSummary::new(p.table);
        t.pending = user_data_embeddings::count_pending(db, p.table, p.model(), p.dims())
            .await
            .map_err(|source| BackfillError::Database {
                table: p.table.name(),
                source,
            })?;
        total += t.pending;
        summary.tables.push(t);
    }
    let bar = progress_bar(total, options.progress, "rows").unwrap_or_else(|e| {
        tracing::debug!("no progress bar: {e}");
        indicatif::ProgressBar::hidden()
    });
    let mut mismatch: Option<BackfillError> = None;
    let mut first_batch = true;
    let mut outage = OutageWait::new(options.patience);
    for (i, p) in pipelines.iter().enumerate() {
        let mut after = 0;
        loop {
            if *stop.borrow() {
                summary.interrupted = true;
                bar.abandon();
                return mismatch.map_or(Ok(()), Err);
            }
            // Tasks share the memory pipeline: a mismatch found on memories
            // holds for them too, so they are not asked again.
            if let Some(BackfillError::DimensionMismatch { pipeline, .. }) = &mismatch {
                if *pipeline == p.label() {
                    summary.tables[i].mismatch = true;
                    break;
                }
            }
            if !first_batch && !options.pause.is_zero() {
                tokio::time::sleep(options.pause).await;
            }
            first_batch = false;
            let outcome = batch::run(db, p, after, limit).await;
            let table = &mut summary.tables[i];
            match outcome {
                Ok(BatchOutcome::Done) => break,
                Ok(BatchOutcome::Committed(report)) => {
                    outage.answered();
                    after = report.last_id;
                    table.batches += 1;
                    table.embedded += report.embedded;
                    table.refused += report.refused.len() as u64;
                    table.busy += report.busy;
                    for (id, reason) in &report.refused {
                        bar.suspend(|| {
                            tracing::warn!(table = p.table.name(), id, "not embedded: {reason}")
                        });
                    }
                    bar.inc(report.claimed);
                    bar.set_message(format!("{}: {} embedded", p.table.name(), table.embedded));
                }
                Err(batch::BatchError::Db(source)) => {
                    bar.abandon();
                    return Err(BackfillError::Database {
                        table: p.table.name(),
                        source,
                    });
                }
                Err(batch::BatchError::Embedding(EmbeddingError::DimensionMismatch {
                    expected,
                    got,
                })) => {
                    table.mismatch = true;
                    bar.suspend(|| {
                        tracing::warn!(
                            table = p.table.name(),
                            expected,
                            got,
                            "dimension mismatch: no row written"
                        )
                    });
                    mismatch.get_or_insert(BackfillError::DimensionMismatch {
                        pipeline: p.label(),
                        infix: p.infix(),
                        table: p.table.name(),
                        expected,
                        got,
                    });
                    break;
                }
                Err(batch::BatchError::Embedding(EmbeddingError::Unavailable(reason)))
                    if outage.before_retry(&reason, stop, &bar).await =>
                {
                    continue; // `after` unchanged: the same batch again
                }
                // Ctrl-C during the wait: stopped, not failed.
                Err(batch::BatchError::Embedding(EmbeddingError::Unavailable(_)))
                    if *stop.borrow() =>
                {
                    summary.interrupted = true;
                    bar.abandon();
                    return mismatch.map_or(Ok(()), Err);
                }
                Err(batch::BatchError::Embedding(source)) => {
                    bar.abandon();
                    return Err(BackfillError::Unavailable {
                        pipeline: p.label(),
                        table: p.table.name(),
                        source,
                    });
                }
            }
        }
    }
    bar.finish_and_clear();
    mismatch.map_or(Ok(()), Err)
}

/// `maxy embed memory`: connects, migrates, builds the memory and training
/// providers, runs the backfill until done or Ctrl-C, prints the summary
/// per table.
pub async fn command(
    config: &crate::config::Config,
    args: &crate::cli::EmbedMemoryArgs,
) -> anyhow::Result<()> {
    let db = crate::db::connect(&config.database).await?;
    crate::db::migrate(&config.database, &db).await?;
    let embedders = crate::embeddings::Embedders::from_settings(&config.embeddings)?;
    let stop = stop_on_ctrl_c();
    let options = BackfillOptions {
        batch: usize::try_from(args.batch)?,
        pause: Duration::from_millis(args.pause_ms),
        progress: !args.quiet,
        patience: Duration::from_secs(args.patience),
    };
    tracing::info!(
        memory_model = embedders.memory.model(),
        training_model = embedders.training.model(),
        batch = options.batch,
        "embedding memories, tasks and training sessions"
    );
    let providers = Providers {
        memory: embedders.memory.as_ref(),
        training: embedders.training.as_ref(),
    };
    let (summary, result) = backfill(&db, providers, &options, &stop).await;
    println!("{summary}");
    db.close().await;
    Ok(result?)
}
