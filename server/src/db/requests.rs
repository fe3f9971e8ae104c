//! `requests`: one request as the assistant's read tools see it, the
//! requests most like it in its pool with the picks of their latest
//! catalogue, and the team's « Demandes » list and detail page.
//!
//! Runtime-checked (`query_as`, not `query!`): no offline `.sqlx/` data to
//! regenerate; the tool tests run every query on a real database.
use chrono::{DateTime, NaiveDate, Utc};
use sqlx::{PgExecutor, Postgres, QueryBuilder};

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
    pub status: String,
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
                r.description, r.status
           FROM requests me
           JOIN requests r ON r.pool_id = me.pool_id AND r.id <> me.id
                          AND r.embedding_model = me.embedding_model
          WHERE me.id = $1 AND me.embedding IS NOT NULL AND r.embedding IS NOT NULL
            AND NOT r.workspace_scenario
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
                r.description, r.status
           FROM me JOIN requests r ON r.pool_id = me.pool_id AND r.id <> me.id
          WHERE me.q IS NOT NULL AND r.search_tsv @@ me.q::tsquery
            AND NOT r.workspace_scenario
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

/// What the « Demandes » list narrows to; `None` = no such filter.
#[derive(Clone, Debug, Default)]
pub struct ListFilter<'a> {
    pub status: Option<&'a str>,
    /// Pool slug.
    pub pool: Option<&'a str>,
    /// The event overlaps `[from, to]` (either bound may be open).
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
    pub assigned_to: Option<i64>,
    /// Words (French full text over type, area, description) or a piece of
    /// the reference or of the organizer's name or company.
    pub text: Option<&'a str>,
    pub limit: i64,
    pub offset: i64,
}

/// A row of the « Demandes » list.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ListRow {
    pub id: i64,
    pub reference: String,
    pub organizer_name: Option<String>,
    pub organizer_company: Option<String>,
    pub event_type: Option<String>,
    pub participants: Option<i32>,
    pub event_start_date: Option<NaiveDate>,
    pub event_end_date: Option<NaiveDate>,
    pub pool: String,
    pub status: String,
    pub assigned_to: Option<String>,
    pub picks: i64,
    pub created_at: DateTime<Utc>,
}

/// `%`, `_` and `\` taken literally in a LIKE pattern.
fn like_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// One page of requests, newest first (`created_at`, then `id`: a total
/// order, so pages neither repeat nor skip a row). The filters and the page
/// run on `requests` alone; the pool, assignee and pick count are joined
/// for the page's rows only. The text matches the full-text index OR a
/// piece of one lower-cased string (reference, organizer, company): one
/// `lower() LIKE` costs 1.3 ms on the 1,400 demo requests where three
/// `ILIKE`s cost 8 ms (docs/benchmarks.md).
///
/// Only the filters in use are written into the statement. One statement
/// with `($n IS NULL OR …)` for every filter was planned again on every
/// call (1.5 ms, as much as running it: its generic plan, a sequential scan
/// and a sort, is worse still); each combination of filters is now its own
/// prepared statement whose generic plan is the right one.
pub async fn list(db: impl PgExecutor<'_>, f: &ListFilter<'_>) -> sqlx::Result<Vec<ListRow>> {
    let mut q: QueryBuilder<Postgres> = QueryBuilder::new(
        "SELECT r.id, r.reference, r.organizer_name, r.organizer_company, r.event_type,
                r.participants, r.event_start_date, r.event_end_date, p.name AS pool, r.status,
                u.display_name AS assigned_to,
                (SELECT count(*) FROM catalogue_picks cp
                  WHERE cp.catalogue_id = (SELECT c.id FROM catalogues c
                                            WHERE c.request_id = r.id AND c.kind = 'standard'
                                              AND c.status <> 'archived'
                                            ORDER BY c.created_at DESC, c.id DESC LIMIT 1)) AS picks,
                r.created_at
           FROM (SELECT id, reference, organizer_name, organizer_company, event_type,
                        participants, event_start_date, event_end_date, pool_id, status,
                        assigned_user_id, created_at
                   FROM requests
                  -- Requests invented in the training workspace are not the organizers'.
                  WHERE NOT workspace_scenario",
    );
    push_filters(&mut q, f);
    q.push(" ORDER BY created_at DESC, id DESC LIMIT ")
        .push_bind(f.limit)
        .push(" OFFSET ")
        .push_bind(f.offset)
        .push(
            ") r
           JOIN pools p ON p.id = r.pool_id
           LEFT JOIN users u ON u.id = r.assigned_user_id
          ORDER BY r.created_at DESC, r.id DESC",
        );
    q.build_query_as().fetch_all(db).await
}

/// The filters in use, after a `WHERE` on `requests`.
fn push_filters<'q>(q: &mut QueryBuilder<'q, Postgres>, f: &ListFilter<'q>) {
    match f.status {
        Some(app::requests::OPEN) => {
            q.push(" AND status = ANY(")
                .push_bind(app::requests::OPEN_STATUSES)
                .push(")");
        }
        Some(status) => {
            q.push(" AND status = ").push_bind(status);
        }
        None => {}
    }
    if let Some(pool) = f.pool {
        q.push(" AND pool_id = (SELECT id FROM pools WHERE slug = ")
            .push_bind(pool)
            .push(")");
    }
    if let Some(from) = f.from {
        q.push(" AND coalesce(event_end_date, event_start_date) >= ")
            .push_bind(from);
    }
    if let Some(to) = f.to {
        q.push(" AND event_start_date <= ").push_bind(to);
    }
    if let Some(user_id) = f.assigned_to {
        q.push(" AND assigned_user_id = ").push_bind(user_id);
    }
    if let Some(text) = f.text {
        q.push(" AND (search_tsv @@ websearch_to_tsquery('french', ")
            .push_bind(text)
            .push(
                ") OR lower(reference || ' ' || coalesce(organizer_name, '') || ' '
                         || coalesce(organizer_company, '')) LIKE lower(",
            )
            .push_bind(format!("%{}%", like_escaped(text)))
            .push("))");
    }
}

