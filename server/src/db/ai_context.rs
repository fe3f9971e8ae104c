//! What the assistant's system prompt says besides its rules: the request
//! the conversation is about (DEMANDE EN COURS) and recent signals (similar
//! requests, training, knowledge). Read-only.
use sqlx::types::Json;
use sqlx::{FromRow, PgExecutor};

#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct RequestContext {
    pub id: i64,
    pub reference: String,
    pub pool_id: i64,
    pub pool_name: String,
    pub status: String,
    pub event_type: Option<String>,
    pub participants: Option<i32>,
    pub configurations: Vec<String>,
    pub postal_codes: Vec<String>,
    pub area: Option<String>,
    pub budget_eur: Option<i32>,
    pub event_start_date: Option<chrono::NaiveDate>,
    pub description: String,
    pub team_memo: Option<String>,
    pub search_hints: Option<String>,
}

pub async fn request(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<RequestContext>> {
    sqlx::query_as(
        "SELECT r.id, r.reference, r.pool_id, p.name AS pool_name, r.status, r.event_type,
                r.participants, r.configurations, r.postal_codes, r.area, r.budget_eur,
                r.event_start_date, r.description, r.team_memo, r.search_hints
           FROM requests r JOIN pools p ON p.id = r.pool_id
          WHERE r.id = $1",
    )
    .bind(id)
    .fetch_optional(db)
    .await
}

/// A past request of the same pool that resembles this one.
#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct SimilarRequest {
    pub reference: String,
    pub event_type: Option<String>,
    pub participants: Option<i32>,
    pub description: String,
}

/// The three past requests of the pool whose words best match (any word
/// counts: the query ORs the description's lexemes).
pub async fn similar_requests(
    db: impl PgExecutor<'_>,
    request: &RequestContext,
) -> sqlx::Result<Vec<SimilarRequest>> {
    sqlx::query_as(
        "WITH q AS (SELECT nullif(replace(plainto_tsquery('french', $3)::text, '&', '|'), '')::tsquery AS q)
         SELECT r.reference, r.event_type, r.participants, r.description
           FROM requests r, q
          WHERE r.pool_id = $2 AND r.id <> $1 AND q.q IS NOT NULL AND r.search_tsv @@ q.q
          ORDER BY ts_rank(r.search_tsv, q.q) DESC, r.created_at DESC
          LIMIT 3",
    )
    .bind(request.id)
    .bind(request.pool_id)
    .bind(format!(
        "{} {}",
        request.event_type.as_deref().unwrap_or(""),
        request.description
    ))
    .fetch_all(db)
    .await
}

#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct RecentTraining {
    pub verdict: String,
    pub category: String,
    pub event_type: Option<String>,
    pub member_code: Option<String>,
    pub reason: String,
    pub directives: Option<Json<serde_json::Value>>,
}

pub async fn recent_training(
    db: impl PgExecutor<'_>,
    limit: i64,
) -> sqlx::Result<Vec<RecentTraining>> {
    sqlx::query_as(
        "SELECT t.verdict, t.category, t.event_type, m.code AS member_code, t.reason, t.directives
           FROM training_sessions t LEFT JOIN members m ON m.id = t.member_id
          ORDER BY t.created_at DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(db)
    .await
}

#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct RecentKnowledge {
    pub member_code: String,
    pub title: String,
}

pub async fn recent_knowledge(
    db: impl PgExecutor<'_>,
    limit: i64,
) -> sqlx::Result<Vec<RecentKnowledge>> {
    sqlx::query_as(
        "SELECT m.code AS member_code, k.title
           FROM knowledge_entries k JOIN members m ON m.id = k.member_id
          ORDER BY k.created_at DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(db)
    .await
}
