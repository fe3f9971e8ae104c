//! `ai_turns`: the assistant answering one message, recorded while it runs
//! so the stop button, a reload and another server process all see it.
use sqlx::PgExecutor;
use std::time::Duration;

/// The running turn of the conversation, if any.
pub async fn running(db: impl PgExecutor<'_>, conversation_id: i64) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar("SELECT id FROM ai_turns WHERE conversation_id = $1 AND status = 'running'")
        .bind(conversation_id)
        .fetch_optional(db)
        .await
}

/// Asks the running turn to stop; false when none runs.
pub async fn request_stop(db: impl PgExecutor<'_>, conversation_id: i64) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE ai_turns SET stop_requested = true
          WHERE conversation_id = $1 AND status = 'running'",
    )
    .bind(conversation_id)
    .execute(db)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Touches the heartbeat and says whether a stop was asked.
pub async fn beat(db: impl PgExecutor<'_>, turn_id: i64) -> sqlx::Result<bool> {
    let stop: Option<bool> = sqlx::query_scalar(
        "UPDATE ai_turns SET heartbeat_at = now() WHERE id = $1 AND status = 'running'
         RETURNING stop_requested",
    )
    .bind(turn_id)
    .fetch_optional(db)
    .await?;
    // A turn closed under us (marked stale) stops too.
    Ok(stop.unwrap_or(true))
}

/// Closes the turn as `done`, `stopped` or `failed`.
pub async fn finish(
    db: impl PgExecutor<'_>,
    turn_id: i64,
    status: &str,
    error: Option<&str>,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE ai_turns SET status = $2, error = $3, finished_at = now()
          WHERE id = $1 AND status = 'running'",
    )
    .bind(turn_id)
    .bind(status)
    .bind(error)
    .execute(db)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Running turns of the conversation whose process stopped beating for
/// `silence`: closed as failed, their ids returned.
pub async fn close_stale(
    db: impl PgExecutor<'_>,
    conversation_id: i64,
    silence: Duration,
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(
        "UPDATE ai_turns SET status = 'failed', finished_at = now(),
                error = 'the server running the turn stopped'
          WHERE conversation_id = $1 AND status = 'running'
            AND heartbeat_at < now() - make_interval(secs => $2)
          RETURNING id",
    )
    .bind(conversation_id)
    .bind(silence.as_secs_f64())
    .fetch_all(db)
    .await
}
