//! `maxy embed venues`: embeds every venue whose vector is missing or stale
//! (text hash, model or dimension differs), in batches, each committed on
//! its own: interrupted (Ctrl-C, outage), a rerun continues where it stopped,
//! since current venues cost one SQL query per batch and no provider call.
//! An embedding server that stops answering (killed, restarting) does not
//! end the walk: the failed batch is tried again until the server is back,
//! within `--patience` ([`OutageWait`]).
//!
//! It cooperates with the job workers: queued `venue.embed` jobs of a batch
//! are claimed and completed here (so a server running at the same time does
//! not embed the same venues again), and venues whose job a worker is running
//! are left to it.
use super::embed::{embed_members, job_outcome, BatchError};
use super::job::{dedupe_key, BATCH_SIZE};
use crate::backfill_support::{progress_bar, stop_on_ctrl_c, OutageWait, DEFAULT_PATIENCE};
use crate::db::member_embeddings;
use crate::embeddings::{EmbeddingError, EmbeddingProvider};
use crate::jobs::{record, worker_id};
use anyhow::Context as _;
use sqlx::PgPool;
use std::time::{Duration, Instant};
use tokio::sync::watch;

#[derive(Clone, Debug)]
pub struct BackfillOptions {
    /// Venues per provider call and per commit.
    pub batch: usize,
    /// Show a progress bar.
    pub progress: bool,
    /// How long the embedding server may stay unavailable before the walk
    /// gives up (zero: at the first batch it could not embed).
    pub patience: Duration,
}

impl Default for BackfillOptions {
    fn default() -> Self {
        BackfillOptions {
            batch: BATCH_SIZE as usize,
            progress: false,
            patience: DEFAULT_PATIENCE,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct BackfillSummary {
    pub embedded: u64,
    pub unchanged: u64,
    /// Texts the embedding server refused.
    pub failed: u64,
    /// Venues a job worker was embedding at the same time.
    pub busy: u64,
    pub elapsed: Duration,
    pub embedding_time: Duration,
    /// Stopped by the caller (Ctrl-C) before the end.
    pub interrupted: bool,
}

impl BackfillSummary {
    /// Average provider time per embedded text.
    pub fn ms_per_text(&self) -> f64 {
        if self.embedded == 0 {
            return 0.0;
        }
        self.embedding_time.as_secs_f64() * 1000.0 / self.embedded as f64
    }
}

impl std::fmt::Display for BackfillSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} embedded, {} unchanged, {} failed in {:.1} s ({:.1} ms per embedded text)",
            self.embedded,
            self.unchanged,
            self.failed,
            self.elapsed.as_secs_f64(),
            self.ms_per_text()
        )?;
        if self.busy > 0 {
            write!(f, ", {} left to a running job worker", self.busy)?;
        }
        if self.interrupted {
            write!(f, "; interrupted: run it again to continue")?;
        }
        Ok(())
    }
}

/// Walks every venue in id order until done or `stop` turns `true` (checked
/// between batches). Returns the summary so far with the error that ended
/// the walk early, if any: batches already committed stay.
pub async fn backfill(
    db: &PgPool,
    provider: &dyn EmbeddingProvider,
    options: &BackfillOptions,
    stop: &watch::Receiver<bool>,
) -> (BackfillSummary, anyhow::Result<()>) {
    let started = Instant::now();
    let mut summary = BackfillSummary::default();
    let result = walk(db, provider, options, stop, &mut summary).await;
    summary.elapsed = started.elapsed();
    (summary, result)
}

