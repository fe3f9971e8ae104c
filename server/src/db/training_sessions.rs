//! `training_sessions`: what the team taught. Written by
//! `training::create` (the « Apprendre » button, the guideline form and the
//! chat's approved `create_training_session`), embedded by the
//! `memory.embed` job, read by `search_training`, the `/entrainement`
//! page and the venue search. Event types are compared with
//! `training_event_key` (migration 0016). Runtime-checked.
use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};

/// One session with what the readers show next to it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct SessionRow {
    pub id: i64,
    pub request_id: Option<i64>,
    pub request_reference: Option<String>,
    pub member_id: Option<i64>,
    pub member_code: Option<String>,
    pub member_name: Option<String>,
    pub user_id: Option<i64>,
    pub author: Option<String>,
    pub source: String,
    pub verdict: String,
    pub category: String,
    pub event_type: Option<String>,
    pub reason: String,
    pub directives: Option<serde_json::Value>,
    pub embedded: bool,
    pub created_at: DateTime<Utc>,
}

/// The columns of [`SessionRow`], over `training_sessions t`.
const COLUMNS: &str = "t.id, t.request_id, r.reference AS request_reference,
        t.member_id, m.code AS member_code, m.name AS member_name,
        t.user_id, u.display_name AS author, t.source, t.verdict, t.category, t.event_type,
        t.reason, t.directives, t.embedding IS NOT NULL AS embedded, t.created_at";
const JOINS: &str = "LEFT JOIN members m ON m.id = t.member_id
        LEFT JOIN requests r ON r.id = t.request_id
        LEFT JOIN users u ON u.id = t.user_id";

/// Sessions of `event_type` (same key, when given) whose text shares a
/// word with `text` (when given), newest first.
pub async fn search(
    db: impl PgExecutor<'_>,
    text: Option<&str>,
    event_type: Option<&str>,
    limit: i64,
) -> sqlx::Result<Vec<SessionRow>> {
    sqlx::query_as(&format!(
        "WITH q AS (SELECT nullif(replace(plainto_tsquery('french', coalesce($1, ''))::text,
                                          ' & ', ' | '), '') AS q)
         SELECT {COLUMNS}
           FROM q, training_sessions t {JOINS}
          WHERE ($2::text IS NULL OR training_event_key(t.event_type) = training_event_key($2))
            AND ($1::text IS NULL OR (q.q IS NOT NULL AND t.search_tsv @@ q.q::tsquery))
          ORDER BY t.created_at DESC, t.id DESC
          LIMIT $3"
    ))
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
    sqlx::query_as(&format!(
        "SELECT * FROM (
             SELECT {COLUMNS}, t.embedding <=> $1 AS distance
               FROM training_sessions t {JOINS}
              WHERE t.embedding IS NOT NULL AND t.embedding_model = $2
                AND vector_dims(t.embedding) = vector_dims($1)
                AND ($3::text IS NULL OR training_event_key(t.event_type) = training_event_key($3))
                AND 1 - (t.embedding <=> $1) >= $4
              ORDER BY t.embedding <=> $1, t.id DESC
              LIMIT $5) nearest
          ORDER BY created_at DESC, id DESC"
    ))
    .bind(query)
    .bind(model)
    .bind(event_type)
    .bind(min_similarity)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// The page's list: newest first, of one kind of event when given.
pub async fn recent(
    db: impl PgExecutor<'_>,
    event_type: Option<&str>,
    limit: i64,
) -> sqlx::Result<Vec<SessionRow>> {
    search(db, None, event_type, limit).await
}

pub async fn by_id(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<SessionRow>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM training_sessions t {JOINS} WHERE t.id = $1"
    ))
    .bind(id)
    .fetch_optional(db)
    .await
}

