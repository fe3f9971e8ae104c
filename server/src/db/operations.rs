//! What an operator watches that only the database knows: the job queue's
//! depth and age, and the approval cards waiting for someone. Read when
//! `/metrics` is scraped (one round trip).
use sqlx::PgExecutor;

#[derive(Debug, Default, sqlx::FromRow)]
pub struct Backlog {
    pub queued_jobs: i64,
    pub running_jobs: i64,
    /// Seconds the oldest job due to run has waited; 0 when none waits.
    pub oldest_queued_seconds: f64,
    pub pending_approvals: i64,
}

pub async fn backlog(db: impl PgExecutor<'_>) -> sqlx::Result<Backlog> {
    sqlx::query_as(
        "SELECT (SELECT count(*) FROM jobs WHERE status = 'queued') AS queued_jobs,
                (SELECT count(*) FROM jobs WHERE status = 'running') AS running_jobs,
                (SELECT coalesce(extract(epoch FROM now() - min(run_at)), 0)::float8
                   FROM jobs WHERE status = 'queued' AND run_at <= now()) AS oldest_queued_seconds,
                (SELECT count(*) FROM ai_pending_approvals
                  WHERE status = 'pending' AND expires_at > now()) AS pending_approvals",
    )
    .fetch_one(db)
    .await
}
