//! `jobs`: the background job queue (migrations 0008 and 0010).
//!
//! Any number of workers, in any number of processes, claim rows with
//! `FOR UPDATE SKIP LOCKED`; every state change checks that the row is still
//! `running` under the same worker, so a worker the reaper gave up on can
//! never complete or fail a job another worker has claimed since.
use sqlx::PgExecutor;
use std::time::Duration;

/// A claimed job, as its handler sees it.
#[derive(Clone, Debug)]
pub struct Job {
    pub id: i64,
    pub kind: String,
    pub payload: serde_json::Value,
    /// Including the current one.
    pub attempts: i32,
    pub max_attempts: i32,
}

/// What [`enqueue`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enqueued {
    /// A new queued row.
    New(i64),
    /// A row with this key was already queued: it will see the new state.
    AlreadyQueued,
    /// A row with this key is running: it will run once more when it ends,
    /// since its handler may have read the state before the change.
    RerunRequested(i64),
}

/// How a failed job is retried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailMode {
    /// Re-queued with exponential backoff (10 s, 20 s, 40 s… up to 1 h)
    /// until `max_attempts`, then `failed`.
    Retry,
    /// A dependency is down (the embedding server): re-queued with backoff
    /// capped at 10 minutes, never `failed`, so nothing is lost in an outage.
    Unavailable,
    /// The same for work a person is waiting on (a memory row's vector):
    /// re-queued after 1 s, 2 s, 4 s… capped at 30 s, never `failed`, so the
    /// job runs within about 30 s of the dependency answering again.
    UnavailableSoon,
    /// Retrying cannot help (bad payload, misconfiguration): `failed` now.
    Permanent,
}

impl FailMode {
    fn as_str(self) -> &'static str {
        match self {
            FailMode::Retry => "retry",
            FailMode::Unavailable => "unavailable",
            FailMode::UnavailableSoon => "unavailable_soon",
            FailMode::Permanent => "permanent",
        }
    }
}

/// Idempotent enqueue: at most one queued-or-running job per `dedupe_key`
/// (NULL keys never conflict). A conflict locks the existing row until the
/// caller commits, so no worker starts it while the change that enqueued it
/// is still invisible.
pub async fn enqueue(
    db: impl PgExecutor<'_>,
    kind: &str,
    payload: &serde_json::Value,
    dedupe_key: Option<&str>,
) -> sqlx::Result<Enqueued> {
    let row = sqlx::query!(
        "INSERT INTO jobs (kind, payload, dedupe_key) VALUES ($1, $2, $3)
         ON CONFLICT (dedupe_key) WHERE status IN ('queued', 'running')
         DO UPDATE SET rerun_requested = true WHERE jobs.status = 'running'
         RETURNING id, status",
        kind,
        payload,
        dedupe_key
    )
    .fetch_optional(db)
    .await?;
    Ok(match row {
        None => Enqueued::AlreadyQueued,
        Some(r) if r.status == "running" => Enqueued::RerunRequested(r.id),
        Some(r) => Enqueued::New(r.id),
    })
}

/// Claims up to `limit` due jobs of `kind`, oldest `run_at` first: they
/// become `running`, locked by `worker`, with one more attempt counted.
pub async fn claim(
    db: impl PgExecutor<'_>,
    kind: &str,
    limit: i64,
    worker: &str,
) -> sqlx::Result<Vec<Job>> {
    // MATERIALIZED: the locking subquery must run exactly once.
    sqlx::query_as!(
        Job,
        "WITH picked AS MATERIALIZED (
             SELECT id FROM jobs
              WHERE status = 'queued' AND kind = $1 AND run_at <= now()
              ORDER BY run_at, id
              LIMIT $2
              FOR UPDATE SKIP LOCKED)
         UPDATE jobs j
            SET status = 'running', locked_at = now(), locked_by = $3,
                attempts = j.attempts + 1
           FROM picked
          WHERE j.id = picked.id
         RETURNING j.id, j.kind, j.payload, j.attempts, j.max_attempts",
        kind,
        limit,
        worker
    )
    .fetch_all(db)
    .await
}

/// Claims the queued jobs with these keys, due or not (an operator command
/// doing the work now). Jobs locked or running elsewhere are left alone.
pub async fn claim_keys(
    db: impl PgExecutor<'_>,
    dedupe_keys: &[String],
    worker: &str,
) -> sqlx::Result<Vec<(Job, String)>> {
    let rows = sqlx::query!(
        r#"WITH picked AS MATERIALIZED (
             SELECT id FROM jobs
              WHERE status = 'queued' AND dedupe_key = ANY($1)
              ORDER BY id
              FOR UPDATE SKIP LOCKED)
         UPDATE jobs j
            SET status = 'running', locked_at = now(), locked_by = $2,
                attempts = j.attempts + 1
           FROM picked
          WHERE j.id = picked.id
         RETURNING j.id, j.kind, j.payload, j.attempts, j.max_attempts,
                   j.dedupe_key AS "dedupe_key!""#,
        dedupe_keys,
        worker
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let job = Job {
                id: r.id,
                kind: r.kind,
                payload: r.payload,
                attempts: r.attempts,
                max_attempts: r.max_attempts,
            };
            (job, r.dedupe_key)
        })
        .collect())
}

