//! `knowledge_entries` as the assistant reads them: a venue's latest
//! entries, and a search over title and content (French full text, then a
//! plain substring match when the words find nothing). Runtime-checked.
use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct EntryRow {
    pub member_code: String,
    pub title: String,
    pub content: String,
    pub source: String,
    pub created_at: DateTime<Utc>,
}

/// A venue's latest entries.
pub async fn of_member(
    db: impl PgExecutor<'_>,
    member_id: i64,
    limit: i64,
) -> sqlx::Result<Vec<EntryRow>> {
    sqlx::query_as(
        "SELECT m.code AS member_code, k.title, k.content, k.source, k.created_at
           FROM knowledge_entries k JOIN members m ON m.id = k.member_id
          WHERE k.member_id = $1
          ORDER BY k.created_at DESC, k.id DESC
          LIMIT $2",
    )
    .bind(member_id)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// Entries whose title or content holds one of the query's words (French
/// stemming), newest first. The table has no stored vector of its own yet:
/// the document is computed per row, fine at the size a knowledge base has.
pub async fn search_text(
    db: impl PgExecutor<'_>,
    query: &str,
    member_id: Option<i64>,
    limit: i64,
) -> sqlx::Result<Vec<EntryRow>> {
    sqlx::query_as(
        "WITH q AS (SELECT nullif(replace(plainto_tsquery('french', $1)::text, ' & ', ' | '), '') AS q)
         SELECT m.code AS member_code, k.title, k.content, k.source, k.created_at
           FROM q, knowledge_entries k JOIN members m ON m.id = k.member_id
          WHERE q.q IS NOT NULL
            AND to_tsvector('french', k.title || ' ' || k.content) @@ q.q::tsquery
            AND ($2::bigint IS NULL OR k.member_id = $2)
          ORDER BY k.created_at DESC, k.id DESC
          LIMIT $3",
    )
    .bind(query)
    .bind(member_id)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// The fallback: entries holding the query as a substring (case-insensitive;
/// `%` and `_` in the query match themselves).
pub async fn search_substring(
    db: impl PgExecutor<'_>,
    query: &str,
    member_id: Option<i64>,
    limit: i64,
) -> sqlx::Result<Vec<EntryRow>> {
    let pattern = format!(
        "%{}%",
        query
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_")
    );
    sqlx::query_as(
        "SELECT m.code AS member_code, k.title, k.content, k.source, k.created_at
           FROM knowledge_entries k JOIN members m ON m.id = k.member_id
          WHERE (k.title ILIKE $1 OR k.content ILIKE $1)
            AND ($2::bigint IS NULL OR k.member_id = $2)
          ORDER BY k.created_at DESC, k.id DESC
          LIMIT $3",
    )
    .bind(pattern)
    .bind(member_id)
    .bind(limit)
    .fetch_all(db)
    .await
}
