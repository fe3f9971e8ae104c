//! `memory_searches`: how each memory search was answered (source, best
//! cosine similarity, hit count), for the memory page's source split and the
//! floor's recalibration. Never the query text.
use sqlx::PgExecutor;

pub async fn record(
    db: impl PgExecutor<'_>,
    user_id: i64,
    source: &str,
    best_similarity: Option<f64>,
    hits: i32,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO memory_searches (user_id, source, best_similarity, hits)
         VALUES ($1, $2, $3, $4)",
    )
    .bind(user_id)
    .bind(source)
    .bind(best_similarity)
    .bind(hits)
    .execute(db)
    .await?;
    Ok(())
}

/// (source, count) of the user's searches of the last `days` days, served
/// by `memory_searches_user_created_idx`.
pub async fn split(
    db: impl PgExecutor<'_>,
    user_id: i64,
    days: i32,
) -> sqlx::Result<Vec<(String, i64)>> {
    sqlx::query_as(
        "SELECT source, count(*) FROM memory_searches
          WHERE user_id = $1 AND created_at >= now() - make_interval(days => $2)
          GROUP BY source",
    )
    .bind(user_id)
    .bind(days)
    .fetch_all(db)
    .await
}

/// Deletes the searches older than `keep_days` among the `window` oldest
/// rows (by id); how many went. Bounded work whatever the table's size: the
/// table has no index on `created_at` alone (one would cost every search a
/// write for a sweep's sake), but ids grow with time, so the oldest rows by
/// the primary key are the oldest searches. A row whose date was set by hand
/// out of that order waits until the rows before it go.
pub async fn prune_oldest(
    db: impl PgExecutor<'_>,
    keep_days: i32,
    window: i64,
) -> sqlx::Result<u64> {
    sqlx::query(
        "WITH oldest AS (SELECT id, created_at FROM memory_searches ORDER BY id LIMIT $2)
         DELETE FROM memory_searches m USING oldest
          WHERE m.id = oldest.id AND oldest.created_at < now() - make_interval(days => $1)",
    )
    .bind(keep_days)
    .bind(window)
    .execute(db)
    .await
    .map(|r| r.rows_affected())
}
