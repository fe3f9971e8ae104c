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
/// model, a NULL embedding or cancelled tasks never do). The scan is exact
/// (ADR 0017): the user's entries of the covering index
/// `<table>_user_vectors_<dims>` (`memory::vector_index`) are read as an
/// index-only scan, each distance computed once, and only the `limit`
/// nearest rows are then read from the table for their text. Past the
/// covered dimensions the same query scans the user's rows by `user_id`.
pub async fn nearest(
    db: impl PgExecutor<'_>,
    user_id: i64,
    query: &pgvector::Vector,
    dims: u32,
    model: &str,
    limit: i64,
) -> sqlx::Result<Vec<HitRow>> {
    // `dims` is a number, never text from a user: safe to write into the SQL
    // (a typmod cannot be a bind parameter). The predicates repeat the
    // covering index's (`embedding IS NOT NULL AND vector_dims(...)`) so the
    // planner can use it; every column read is in it (no heap page).
    let distance = format!("embedding::vector({dims}) <=> $2::vector({dims})");
    sqlx::query_as(&format!(
        "WITH m AS (
             SELECT id, {distance} AS d FROM ai_memories
              WHERE user_id = $1 AND embedding IS NOT NULL AND vector_dims(embedding) = {dims}
                AND embedding_model = $3
              ORDER BY d, id LIMIT $4
         ), t AS (
             SELECT id, {distance} AS d FROM tasks
              WHERE user_id = $1 AND embedding IS NOT NULL AND vector_dims(embedding) = {dims}
                AND embedding_model = $3 AND status <> 'cancelled'
              ORDER BY d, id LIMIT $4
         )
         SELECT * FROM (
             SELECT 'memory'::text AS kind, x.id, x.title, x.content,
                    NULL::timestamptz AS due_at, x.created_at, (1 - m.d)::float8 AS score
               FROM m JOIN ai_memories x ON x.id = m.id
             UNION ALL
             SELECT 'task'::text, x.id, x.title, x.description, x.due_at, x.created_at,
                    (1 - t.d)::float8
               FROM t JOIN tasks x ON x.id = t.id
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
