//! `requests` as the assistant's read tools see them: one request, the
//! requests most like it in its pool, and the picks of their latest
//! catalogue.
//!
//! Runtime-checked (`query_as`, not `query!`): no offline `.sqlx/` data to
//! regenerate; the tool tests run every query on a real database.
use chrono::NaiveDate;
use sqlx::PgExecutor;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct RequestRow {
    pub id: i64,
    pub reference: String,
    pub pool_id: i64,
    pub pool: String,
    pub status: String,
    pub participants: Option<i32>,
    pub configurations: Vec<String>,
    pub postal_codes: Vec<String>,
    pub event_type: Option<String>,
    pub budget_eur: Option<i32>,
    pub event_start_date: Option<NaiveDate>,
    pub area: Option<String>,
    pub description: String,
    pub team_memo: Option<String>,
    pub search_hints: Option<String>,
}

pub async fn by_id(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<RequestRow>> {
    sqlx::query_as(
        "SELECT r.id, r.reference, r.pool_id, p.slug AS pool, r.status, r.participants,
                r.configurations, r.postal_codes, r.event_type, r.budget_eur,
                r.event_start_date, r.area, r.description, r.team_memo, r.search_hints
           FROM requests r JOIN pools p ON p.id = r.pool_id
          WHERE r.id = $1",
    )
    .bind(id)
    .fetch_optional(db)
    .await
}

/// A request close to another one.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct SimilarRow {
    pub id: i64,
    pub reference: String,
    /// Cosine similarity (vector) or full-text rank (text).
    pub similarity: f64,
    pub description: String,
}

/// The `limit` requests of the same pool nearest by embedding, compared
/// only with vectors of the same model and size (another model's vectors
/// live in another space). Empty when the request has no vector.
pub async fn similar_by_vector(
    db: impl PgExecutor<'_>,
    id: i64,
    limit: i64,
) -> sqlx::Result<Vec<SimilarRow>> {
    sqlx::query_as(
        "SELECT r.id, r.reference, (1 - (r.embedding <=> me.embedding))::float8 AS similarity,
                r.description
           FROM requests me
           JOIN requests r ON r.pool_id = me.pool_id AND r.id <> me.id
                          AND r.embedding_model = me.embedding_model
          WHERE me.id = $1 AND me.embedding IS NOT NULL AND r.embedding IS NOT NULL
            AND vector_dims(r.embedding) = vector_dims(me.embedding)
          ORDER BY r.embedding <=> me.embedding, r.id DESC
          LIMIT $2",
    )
    .bind(id)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// The same by full text: the request's words (type, area, description)
/// OR-ed, since a similar request shares some words, rarely all.
pub async fn similar_by_text(
    db: impl PgExecutor<'_>,
    id: i64,
    limit: i64,
) -> sqlx::Result<Vec<SimilarRow>> {
    sqlx::query_as(
        "WITH me AS (
             SELECT id, pool_id,
                    nullif(replace(plainto_tsquery('french',
                        coalesce(event_type, '') || ' ' || coalesce(area, '') || ' ' || description)::text,
                        ' & ', ' | '), '') AS q
               FROM requests WHERE id = $1)
         SELECT r.id, r.reference, ts_rank(r.search_tsv, me.q::tsquery)::float8 AS similarity,
                r.description
           FROM me JOIN requests r ON r.pool_id = me.pool_id AND r.id <> me.id
          WHERE me.q IS NOT NULL AND r.search_tsv @@ me.q::tsquery
          ORDER BY similarity DESC, r.created_at DESC, r.id DESC
          LIMIT $2",
    )
    .bind(id)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// A pick of a request's latest standard catalogue.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct CataloguePickRow {
    pub request_id: i64,
    pub code: String,
    pub name: String,
    pub tier: String,
}

/// The picks of each request's latest standard catalogue (training
/// catalogues are the workspace's, not answers), recommended first.
pub async fn latest_catalogue_picks(
    db: impl PgExecutor<'_>,
    request_ids: &[i64],
) -> sqlx::Result<Vec<CataloguePickRow>> {
    sqlx::query_as(
        "SELECT c.request_id, m.code, m.name, p.tier
           FROM (SELECT DISTINCT ON (request_id) id, request_id
                   FROM catalogues
                  WHERE request_id = ANY($1) AND kind = 'standard'
                  ORDER BY request_id, created_at DESC, id DESC) c
           JOIN catalogue_picks p ON p.catalogue_id = c.id
           JOIN members m ON m.id = p.member_id
          ORDER BY c.request_id, p.tier = 'compatible', p.position, p.id",
    )
    .bind(request_ids)
    .fetch_all(db)
    .await
}
