//! The worker loop: claim a batch per kind (interactive kinds first), run
//! it, record the outcomes; when nothing is due, sleep until a `NOTIFY jobs`
//! or the next poll.
//!
//! Any number of loops may run in any number of processes on one database:
//! claims use `FOR UPDATE SKIP LOCKED`, and each loop also reaps the jobs of
//! workers that died (cheap, and harmless when several do it).
//!
//! Besides the configured workers, [`start`] runs one loop over the
//! interactive kinds alone: a general worker busy with a bulk batch (48
//! venue texts on a busy document server: seconds) cannot look for a
//! memory row's job until the batch ends, this one can (ADR 0033).
use super::{record, wakeup, worker_id, Job, Outcome, Registry};
use crate::db::jobs::FailMode;
use sqlx::PgPool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{watch, Notify};
use tokio::task::JoinHandle;

#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// Sleep when no job is due (a notification cuts it short).
    pub idle_poll: Duration,
    /// A batch still running after this is abandoned and retried.
    pub job_timeout: Duration,
    /// `running` jobs locked longer than this are re-queued by the reaper.
    /// Longer than `job_timeout`, so a live worker's batch is never reaped.
    pub reap_after: Duration,
    pub reap_every: Duration,
    /// `done` jobs are deleted this long after they finished (hourly sweep).
    pub keep_done: Duration,
    /// Where the `LISTEN jobs` connection goes (`db::direct_pool`) when the
    /// workers' pool goes through a transaction pooler, which cannot carry
    /// a `LISTEN` (ADR 0040); `None`: the workers' pool.
    pub listen_db: Option<PgPool>,
}

impl Default for WorkerOptions {
    fn default() -> Self {
        WorkerOptions {
            idle_poll: Duration::from_secs(1),
            job_timeout: Duration::from_secs(5 * 60),
            reap_after: Duration::from_secs(10 * 60),
            reap_every: Duration::from_secs(60),
            keep_done: Duration::from_secs(7 * 24 * 3600),
            listen_db: None,
        }
    }
}

/// The longest sleep after repeated database errors.
const MAX_ERROR_BACKOFF: Duration = Duration::from_secs(30);
/// How often each worker deletes old `done` jobs, and how many at most.
const PURGE_EVERY: Duration = Duration::from_secs(3600);
const PURGE_LIMIT: i64 = 10_000;

/// The tasks [`start`] spawned.
pub struct Workers {
    tasks: Vec<JoinHandle<()>>,
}

impl Workers {
    /// Waits until every task has stopped (send `true` on the shutdown
    /// channel first): in-flight batches finish, none is started.
    pub async fn join(self) {
        for task in self.tasks {
            if let Err(e) = task.await {
                tracing::error!(error = %e, "a job worker task failed");
            }
        }
    }
}

/// Spawns `count` worker loops, one more for the interactive kinds (when
/// `count > 0` and the registry has any), and the process's `LISTEN jobs`
/// task; they all stop when `shutdown` turns `true` (or its sender is
/// dropped).
pub fn start(
    db: &PgPool,
    registry: &Registry,
    count: usize,
    options: &WorkerOptions,
    shutdown: &watch::Receiver<bool>,
) -> Workers {
    if count == 0 {
        return Workers { tasks: Vec::new() };
    }
    let wake = Arc::new(Notify::new());
    let mut tasks = vec![tokio::spawn(wakeup::listen(
        options.listen_db.as_ref().unwrap_or(db).clone(),
        wake.clone(),
        shutdown.clone(),
    ))];
    let interactive = registry.interactive();
    let loops = (0..count)
        .map(|_| registry.clone())
        .chain((!interactive.is_empty()).then_some(interactive));
    for (n, registry) in loops.enumerate() {
        let id = worker_id(n);
        tracing::info!(worker = %id, kinds = ?registry.kinds(), "job worker started");
        tasks.push(tokio::spawn(run(
            db.clone(),
            registry,
            id,
            options.clone(),
            wake.clone(),
            shutdown.clone(),
        )));
    }
    Workers { tasks }
}