async fn walk(
    db: &PgPool,
    provider: &dyn EmbeddingProvider,
    options: &BackfillOptions,
    stop: &watch::Receiver<bool>,
    summary: &mut BackfillSummary,
) -> anyhow::Result<()> {
    let batch = i64::try_from(options.batch.max(1)).context("--batch is too large")?;
    let total = member_embeddings::member_count(db)
        .await
        .context("cannot count venues")?;
    let bar = progress_bar(total, options.progress, "venues")?;
    let worker = worker_id(0);
    let mut outage = OutageWait::new(options.patience);
    let mut after = 0;
    loop {
        if *stop.borrow() {
            summary.interrupted = true;
            break;
        }
        let ids = member_embeddings::member_ids_after(db, after, batch)
            .await
            .context("cannot list venues")?;
        let Some(&last) = ids.last() else { break };

        let keys: Vec<String> = ids.iter().map(|id| dedupe_key(*id)).collect();
        let busy = crate::db::jobs::running_keys(db, &keys)
            .await
            .context("cannot read the job queue")?;
        let mine: Vec<i64> = ids
            .iter()
            .copied()
            .filter(|id| !busy.contains(&dedupe_key(*id)))
            .collect();
        summary.busy += (ids.len() - mine.len()) as u64;
        let mine_keys: Vec<String> = mine.iter().map(|id| dedupe_key(*id)).collect();
        let claimed = crate::db::jobs::claim_keys(db, &mine_keys, &worker)
            .await
            .context("cannot claim queued venue.embed jobs")?;

        let result = embed_members(db, provider, &mine).await;
        let outcomes: Vec<_> = claimed
            .iter()
            .filter_map(|(job, key)| {
                let member_id = mine_keys.iter().position(|k| k == key).map(|i| mine[i])?;
                Some((job.id, job_outcome(&result, member_id)))
            })
            .collect();
        record(db, &worker, &outcomes)
            .await
            .context("cannot record venue.embed jobs")?;

        match result {
            Ok(report) => {
                outage.answered();
                summary.embedded += report.embedded.len() as u64;
                summary.unchanged += report.unchanged.len() as u64;
                summary.failed += report.rejected.len() as u64;
                summary.embedding_time += report.embedding_time;
                for (member_id, reason) in &report.rejected {
                    bar.suspend(|| tracing::warn!(member_id, "venue not embedded: {reason}"));
                }
            }
            Err(BatchError::Embedding(EmbeddingError::Rejected(reason))) => {
                outage.answered();
                summary.failed += mine.len() as u64;
                bar.suspend(|| tracing::warn!(after, "venues not embedded: {reason}"));
            }
            Err(e @ BatchError::Embedding(EmbeddingError::DimensionMismatch { .. })) => {
                bar.abandon();
                return Err(anyhow::anyhow!(
                    "{e}: nothing written for this batch; fix MAXY_VENUE_EMBEDDING_MODEL / \
                     MAXY_VENUE_EMBEDDING_DIMENSIONS"
                ));
            }
            Err(BatchError::Embedding(EmbeddingError::Unavailable(reason))) => {
                if outage.before_retry(&reason, stop, &bar).await {
                    continue; // `after` unchanged: the same batch again
                }
                if *stop.borrow() {
                    summary.interrupted = true;
                    break;
                }
                bar.abandon();
                return Err(anyhow::anyhow!(
                    "the embedding server is still unavailable after {} s ({reason}); \
                     batches already done are kept: run the command again later",
                    options.patience.as_secs()
                ));
            }
            Err(e @ BatchError::Db(_)) => {
                bar.abandon();
                return Err(anyhow::anyhow!(
                    "{e}; batches already done are kept: run the command again later"
                ));
            }
        }
        after = last;
        bar.inc(ids.len() as u64);
        bar.set_message(format!("{} embedded", summary.embedded));
    }
    bar.finish_and_clear();
    Ok(())
}

/// `maxy embed venues`: connects, migrates, builds the venues provider, runs
/// the backfill until done or Ctrl-C (a second Ctrl-C quits at once), and
/// prints the summary.
pub async fn command(
    config: &crate::config::Config,
    args: &crate::cli::EmbedVenuesArgs,
) -> anyhow::Result<()> {
    let db = crate::db::connect(&config.database).await?;
    crate::db::migrate(&config.database, &db).await?;
    let provider = crate::embeddings::Embedders::from_settings(&config.embeddings)?.venues;
    let stop = stop_on_ctrl_c();
    let options = BackfillOptions {
        batch: usize::try_from(args.batch).context("--batch is too large")?,
        progress: !args.quiet,
        patience: Duration::from_secs(args.patience),
    };
    tracing::info!(
        model = provider.model(),
        dimensions = provider.dimensions(),
        batch = options.batch,
        "embedding venues"
    );
    let (summary, result) = backfill(&db, provider.as_ref(), &options, &stop).await;
    println!("venues: {summary}");
    db.close().await;
    result
}