/// The keys among `dedupe_keys` whose job is running right now.
pub async fn running_keys(
    db: impl PgExecutor<'_>,
    dedupe_keys: &[String],
) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        r#"SELECT dedupe_key AS "dedupe_key!" FROM jobs
            WHERE dedupe_key = ANY($1) AND status = 'running'"#,
        dedupe_keys
    )
    .fetch_all(db)
    .await
}

/// Marks jobs done; those whose subject changed while they ran
/// (`rerun_requested`) are queued again instead, with a fresh attempt count.
pub async fn complete(db: impl PgExecutor<'_>, ids: &[i64], worker: &str) -> sqlx::Result<u64> {
    // Every SET expression reads the row as it was before this UPDATE.
    let done = sqlx::query!(
        "UPDATE jobs
            SET status = CASE WHEN rerun_requested THEN 'queued' ELSE 'done' END,
                attempts = CASE WHEN rerun_requested THEN 0 ELSE attempts END,
                run_at = CASE WHEN rerun_requested THEN now() ELSE run_at END,
                finished_at = CASE WHEN rerun_requested THEN NULL ELSE now() END,
                rerun_requested = false, locked_at = NULL, locked_by = NULL,
                last_error = NULL
          WHERE id = ANY($1) AND status = 'running' AND locked_by = $2",
        ids,
        worker
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}

/// Records a failure of `ids` (see [`FailMode`] for what happens next).
pub async fn fail(
    db: impl PgExecutor<'_>,
    ids: &[i64],
    worker: &str,
    error: &str,
    mode: FailMode,
) -> sqlx::Result<u64> {
    // Backoff: 10 s × 2^(attempts - 1) (1 s × for `unavailable_soon`),
    // capped (the exponent too, so the arithmetic stays small however many
    // outages a job lived through).
    let failed = sqlx::query!(
        "UPDATE jobs
            SET status = CASE WHEN $4 = 'permanent' OR ($4 = 'retry' AND attempts >= max_attempts)
                              THEN 'failed' ELSE 'queued' END,
                finished_at = CASE WHEN $4 = 'permanent' OR ($4 = 'retry' AND attempts >= max_attempts)
                                   THEN now() END,
                run_at = now() + make_interval(secs => least(
                             CASE WHEN $4 = 'unavailable_soon' THEN 1 ELSE 10 END
                                 * power(2, least(greatest(attempts, 1), 20) - 1),
                             CASE $4 WHEN 'unavailable' THEN 600
                                     WHEN 'unavailable_soon' THEN 30 ELSE 3600 END)),
                last_error = left($3, 2000),
                rerun_requested = false, locked_at = NULL, locked_by = NULL
          WHERE id = ANY($1) AND status = 'running' AND locked_by = $2",
        ids,
        worker,
        error,
        mode.as_str()
    )
    .execute(db)
    .await?;
    Ok(failed.rows_affected())
}

/// Re-queues jobs left `running` longer than `timeout` (their worker died or
/// lost the database); jobs out of attempts become `failed`, so a job that
/// kills its worker cannot loop forever. Returns the ids.
pub async fn reap(db: impl PgExecutor<'_>, timeout: Duration) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar!(
        "UPDATE jobs
            SET status = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
                finished_at = CASE WHEN attempts >= max_attempts THEN now() END,
                run_at = now(),
                last_error = 'worker ' || coalesce(locked_by, '?') || ' held it since '
                             || to_char(locked_at, 'YYYY-MM-DD HH24:MI:SS TZ') || ' and was presumed dead',
                rerun_requested = false, locked_at = NULL, locked_by = NULL
          WHERE status = 'running' AND locked_at < now() - make_interval(secs => $1)
         RETURNING id",
        timeout.as_secs_f64()
    )
    .fetch_all(db)
    .await
}

/// Deletes up to `limit` jobs finished as `done` more than `older_than` ago
/// (failed ones stay for inspection). Returns how many went.
pub async fn purge_done(
    db: impl PgExecutor<'_>,
    older_than: Duration,
    limit: i64,
) -> sqlx::Result<u64> {
    let purged = sqlx::query!(
        "DELETE FROM jobs WHERE id IN (
             SELECT id FROM jobs
              WHERE status = 'done' AND finished_at < now() - make_interval(secs => $1)
              LIMIT $2)",
        older_than.as_secs_f64(),
        limit
    )
    .execute(db)
    .await?;
    Ok(purged.rows_affected())
}