/// How many requests match the filters (page ignored), per status, for the
/// assistant's « combien de demandes… »: the same filters as the list, so
/// the count agrees with the page a person opens.
pub async fn count_by_status(
    db: impl PgExecutor<'_>,
    f: &ListFilter<'_>,
) -> sqlx::Result<Vec<(String, i64)>> {
    let mut q: QueryBuilder<Postgres> =
        QueryBuilder::new("SELECT status, count(*) FROM requests WHERE NOT workspace_scenario");
    push_filters(&mut q, f);
    q.push(" GROUP BY status ORDER BY status");
    q.build_query_as().fetch_all(db).await
}

/// A request in full, for its page.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct DetailRow {
    pub id: i64,
    pub reference: String,
    pub pool: String,
    pub source: String,
    pub status: String,
    pub organizer_name: Option<String>,
    pub organizer_company: Option<String>,
    pub organizer_email: Option<String>,
    pub organizer_phone: Option<String>,
    pub description: String,
    pub complementary_info: Option<String>,
    pub event_type: Option<String>,
    pub participants: Option<i32>,
    pub configurations: Vec<String>,
    pub event_start_date: Option<NaiveDate>,
    pub event_end_date: Option<NaiveDate>,
    pub date_flexible: bool,
    pub date_notes: Option<String>,
    pub budget_eur: Option<i32>,
    pub budget_note: Option<String>,
    pub area: Option<String>,
    pub postal_codes: Vec<String>,
    pub center_lat: Option<f64>,
    pub center_lng: Option<f64>,
    pub radius_km: Option<f64>,
    pub team_memo: Option<String>,
    pub search_hints: Option<String>,
    pub assigned_to: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// The id of the request with this reference (« D-2025-00007 », any case).
pub async fn id_of_reference(
    db: impl PgExecutor<'_>,
    reference: &str,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar("SELECT id FROM requests WHERE reference = upper($1)")
        .bind(reference)
        .fetch_optional(db)
        .await
}

pub async fn detail(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<DetailRow>> {
    sqlx::query_as(
        "SELECT r.id, r.reference, p.name AS pool, r.source, r.status, r.organizer_name,
                r.organizer_company, r.organizer_email, r.organizer_phone, r.description,
                r.complementary_info, r.event_type, r.participants, r.configurations,
                r.event_start_date, r.event_end_date, r.date_flexible, r.date_notes,
                r.budget_eur, r.budget_note, r.area, r.postal_codes, r.center_lat,
                r.center_lng, r.radius_km, r.team_memo, r.search_hints,
                u.display_name AS assigned_to, r.created_at
           FROM requests r
           JOIN pools p ON p.id = r.pool_id
           LEFT JOIN users u ON u.id = r.assigned_user_id
          WHERE r.id = $1",
    )
    .bind(id)
    .fetch_optional(db)
    .await
}

/// The requests most like one request, and how they were found.
#[derive(Clone, Debug, Default)]
pub struct Similar {
    /// `vector`, `fts` or `none`.
    pub source: &'static str,
    pub requests: Vec<SimilarRow>,
    /// The picks of their latest standard catalogues.
    pub picks: Vec<CataloguePickRow>,
}

/// The `limit` past requests of the same pool most like request `id`: by
/// meaning when both have a vector of the same model, else by shared words;
/// with their latest catalogue's picks. The one way the assistant's
/// `find_similar_requests` and the request page find them.
pub async fn similar_with_picks(db: &sqlx::PgPool, id: i64, limit: i64) -> sqlx::Result<Similar> {
    let mut source = "vector";
    let mut requests = similar_by_vector(db, id, limit).await?;
    if requests.is_empty() {
        source = "fts";
        requests = similar_by_text(db, id, limit).await?;
    }
    if requests.is_empty() {
        source = "none";
    }
    let ids: Vec<i64> = requests.iter().map(|s| s.id).collect();
    let picks = if ids.is_empty() {
        Vec::new()
    } else {
        latest_catalogue_picks(db, &ids).await?
    };
    Ok(Similar {
        source,
        requests,
        picks,
    })
}