/// One worker loop, until `shutdown` turns `true`.
pub async fn run(
    db: PgPool,
    registry: Registry,
    id: String,
    options: WorkerOptions,
    wake: Arc<Notify>,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut next_reap = Instant::now();
    let mut next_purge = Instant::now();
    let mut errors = 0u32;
    while !*shutdown.borrow() {
        // Registered before looking for work, so a notification that
        // arrives while we look is not lost.
        let notified = wake.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();

        housekeeping(&db, &options, &mut next_reap, &mut next_purge).await;
        let pause = match run_once(&db, &registry, &id, &options).await {
            Ok(0) => {
                errors = 0;
                options.idle_poll
            }
            Ok(_) => {
                errors = 0;
                continue;
            }
            Err(e) => {
                errors = errors.saturating_add(1);
                tracing::warn!(worker = %id, error = %e, "job worker cannot reach the database");
                (options.idle_poll * 2u32.saturating_pow(errors.min(16))).min(MAX_ERROR_BACKOFF)
            }
        };
        tokio::select! {
            () = &mut notified => {}
            () = tokio::time::sleep(pause) => {}
            _ = shutdown.wait_for(|stop| *stop) => {}
        }
    }
    tracing::info!(worker = %id, "job worker stopped");
}

/// Reaps stuck jobs (every `reap_every`) and deletes old `done` jobs
/// (hourly). Several workers doing it at once is harmless.
async fn housekeeping(
    db: &PgPool,
    options: &WorkerOptions,
    next_reap: &mut Instant,
    next_purge: &mut Instant,
) {
    if Instant::now() >= *next_reap {
        *next_reap = Instant::now() + options.reap_every;
        match crate::db::jobs::reap(db, options.reap_after).await {
            Ok(ids) if !ids.is_empty() => {
                tracing::warn!(jobs = ?ids, "re-queued jobs whose worker stopped responding");
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "cannot reap stuck jobs"),
        }
    }
    if Instant::now() >= *next_purge {
        *next_purge = Instant::now() + PURGE_EVERY;
        match crate::db::jobs::purge_done(db, options.keep_done, PURGE_LIMIT).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(jobs = n, "old finished jobs deleted"),
            Err(e) => tracing::warn!(error = %e, "cannot delete old finished jobs"),
        }
    }
}

/// Claims and runs at most one batch of each registered kind, interactive
/// kinds first (the registry's order); returns how many jobs ran. Tests and
/// commands call it to drain the queue in the foreground.
pub async fn run_once(
    db: &PgPool,
    registry: &Registry,
    worker: &str,
    options: &WorkerOptions,
) -> sqlx::Result<usize> {
    let mut ran = 0;
    for handler in registry.handlers() {
        let jobs = crate::db::jobs::claim(db, handler.kind(), handler.batch_size(), worker).await?;
        if jobs.is_empty() {
            continue;
        }
        ran += jobs.len();
        let outcomes = run_batch(handler.clone(), jobs, options.job_timeout).await;
        // On error the jobs stay `running` until the reaper re-queues them.
        record(db, worker, &outcomes).await?;
    }
    Ok(ran)
}

/// Runs a handler in its own task, so a panic or a hang fails the batch
/// (retried) instead of the worker.
async fn run_batch(
    handler: Arc<dyn super::JobHandler>,
    jobs: Vec<Job>,
    timeout: Duration,
) -> Vec<(i64, Outcome)> {
    let ids: Vec<i64> = jobs.iter().map(|j| j.id).collect();
    let kind = handler.kind();
    let mut task = tokio::spawn(async move { handler.run(jobs).await });
    let mut outcomes = match tokio::time::timeout(timeout, &mut task).await {
        Ok(Ok(outcomes)) => outcomes,
        Ok(Err(e)) => {
            tracing::error!(kind, error = %e, "a job handler panicked");
            all_failed(&ids, &format!("the {kind} handler panicked: {e}"))
        }
        Err(_) => {
            task.abort();
            let error = format!("the {kind} handler did not finish within {timeout:?}");
            tracing::error!(kind, "{error}");
            all_failed(&ids, &error)
        }
    };
    for id in &ids {
        if !outcomes.iter().any(|(done, _)| done == id) {
            outcomes.push((
                *id,
                Outcome::failed(
                    FailMode::Retry,
                    format!("the {kind} handler reported no outcome"),
                ),
            ));
        }
    }
    outcomes.retain(|(id, _)| ids.contains(id));
    outcomes
}

fn all_failed(ids: &[i64], error: &str) -> Vec<(i64, Outcome)> {
    ids.iter()
        .map(|id| (*id, Outcome::failed(FailMode::Retry, error)))
        .collect()
}
