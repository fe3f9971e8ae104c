//! `ai_memories`: the facts a team member's assistant remembers, each scoped
//! to its user (every query filters on `user_id`: another user's id reads as
//! absent). Vectors are written here; the vector search is in
//! [`super::memory_vectors`].
use super::memory_vectors::HitRow;
use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct MemoryRow {
    pub id: i64,
    pub title: String,
    pub content: String,
    /// `tool`, `summary` or `manual`.
    pub source: String,
    pub conversation_id: Option<i64>,
    pub embedded: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, title, content, source, conversation_id,
                       embedding IS NOT NULL AS embedded, created_at, updated_at";

/// A vector and the model that produced it, or neither.
pub type Embedding<'a> = Option<(&'a pgvector::Vector, &'a str)>;

/// Inserts a memory. `None` when `conversation_id` is not one of the user's
/// conversations (checked in the same statement, so nothing is written).
pub async fn insert(
    db: impl PgExecutor<'_>,
    user_id: i64,
    title: &str,
    content: &str,
    source: &str,
    conversation_id: Option<i64>,
    embedding: Embedding<'_>,
) -> sqlx::Result<Option<MemoryRow>> {
    sqlx::query_as(&format!(
        "INSERT INTO ai_memories (user_id, title, content, source, conversation_id,
                                  embedding, embedding_model)
         SELECT $1, $2, $3, $4, $5, $6, $7
          WHERE $5::bigint IS NULL
             OR EXISTS (SELECT 1 FROM ai_conversations c WHERE c.id = $5 AND c.user_id = $1)
         RETURNING {COLUMNS}"
    ))
    .bind(user_id)
    .bind(title)
    .bind(content)
    .bind(source)
    .bind(conversation_id)
    .bind(embedding.map(|(v, _)| v))
    .bind(embedding.map(|(_, m)| m))
    .fetch_optional(db)
    .await
}

/// Rewrites title, content and vector (NULL when the new text could not be
/// embedded: the old vector described the old text). `None`: not this user's.
pub async fn update(
    db: impl PgExecutor<'_>,
    user_id: i64,
    id: i64,
    title: &str,
    content: &str,
    embedding: Embedding<'_>,
) -> sqlx::Result<Option<MemoryRow>> {
    sqlx::query_as(&format!(
        "UPDATE ai_memories SET title = $3, content = $4, embedding = $5, embedding_model = $6
          WHERE user_id = $1 AND id = $2
         RETURNING {COLUMNS}"
    ))
    .bind(user_id)
    .bind(id)
    .bind(title)
    .bind(content)
    .bind(embedding.map(|(v, _)| v))
    .bind(embedding.map(|(_, m)| m))
    .fetch_optional(db)
    .await
}

/// True when a row of this user was deleted.
pub async fn delete(db: impl PgExecutor<'_>, user_id: i64, id: i64) -> sqlx::Result<bool> {
    let done = sqlx::query("DELETE FROM ai_memories WHERE user_id = $1 AND id = $2")
        .bind(user_id)
        .bind(id)
        .execute(db)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Newest first (served by `ai_memories_user_created_idx`).
pub async fn list(
    db: impl PgExecutor<'_>,
    user_id: i64,
    limit: i64,
    offset: i64,
) -> sqlx::Result<Vec<MemoryRow>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM ai_memories WHERE user_id = $1
          ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3"
    ))
    .bind(user_id)
    .bind(limit)
    .bind(offset)
    .fetch_all(db)
    .await
}

/// Full-text hits (unaccented French, any one query word suffices: see
/// `maxy_fts_any` in migration 0018), best rank first. Served by the
/// per-user GIN `ai_memories_user_search_tsv_idx` (0026), which needs
/// `user_id` bound as bigint.
pub async fn fts(
    db: impl PgExecutor<'_>,
    user_id: i64,
    query: &str,
    limit: i64,
) -> sqlx::Result<Vec<HitRow>> {
    sqlx::query_as(
        "SELECT 'memory'::text AS kind, m.id, m.title, m.content, NULL::timestamptz AS due_at,
                m.created_at, ts_rank(m.search_tsv, q)::float8 AS score
           FROM ai_memories m, maxy_fts_any($2) q
          WHERE m.user_id = $1 AND m.search_tsv @@ q
          ORDER BY score DESC, m.created_at DESC, m.id DESC
          LIMIT $3",
    )
    .bind(user_id)
    .bind(query)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// The user's latest memories (the recency step; score 0).
pub async fn latest(
    db: impl PgExecutor<'_>,
    user_id: i64,
    limit: i64,
) -> sqlx::Result<Vec<HitRow>> {
    sqlx::query_as(
        "SELECT 'memory'::text AS kind, id, title, content, NULL::timestamptz AS due_at,
                created_at, 0::float8 AS score
           FROM ai_memories WHERE user_id = $1
          ORDER BY created_at DESC, id DESC LIMIT $2",
    )
    .bind(user_id)
    .bind(limit)
    .fetch_all(db)
    .await
}
