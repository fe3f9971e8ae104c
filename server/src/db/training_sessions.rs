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
