//! Background jobs: named, idempotent units of work queued in the `jobs`
//! table and run by workers in any number of processes (the pattern of the
//! crates.io backend's job registry).
//!
//! - [`enqueue`] never duplicates work: one queued-or-running job per
//!   `dedupe_key`; a change that arrives while its job runs makes it run once
//!   more (see [`crate::db::jobs::Enqueued`]).
//! - Workers ([`worker::run`]) claim batches with `FOR UPDATE SKIP LOCKED`,
//!   so two workers never hold the same job, and a reaper re-queues the jobs
//!   of a worker that died.
//! - Each kind has one [`JobHandler`] in the [`registry`]. The runtime names
//!   no kind: each domain module defines its kinds and registers its
//!   handlers (`venue_embeddings::register_jobs`); database triggers may
//!   enqueue jobs too (migration 0010 enqueues venue re-embeddings).
//! - A kind is [`Priority::Interactive`] when a person waits on its result
//!   (a memory row's vector, ADR 0033) or [`Priority::Bulk`]: every worker
//!   claims interactive kinds first, and each process runs one more worker
//!   for interactive kinds alone, so they never wait behind a bulk batch in
//!   flight (thousands of venue texts).
pub mod registry;
mod wakeup;
pub mod worker;

pub use crate::db::jobs::{Enqueued, FailMode, Job};
pub use registry::Registry;
pub use worker::{start, WorkerOptions, Workers};

use sqlx::{PgExecutor, PgPool};
use std::collections::BTreeMap;

/// Queues a job; see [`crate::db::jobs::enqueue`].
pub async fn enqueue(
    db: impl PgExecutor<'_>,
    kind: &str,
    payload: &serde_json::Value,
    dedupe_key: Option<&str>,
) -> sqlx::Result<Enqueued> {
    crate::db::jobs::enqueue(db, kind, payload, dedupe_key).await
}

/// How one job ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Done,
    Failed { mode: FailMode, error: String },
}

impl Outcome {
    pub fn failed(mode: FailMode, error: impl std::fmt::Display) -> Self {
        Outcome::Failed {
            mode,
            error: error.to_string(),
        }
    }
}

/// Whether a person waits on a kind's jobs (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Priority {
    /// Claimed first, and by a worker of its own.
    Interactive,
    Bulk,
}

/// Runs the jobs of one kind, a batch at a time.
#[async_trait::async_trait]
pub trait JobHandler: Send + Sync {
    /// The `jobs.kind` this handler runs. Kinds no registered handler runs
    /// (written by a newer version during a rolling deploy) stay queued,
    /// untouched.
    fn kind(&self) -> &'static str;
    /// Jobs claimed at once (handlers that batch provider calls want more).
    fn batch_size(&self) -> i64 {
        1
    }
    /// Bulk unless a person waits on the result.
    fn priority(&self) -> Priority {
        Priority::Bulk
    }
    /// One outcome per job id; a job left out counts as failed (retried).
    async fn run(&self, jobs: Vec<Job>) -> Vec<(i64, Outcome)>;
}

/// Writes the outcomes of jobs claimed by `worker`: completions in one
/// statement, failures grouped by mode and message.
pub async fn record(db: &PgPool, worker: &str, outcomes: &[(i64, Outcome)]) -> sqlx::Result<()> {
    let mut done = Vec::new();
    let mut failed: BTreeMap<(&str, &str), (FailMode, Vec<i64>)> = BTreeMap::new();
    for (id, outcome) in outcomes {
        match outcome {
            Outcome::Done => done.push(*id),
            Outcome::Failed { mode, error } => {
                let key = (fail_mode_key(*mode), error.as_str());
                failed.entry(key).or_insert((*mode, Vec::new())).1.push(*id);
            }
        }
    }
    if !done.is_empty() {
        crate::db::jobs::complete(db, &done, worker).await?;
    }
    for ((_, error), (mode, ids)) in failed {
        tracing::warn!(jobs = ids.len(), ?mode, "jobs failed: {error}");
        crate::db::jobs::fail(db, &ids, worker, error, mode).await?;
    }
    Ok(())
}

fn fail_mode_key(mode: FailMode) -> &'static str {
    match mode {
        FailMode::Retry => "retry",
        FailMode::Unavailable => "unavailable",
        FailMode::UnavailableSoon => "unavailable_soon",
        FailMode::Permanent => "permanent",
    }
}

/// `host:pid:n`, the `locked_by` of the `n`-th worker of this process.
pub fn worker_id(n: usize) -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".into());
    format!("{host}:{}:{n}", std::process::id())
}