/// Deletes one session; false when it did not exist.
pub async fn delete(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<bool> {
    let done = sqlx::query("DELETE FROM training_sessions WHERE id = $1")
        .bind(id)
        .execute(db)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Whether the objects a new session names exist: the request, the venue,
/// and the catalogue's own request (`None` when there is no such catalogue).
#[derive(Debug, sqlx::FromRow)]
pub struct Targets {
    pub request_exists: bool,
    pub member_exists: bool,
    pub catalogue_request_id: Option<i64>,
}

pub async fn targets(
    conn: &mut PgConnection,
    request_id: Option<i64>,
    member_id: Option<i64>,
    catalogue_id: Option<i64>,
) -> sqlx::Result<Targets> {
    sqlx::query_as(
        "SELECT EXISTS (SELECT 1 FROM requests WHERE id = $1) AS request_exists,
                EXISTS (SELECT 1 FROM members WHERE id = $2) AS member_exists,
                (SELECT request_id FROM catalogues WHERE id = $3) AS catalogue_request_id",
    )
    .bind(request_id)
    .bind(member_id)
    .bind(catalogue_id)
    .fetch_one(conn)
    .await
}

pub struct NewSession<'a> {
    pub request_id: Option<i64>,
    pub member_id: Option<i64>,
    pub catalogue_id: Option<i64>,
    pub user_id: Option<i64>,
    pub source: &'a str,
    pub verdict: &'a str,
    pub reason: &'a str,
    pub category: &'a str,
    pub event_type: Option<&'a str>,
    pub directives: Option<serde_json::Value>,
}

/// The embedding is filled later by its `memory.embed` job: the write
/// never waits for (nor fails with) the embedding service.
pub async fn insert(conn: &mut PgConnection, s: &NewSession<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO training_sessions
                (request_id, member_id, catalogue_id, user_id, source, verdict, reason, category,
                 event_type, directives)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         RETURNING id",
    )
    .bind(s.request_id)
    .bind(s.member_id)
    .bind(s.catalogue_id)
    .bind(s.user_id)
    .bind(s.source)
    .bind(s.verdict)
    .bind(s.reason)
    .bind(s.category)
    .bind(s.event_type)
    .bind(&s.directives)
    .fetch_one(conn)
    .await
}

/// What a session is embedded from.
#[derive(Debug, sqlx::FromRow)]
pub struct EmbeddingSource {
    pub id: i64,
    pub event_type: Option<String>,
    pub reason: String,
    pub directives: Option<serde_json::Value>,
}

pub async fn embedding_sources(
    db: impl PgExecutor<'_>,
    ids: &[i64],
) -> sqlx::Result<Vec<EmbeddingSource>> {
    sqlx::query_as(
        "SELECT id, event_type, reason, directives FROM training_sessions WHERE id = ANY($1)",
    )
    .bind(ids)
    .fetch_all(db)
    .await
}

/// Stores one vector; a session deleted meanwhile is simply not updated.
pub async fn set_embedding(
    db: impl PgExecutor<'_>,
    id: i64,
    vector: &pgvector::Vector,
    model: &str,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE training_sessions SET embedding = $2, embedding_model = $3 WHERE id = $1")
        .bind(id)
        .bind(vector)
        .bind(model)
        .execute(db)
        .await?;
    Ok(())
}

/// What the venue search applies, in one query: the directives, and the
/// verdicts on the finalists, of the request's kind of event — its event
/// type when it has one (`event_key`), else any event type whose words
/// appear in its text (`text_folded`) — and of no event type (general
/// lessons). Newest first.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct LessonRow {
    pub id: i64,
    pub verdict: String,
    pub member_id: Option<i64>,
    pub reason: String,
    pub event_type: Option<String>,
    pub directives: Option<serde_json::Value>,
    pub created_at: DateTime<Utc>,
}

pub async fn for_search(
    db: impl PgExecutor<'_>,
    event_key: Option<&str>,
    text_folded: &str,
    member_ids: &[i64],
    limit: i64,
) -> sqlx::Result<Vec<LessonRow>> {
    sqlx::query_as(
        "SELECT t.id, t.verdict, t.member_id, t.reason, t.event_type, t.directives, t.created_at
           FROM training_sessions t
          WHERE (t.directives IS NOT NULL
                 OR (t.member_id = ANY($3) AND t.verdict IN ('approved', 'rejected', 'demoted')))
            AND (t.event_type IS NULL
                 OR training_event_key(t.event_type) = ''
                 OR ($1::text IS NOT NULL AND training_event_key(t.event_type) = $1)
                 OR ($1::text IS NULL
                     AND strpos(' ' || $2 || ' ', ' ' || training_event_key(t.event_type) || ' ') > 0))
          ORDER BY t.created_at DESC, t.id DESC
          LIMIT $4",
    )
    .bind(event_key)
    .bind(text_folded)
    .bind(member_ids)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// What a request says about its kind of event, for `relevant_training`.
#[derive(Debug, sqlx::FromRow)]
pub struct RequestContext {
    pub event_type: Option<String>,
    pub description: String,
}

pub async fn request_context(
    db: impl PgExecutor<'_>,
    request_id: i64,
) -> sqlx::Result<Option<RequestContext>> {
    sqlx::query_as("SELECT event_type, description FROM requests WHERE id = $1")
        .bind(request_id)
        .fetch_optional(db)
        .await
}
