//! The venue search's queries: pools, the hard filter (stage 1), exact
//! similarity among candidates (stage 2), ranking signals, similar requests
//! and the per-search metrics row.
use pgvector::Vector;
use sqlx::{PgExecutor, PgPool, Postgres, QueryBuilder};

pub struct PoolRow {
    pub id: i64,
    pub slug: String,
    pub name: String,
}

pub async fn pools(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<PoolRow>> {
    sqlx::query_as!(PoolRow, "SELECT id, slug, name FROM pools ORDER BY name")
        .fetch_all(db)
        .await
}

/// The hard criteria of stage 1, validated by the caller.
pub struct HardFilter<'a> {
    pub pool_id: i64,
    pub configurations: &'a [String],
    pub min_capacity: i32,
    pub postal_codes: &'a [String],
    /// Centre and radius in metres.
    pub radius: Option<(f64, f64, f64)>,
    /// Where distances are measured from (also the tie-break order).
    pub reference: (f64, f64),
    pub limit: i64,
}

/// One member that passed the hard filter, with the room that matched.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Candidate {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub city: String,
    pub postal_code: String,
    pub room_id: i64,
    pub room_name: String,
    pub configuration: String,
    pub capacity: i32,
    pub distance_m: Option<f64>,
}

/// Stage 1. Pool first, then status, area (postal codes OR radius), and
/// configuration × capacity through the smallest room that fits, one row
/// per member (the LATERAL picks that room; no DISTINCT needed). Nearest
/// first, so "more than 500" keeps the 500 nearest.
///
/// Built with `QueryBuilder` rather than `query!`: the area clause takes
/// three shapes, and a generic plan over `$x IS NULL OR …` would lose the
/// indexes (docs/benchmarks.md shows the plans).
pub async fn hard_filter(db: &PgPool, f: &HardFilter<'_>) -> sqlx::Result<Vec<Candidate>> {
    let (ref_lat, ref_lng) = f.reference;
    let mut q: QueryBuilder<Postgres> = QueryBuilder::new(
        "SELECT m.id, m.code, m.name, coalesce(m.city, '') AS city, coalesce(m.postal_code, '') AS postal_code,
                mr.room_id, mr.room_name, mr.configuration, mr.max_capacity AS capacity,
                CASE WHEN m.lat IS NULL THEN NULL
                     ELSE earth_distance(ll_to_earth(m.lat, m.lng), ll_to_earth(",
    );
    q.push_bind(ref_lat)
        .push("::float8, ")
        .push_bind(ref_lng)
        .push("::float8)) END AS distance_m");
    q.push(
        " FROM members m
          CROSS JOIN LATERAL (
              SELECT rc.room_id, r.name AS room_name, rc.configuration, rc.max_capacity
                FROM room_capacities rc JOIN rooms r ON r.id = rc.room_id
               WHERE rc.member_id = m.id AND rc.configuration = ANY(",
    );
    q.push_bind(f.configurations)
        .push(") AND rc.max_capacity >= ")
        .push_bind(f.min_capacity);
    q.push(" ORDER BY rc.max_capacity, rc.room_id LIMIT 1) mr WHERE m.pool_id = ")
        .push_bind(f.pool_id);
    q.push(" AND m.status = 'active'");
    let has_codes = !f.postal_codes.is_empty();
    if has_codes || f.radius.is_some() {
        q.push(" AND (");
        if has_codes {
            q.push("m.postal_code = ANY(")
                .push_bind(f.postal_codes)
                .push(")");
        }
        if let Some((lat, lng, metres)) = f.radius {
            if has_codes {
                q.push(" OR ");
            }
            // earth_box is what the GiST index answers; earth_distance refines it exactly.
            q.push("(earth_box(ll_to_earth(")
                .push_bind(lat)
                .push("::float8, ")
                .push_bind(lng);
            q.push("::float8), ")
                .push_bind(metres)
                .push("::float8) @> ll_to_earth(m.lat, m.lng) AND earth_distance(ll_to_earth(");
            q.push_bind(lat)
                .push("::float8, ")
                .push_bind(lng)
                .push("::float8), ll_to_earth(m.lat, m.lng)) < ");
            q.push_bind(metres).push("::float8)");
        }
        q.push(")");
    }
    q.push(" ORDER BY distance_m NULLS LAST, m.id LIMIT ")
        .push_bind(f.limit);
    q.build_query_as::<Candidate>().fetch_all(db).await
}

/// Active members by code (an explicit "#102 et #157" request).
pub async fn members_by_code(db: &PgPool, codes: &[String]) -> sqlx::Result<Vec<Candidate>> {
    sqlx::query_as!(
        Candidate,
        r#"SELECT m.id, m.code, m.name, coalesce(m.city, '') AS "city!", coalesce(m.postal_code, '') AS "postal_code!",
                  r.id AS "room_id!", r.name AS "room_name!", rc.configuration AS "configuration!",
                  rc.max_capacity AS "capacity!", NULL::float8 AS distance_m
             FROM members m
             JOIN LATERAL (SELECT * FROM room_capacities c WHERE c.member_id = m.id
                            ORDER BY c.max_capacity DESC, c.room_id LIMIT 1) rc ON true
             JOIN rooms r ON r.id = rc.room_id
            WHERE m.code = ANY($1)
            ORDER BY array_position($1, m.code)"#,
        codes
    )
    .fetch_all(db)
    .await
}

/// Stage 2: exact cosine distance for the candidates only (≤ 500 rows:
/// cheaper than an index walk, and exact), nearest first.
pub async fn nearest_candidates(
    db: &PgPool,
    query: &Vector,
    candidate_ids: &[i64],
    model: &str,
    dims: i32,
    limit: i64,
) -> sqlx::Result<Vec<(i64, f64)>> {
    sqlx::query_as(
        "SELECT member_id, (embedding <=> $1)::float8 AS distance
           FROM member_embeddings
          WHERE member_id = ANY($2) AND model = $3 AND dims = $4
          ORDER BY embedding <=> $1
          LIMIT $5",
    )
    .bind(query)
    .bind(candidate_ids)
    .bind(model)
    .bind(dims)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// Full-text rank of the candidates, when no query vector is available.
pub async fn text_rank(
    db: &PgPool,
    text: &str,
    candidate_ids: &[i64],
) -> sqlx::Result<Vec<(i64, f64)>> {
    sqlx::query_as(
        "SELECT m.id, ts_rank(m.search_tsv, websearch_to_tsquery('french', $1))::float8
           FROM members m
          WHERE m.id = ANY($2) AND m.search_tsv @@ websearch_to_tsquery('french', $1)",
    )
    .bind(text)
    .bind(candidate_ids)
    .fetch_all(db)
    .await
}

/// What the team's history says about a venue.
#[derive(Clone, Debug, Default)]
pub struct Signals {
    pub member_id: i64,
    pub past_picks: i64,
    pub favourite: bool,
    pub median_response_hours: Option<f64>,
    pub answer_rate: Option<f64>,
}

pub async fn signals(db: &PgPool, member_ids: &[i64]) -> sqlx::Result<Vec<Signals>> {
    let rows = sqlx::query!(
        r#"SELECT m.id AS "member_id!",
                  (SELECT count(*) FROM catalogue_picks p WHERE p.member_id = m.id) AS "past_picks!",
                  EXISTS (SELECT 1 FROM team_favorites f WHERE f.member_id = m.id) AS "favourite!",
                  (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY s.response_hours)
                     FROM response_signals s WHERE s.member_id = m.id AND s.response_hours IS NOT NULL) AS median_hours,
                  (SELECT avg((s.kind <> 'no_answer')::int)::float8
                     FROM response_signals s WHERE s.member_id = m.id) AS answer_rate
             FROM unnest($1::bigint[]) AS m(id)"#,
        member_ids
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Signals {
            member_id: r.member_id,
            past_picks: r.past_picks,
            favourite: r.favourite,
            median_response_hours: r.median_hours,
            answer_rate: r.answer_rate,
        })
        .collect())
}

pub struct SimilarRequestRow {
    pub reference: String,
    pub description: String,
    pub catalogue_id: i64,
}

/// The latest request of the pool with a sent catalogue and close criteria
/// (±25 % participants, a shared configuration).
pub async fn similar_request(
    db: &PgPool,
    pool_id: i64,
    participants: i32,
    configurations: &[String],
) -> sqlx::Result<Option<SimilarRequestRow>> {
    sqlx::query_as!(
        SimilarRequestRow,
        r#"SELECT r.reference, r.description, c.id AS catalogue_id
             FROM requests r
             JOIN catalogues c ON c.request_id = r.id AND c.status = 'sent' AND c.kind = 'standard'
            WHERE r.pool_id = $1
              AND r.participants BETWEEN ($2::int * 0.8)::int AND ($2::int * 1.25)::int
              AND r.configurations && $3
            ORDER BY r.created_at DESC
            LIMIT 1"#,
        pool_id,
        participants,
        configurations
    )
    .fetch_optional(db)
    .await
}
