//! The vector path of the memory search: exact cosine similarity over one
//! user's memories and tasks (seed 003 part 7, ADR 0003).
//!
//! The one place that knows the cast and the `vector_dims` predicate for
//! these tables, so the search and the benchmark run the same SQL.
use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

/// One hit of any step of the memory search, memory or task.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct HitRow {
    /// `memory` or `task`.
    pub kind: String,
    pub id: i64,
    pub title: String,
    /// The memory's content or the task's description.
    pub content: String,
    pub due_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    /// Cosine similarity (vector), full-text rank (fts) or 0 (recency).
    pub score: f64,
}

/// The `limit` rows of `user_id` nearest to `query`, both tables merged,
/// most similar first, **without** a floor (the caller reports the best
/// similarity even when it is below the floor, then filters).
///
/// Only vectors of `model` with `dims` dimensions take part (rows of another
/// model, a NULL embedding or cancelled tasks never do). The scan is exact:
/// `user_id` narrows to one user's rows through the `(user_id, created_at)`
/// indexes and the distance is computed for each of them. The `+ 0` keeps
/// the ordering away from any HNSW index on the column (ADR 0003 §4): an ANN
/// scan filtered by user afterwards would return at most `hnsw.ef_search`
/// rows before the filter and silently lose this user's best matches.
pub async fn nearest(
    db: impl PgExecutor<'_>,
    user_id: i64,
    query: &pgvector::Vector,
    dims: u32,
    model: &str,
    limit: i64,
) -> sqlx::Result<Vec<HitRow>> {
    // `dims` is a number, never text from a user: safe to write into the SQL
    // (a typmod cannot be a bind parameter).
    let distance =
        |alias: &str| format!("({alias}.embedding::vector({dims}) <=> $2::vector({dims}))");
    let (dm, dt) = (distance("m"), distance("t"));
    sqlx::query_as(&format!(
        "SELECT * FROM (
             (SELECT 'memory'::text AS kind, m.id, m.title, m.content,
                     NULL::timestamptz AS due_at, m.created_at, (1 - {dm})::float8 AS score
                FROM ai_memories m
               WHERE m.user_id = $1 AND m.embedding_model = $3
                 AND vector_dims(m.embedding) = {dims}
               ORDER BY {dm} + 0, m.id
               LIMIT $4)
             UNION ALL
             (SELECT 'task'::text, t.id, t.title, t.description, t.due_at, t.created_at,
                     (1 - {dt})::float8
                FROM tasks t
               WHERE t.user_id = $1 AND t.status <> 'cancelled' AND t.embedding_model = $3
                 AND vector_dims(t.embedding) = {dims}
               ORDER BY {dt} + 0, t.id
               LIMIT $4)
         ) nearest
         ORDER BY score DESC, kind, id
         LIMIT $4"
    ))
    .bind(user_id)
    .bind(query)
    .bind(model)
    .bind(limit)
    .fetch_all(db)
    .await
}
