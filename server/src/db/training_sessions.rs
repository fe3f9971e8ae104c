//! `training_sessions` as `search_training` reads them: by event type
//! and/or the words of a text (French full text over `search_tsv`, the
//! words OR-ed), newest first. Runtime-checked.
use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct SessionRow {
    pub id: i64,
    pub verdict: String,
    pub category: String,
    pub event_type: Option<String>,
    pub member_code: Option<String>,
    pub reason: String,
    pub directives: Option<serde_json::Value>,
    pub created_at: DateTime<Utc>,
}

/// Sessions of `event_type` (when given) whose text shares a word with
/// `text` (when given), newest first.
pub async fn search(
    db: impl PgExecutor<'_>,
    text: Option<&str>,
    event_type: Option<&str>,
    limit: i64,
) -> sqlx::Result<Vec<SessionRow>> {
    sqlx::query_as(
        "WITH q AS (SELECT nullif(replace(plainto_tsquery('french', coalesce($1, ''))::text,
                                          ' & ', ' | '), '') AS q)
         SELECT t.id, t.verdict, t.category, t.event_type, m.code AS member_code, t.reason,
                t.directives, t.created_at
           FROM q, training_sessions t LEFT JOIN members m ON m.id = t.member_id
          WHERE ($2::text IS NULL OR lower(t.event_type) = lower($2))
            AND ($1::text IS NULL OR (q.q IS NOT NULL AND t.search_tsv @@ q.q::tsquery))
          ORDER BY t.created_at DESC, t.id DESC
          LIMIT $3",
    )
    .bind(text)
    .bind(event_type)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// The `limit` sessions nearest to `query` by meaning (vectors of the same
/// model and size only, at least `min_similarity` in cosine), of
/// `event_type` when given; shown newest first like the other paths.
pub async fn search_by_vector(
    db: impl PgExecutor<'_>,
    query: &pgvector::Vector,
    model: &str,
    event_type: Option<&str>,
    min_similarity: f64,
    limit: i64,
) -> sqlx::Result<Vec<SessionRow>> {
    sqlx::query_as(
        "SELECT * FROM (
             SELECT t.id, t.verdict, t.category, t.event_type, m.code AS member_code, t.reason,
                    t.directives, t.created_at
               FROM training_sessions t LEFT JOIN members m ON m.id = t.member_id
              WHERE t.embedding IS NOT NULL AND t.embedding_model = $2
                AND vector_dims(t.embedding) = vector_dims($1)
                AND ($3::text IS NULL OR lower(t.event_type) = lower($3))
                AND 1 - (t.embedding <=> $1) >= $4
              ORDER BY t.embedding <=> $1, t.id DESC
              LIMIT $5) nearest
          ORDER BY created_at DESC, id DESC",
    )
    .bind(query)
    .bind(model)
    .bind(event_type)
    .bind(min_similarity)
    .bind(limit)
    .fetch_all(db)
    .await
}
