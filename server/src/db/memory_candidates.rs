//! Candidates of the memory search beyond the nearest vectors and the
//! full-text hits (`memory_vectors`, `ai_memories::fts`, `tasks::fts`):
//! the cosine of rows another step found, and the reminders due inside a
//! question's time window.
use super::memory_vectors::HitRow;
use chrono::NaiveDate;
use sqlx::PgExecutor;

/// The cosine similarity with `query` of the given rows of `user_id` that
/// have a vector of `model` and `dims` dimensions: `(kind, id, cosine)`.
pub async fn cosines(
    db: impl PgExecutor<'_>,
    user_id: i64,
    query: &pgvector::Vector,
    dims: u32,
    model: &str,
    memory_ids: &[i64],
    task_ids: &[i64],
) -> sqlx::Result<Vec<(String, i64, f64)>> {
    // `dims` is a number, never user text (a typmod cannot be bound).
    let similarity = format!("(1 - (embedding::vector({dims}) <=> $2::vector({dims})))::float8");
    sqlx::query_as(&format!(
        "SELECT 'memory'::text, id, {similarity} FROM ai_memories
          WHERE user_id = $1 AND id = ANY($4) AND embedding IS NOT NULL
            AND vector_dims(embedding) = {dims} AND embedding_model = $3
         UNION ALL
         SELECT 'task'::text, id, {similarity} FROM tasks
          WHERE user_id = $1 AND id = ANY($5) AND embedding IS NOT NULL
            AND vector_dims(embedding) = {dims} AND embedding_model = $3"
    ))
    .bind(user_id)
    .bind(query)
    .bind(model)
    .bind(memory_ids)
    .bind(task_ids)
    .fetch_all(db)
    .await
}

/// The user's open reminders due on a Paris day from `first` to `last`,
/// soonest first (score 0).
pub async fn due_between(
    db: impl PgExecutor<'_>,
    user_id: i64,
    first: NaiveDate,
    last: NaiveDate,
    limit: i64,
) -> sqlx::Result<Vec<HitRow>> {
    sqlx::query_as(
        "SELECT 'task'::text AS kind, id, title, description AS content, due_at, created_at,
                0::float8 AS score
           FROM tasks
          WHERE user_id = $1 AND status = 'open'
            AND due_at >= ($2::date::timestamp AT TIME ZONE 'Europe/Paris')
            AND due_at < (($3::date + 1)::timestamp AT TIME ZONE 'Europe/Paris')
          ORDER BY due_at, id
          LIMIT $4",
    )
    .bind(user_id)
    .bind(first)
    .bind(last)
    .bind(limit)
    .fetch_all(db)
    .await
}
