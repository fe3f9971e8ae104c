//! The venue search's queries: pools, the hard filter (stage 1) with the
//! exact similarity among its candidates (stage 2) in the same statement,
//! the full-text rank when no vector answers, the finalists' matched rooms,
//! venues by code, ranking signals and similar requests. The
//! per-search metrics row is `db::search_runs`'s.
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

/// The pool a search starts from.
pub async fn pool_by_slug(db: impl PgExecutor<'_>, slug: &str) -> sqlx::Result<Option<PoolRow>> {
    sqlx::query_as!(
        PoolRow,
        "SELECT id, slug, name FROM pools WHERE slug = $1",
        slug
    )
    .fetch_optional(db)
    .await
}

/// The hard criteria of stage 1, validated by the caller.
pub struct HardFilter<'a> {
    /// `None`: every pool (a search that names none).
    pub pool_id: Option<i64>,
    /// Configuration keys (`cocktail`, `banquet`, …); unknown keys are refused.
    pub configurations: &'a [String],
    pub min_capacity: i32,
    pub postal_codes: &'a [String],
    /// Départements (the first two digits of a postal code) searched
    /// whole; with `postal_codes`, either will do.
    pub departments: &'a [String],
    /// Ruled out whatever else matches: postal codes, départements, and
    /// kinds of venue (tag names, compared without case).
    pub excluded_postal_codes: &'a [String],
    pub excluded_departments: &'a [String],
    pub excluded_kinds: &'a [String],
    /// Tags asked for (lower case): never a filter; each candidate says how
    /// many of them it carries, so the finalists start with those that do.
    pub wanted_tags: &'a [String],
    /// Centre and radius in metres.
    pub radius: Option<(f64, f64, f64)>,
    /// Where distances are measured from (also the order: nearest first).
    pub reference: (f64, f64),
    pub limit: i64,
}

/// The area clauses on `member_search s`, shared by stage 1 and
/// `count_members` so a count agrees with what a search can find. Every
/// area given must hold: "dans le 15e, à 1 km de la tour Montparnasse" is
/// the part of the 15th within 1 km, not either. Postal codes and
/// départements together: either will do. `radius`: centre and metres.
pub(crate) fn push_area<'a>(
    q: &mut QueryBuilder<'a, Postgres>,
    postal_codes: &'a [String],
    departments: &'a [String],
    radius: Option<(f64, f64, f64)>,
) {
    match (postal_codes.is_empty(), departments.is_empty()) {
        (true, true) => {}
        (false, true) => {
            q.push(" AND s.postal_code = ANY(")
                .push_bind(postal_codes)
                .push(")");
        }
        (true, false) => {
            q.push(" AND left(s.postal_code, 2) = ANY(")
                .push_bind(departments)
                .push(")");
        }
        (false, false) => {
            q.push(" AND (s.postal_code = ANY(")
                .push_bind(postal_codes)
                .push(") OR left(s.postal_code, 2) = ANY(")
                .push_bind(departments)
                .push("))");
        }
    }
    if let Some((lat, lng, metres)) = radius {
        // earth_box is what the GiST index answers; earth_distance refines it exactly.
        q.push(" AND earth_box(ll_to_earth(")
            .push_bind(lat)
            .push("::float8, ")
            .push_bind(lng);
        q.push("::float8), ")
            .push_bind(metres)
            .push("::float8) @> s.earth AND earth_distance(ll_to_earth(");
        q.push_bind(lat)
            .push("::float8, ")
            .push_bind(lng)
            .push("::float8), s.earth) < ");
        q.push_bind(metres).push("::float8");
    }
}

/// What a request rules out never comes back, whatever else matches
/// (postal codes, départements, kinds of venue by tag name, compared
/// without case); shared with `count_members` like [`push_area`]. A venue
/// without a postal code is not known to be in a place ruled out, so it
/// stays.
pub(crate) fn push_exclusions<'a>(
    q: &mut QueryBuilder<'a, Postgres>,
    postal_codes: &'a [String],
    departments: &'a [String],
    kinds: &'a [String],
) {
    if !postal_codes.is_empty() {
        q.push(" AND coalesce(s.postal_code <> ALL(")
            .push_bind(postal_codes)
            .push("), true)");
    }
    if !departments.is_empty() {
        q.push(" AND coalesce(left(s.postal_code, 2) <> ALL(")
            .push_bind(departments)
            .push("), true)");
    }
    if !kinds.is_empty() {
        q.push(
            " AND NOT EXISTS (SELECT 1 FROM member_tags mt JOIN tags t ON t.id = mt.tag_id \
               WHERE mt.member_id = s.member_id AND lower(t.name) = ANY(",
        )
        .push_bind(kinds)
        .push("))");
    }
}

/// A member that passed the hard filter, how far it is from the reference
/// point (None: no coordinates), when a query vector was given its cosine
/// distance to the query (None: no vector of that model yet), and how many
/// of the wanted tags its sheet carries.
#[derive(Clone, Copy, Debug, PartialEq, sqlx::FromRow)]
pub struct Nearby {
    pub id: i64,
    pub distance_m: Option<f64>,
    pub vector_distance: Option<f64>,
    pub wanted_tags_held: i32,
}

/// Stage 2's input: the query vector and the model whose member vectors it
/// is compared with.
#[derive(Clone, Copy)]
pub struct QueryVector<'a> {
    pub vector: &'a Vector,
    pub model: &'a str,
    pub dims: i32,
}

/// One finalist with the room that matched.
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

/// The `member_search` column that holds a configuration's largest capacity.
/// A closed list: these names are the only text of the query not bound.
fn capacity_column(configuration: &str) -> Option<&'static str> {
    use app::room_configurations::Configuration as C;
    Some(match C::from_key(configuration)? {
        C::Reunion => "cap_reunion",
        C::U => "cap_u",
        C::Theatre => "cap_theatre",
        C::Cabaret => "cap_cabaret",
        C::Ecole => "cap_ecole",
        C::Banquet => "cap_banquet",
        C::Cocktail => "cap_cocktail",
    })
}

/// Stages 1 and 2 in one statement. Stage 1 over `member_search` (one
/// narrow row per active member, kept by triggers; migration 0011): pool,
/// area (postal codes AND radius, when both are given) and "one accepted configuration with enough
/// capacity", nearest first by the GiST KNN order so "the 500 nearest" stops
/// after 500 matches; one row per member by construction, no DISTINCT.
/// Stage 2, when a query vector is given: the exact cosine distance of those
/// candidates only (≤ 501 primary-key lookups, cheaper than any index walk
/// and exact), in the same round trip.
///
/// Built with `QueryBuilder` rather than `query!`: the area clause takes
/// three shapes and the capacity test names columns, and a generic plan over
/// `$x IS NULL OR …` would lose the indexes (docs/benchmarks.md shows the plans).
pub async fn hard_filter(
    db: &PgPool,
    f: &HardFilter<'_>,
    query: Option<QueryVector<'_>>,
) -> sqlx::Result<Vec<Nearby>> {
    let columns = f
        .configurations
        .iter()
        .map(|c| {
            capacity_column(c)
                .ok_or_else(|| sqlx::Error::InvalidArgument(format!("unknown configuration {c:?}")))
        })
        .collect::<sqlx::Result<Vec<_>>>()?;
    if columns.is_empty() {
        return Err(sqlx::Error::InvalidArgument("no configuration".into()));
    }
    let (ref_lat, ref_lng) = f.reference;
    let mut q: QueryBuilder<Postgres> = QueryBuilder::new(
        "WITH candidates AS (SELECT s.member_id, earth_distance(s.earth, ll_to_earth(",
    );
    q.push_bind(ref_lat)
        .push("::float8, ")
        .push_bind(ref_lng)
        .push("::float8)) AS distance_m FROM member_search s WHERE true");
    if let Some(pool_id) = f.pool_id {
        q.push(" AND s.pool_id = ").push_bind(pool_id);
    }
    // "cap_a >= n OR cap_b >= n" rather than GREATEST(cap_a, cap_b) >= n: the
    // planner estimates each column from its statistics, and so knows when a
    // capacity is rare enough to fetch the few matches and sort them rather
    // than walk the whole pool in distance order (docs/benchmarks.md, plan b).
    q.push(" AND (");
    for (i, column) in columns.iter().enumerate() {
        if i > 0 {
            q.push(" OR ");
        }
        q.push("s.")
            .push(column)
            .push(" >= ")
            .push_bind(f.min_capacity);
    }
    q.push(")");
    push_area(&mut q, f.postal_codes, f.departments, f.radius);
    push_exclusions(
        &mut q,
        f.excluded_postal_codes,
        f.excluded_departments,
        f.excluded_kinds,
    );
    // `<->` (straight-line distance between the cube points) orders like the
    // great-circle distance and is what the GiST index walks in order. No
    // tie-break column here: it would force a sort of the whole pool; ties
    // (same coordinates) are ordered by id by the caller.
    q.push(" ORDER BY s.earth <-> ll_to_earth(")
        .push_bind(ref_lat)
        .push("::float8, ")
        .push_bind(ref_lng)
        .push("::float8) LIMIT ")
        .push_bind(f.limit)
        .push(")");
    q.push(" SELECT c.member_id AS id, c.distance_m, ");
    match query {
        Some(v) => {
            q.push("(e.embedding <=> ")
                .push_bind(v.vector)
                .push(")::float8");
        }
        None => {
            q.push("NULL::float8");
        }
    }
    q.push(" AS vector_distance, ");
    // Counted for the ≤ 501 candidates only, by the member's own tags.
    if f.wanted_tags.is_empty() {
        q.push("0");
    } else {
        q.push(
            "(SELECT count(DISTINCT lower(t.name)) FROM member_tags mt JOIN tags t ON t.id = mt.tag_id \
               WHERE mt.member_id = c.member_id AND lower(t.name) = ANY(",
        )
        .push_bind(f.wanted_tags)
        .push("))::int4");
    }
    q.push(" AS wanted_tags_held FROM candidates c");
    if let Some(v) = query {
        q.push(" LEFT JOIN member_embeddings e ON e.member_id = c.member_id AND e.model = ")
            .push_bind(v.model)
            .push(" AND e.dims = ")
            .push_bind(v.dims);
    }
    // Not a named prepared statement: after five runs PostgreSQL would switch
    // to a generic plan, blind to how selective this pool, area and capacity
    // are, and walk the whole pool in KNN order (10 ms instead of 1 ms for a
    // postal-code search, docs/benchmarks.md). Planning at each run costs less.
    // In a transaction of its own: sqlx parses an unnamed statement and runs
    // it in two round trips, and a transaction pooler would hand the second
    // to whichever server connection comes next (ADR 0040).
    let mut tx = db.begin().await?;
    let mut rows = q
        .build_query_as::<Nearby>()
        .persistent(false)
        .fetch_all(&mut *tx)
        .await?;
    tx.commit().await?;
    rows.sort_by(|a, b| {
        let far = f64::INFINITY;
        a.distance_m
            .unwrap_or(far)
            .total_cmp(&b.distance_m.unwrap_or(far))
            .then(a.id.cmp(&b.id))
    });
    Ok(rows)
}

/// The finalists' details and matched room, in the order of `ids`: the
/// smallest room with an accepted configuration that holds the group, or,
/// without a group size, the largest one (what the venue can do at most).
/// A room in one of the `preferred` configurations (a meal's, when no
/// layout was asked) comes before any other that holds the group.
pub async fn matched_rooms(
    db: &PgPool,
    ids: &[i64],
    configurations: &[String],
    preferred: &[String],
    participants: Option<i32>,
) -> sqlx::Result<Vec<Candidate>> {
    sqlx::query_as(
        "SELECT m.id, m.code, m.name, coalesce(m.city, '') AS city, coalesce(m.postal_code, '') AS postal_code,
                mr.room_id, mr.room_name, mr.configuration, mr.max_capacity AS capacity,
                NULL::float8 AS distance_m
           FROM unnest($1::bigint[]) WITH ORDINALITY AS wanted(id, position)
           JOIN members m ON m.id = wanted.id
          CROSS JOIN LATERAL (
              SELECT rc.room_id, r.name AS room_name, rc.configuration, rc.max_capacity
                FROM room_capacities rc JOIN rooms r ON r.id = rc.room_id
               WHERE rc.member_id = m.id AND rc.configuration = ANY($2)
                 AND rc.max_capacity >= coalesce($3, 1)
               ORDER BY rc.configuration = ANY($4) DESC,
                        CASE WHEN $3 IS NULL THEN -rc.max_capacity ELSE rc.max_capacity END, rc.room_id
               LIMIT 1) mr
          ORDER BY wanted.position",
    )
    .bind(ids)
    .bind(configurations)
    .bind(participants)
    .bind(preferred)
    .fetch_all(db)
    .await
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

/// What the team's history says about a venue, the tags its sheet carries
/// (lower case) and its own and its rooms' names (where a sheet also says
/// what it has: « Pont-terrasse »).
#[derive(Clone, Debug, Default, sqlx::FromRow)]
pub struct Signals {
    pub member_id: i64,
    pub past_picks: i64,
    pub favourite: bool,
    pub median_response_hours: Option<f64>,
    pub answer_rate: Option<f64>,
    /// The venue's per-person price range in euros, when it gives one.
    pub price_per_person_min_eur: Option<i32>,
    pub price_per_person_max_eur: Option<i32>,
    pub tags: Vec<String>,
    pub names: String,
}

pub async fn signals(db: &PgPool, member_ids: &[i64]) -> sqlx::Result<Vec<Signals>> {
    sqlx::query_as(
        "SELECT m.id AS member_id,
                (SELECT count(*) FROM catalogue_picks p WHERE p.member_id = m.id) AS past_picks,
                EXISTS (SELECT 1 FROM team_favorites f WHERE f.member_id = m.id) AS favourite,
                (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY s.response_hours)
                   FROM response_signals s WHERE s.member_id = m.id AND s.response_hours IS NOT NULL)
                  AS median_response_hours,
                (SELECT avg((s.kind <> 'no_answer')::int)::float8
                   FROM response_signals s WHERE s.member_id = m.id) AS answer_rate,
                v.price_per_person_min_eur, v.price_per_person_max_eur,
                ARRAY(SELECT DISTINCT lower(t.name) FROM member_tags mt JOIN tags t ON t.id = mt.tag_id
                       WHERE mt.member_id = m.id ORDER BY 1) AS tags,
                concat_ws(' ', v.name, (SELECT string_agg(r.name, ' ' ORDER BY r.position, r.id)
                                          FROM rooms r WHERE r.member_id = m.id)) AS names
           FROM unnest($1::bigint[]) AS m(id)
           LEFT JOIN members v ON v.id = m.id",
    )
    .bind(member_ids)
    .fetch_all(db)
    .await
}

pub struct SimilarRequestRow {
    pub reference: String,
    pub description: String,
    pub catalogue_id: i64,
}

/// The latest request of the pool (`None`: of any pool) with a sent
/// catalogue and close criteria (±25 % participants, a shared configuration).
pub async fn similar_request(
    db: &PgPool,
    pool_id: Option<i64>,
    participants: i32,
    configurations: &[String],
) -> sqlx::Result<Option<SimilarRequestRow>> {
    sqlx::query_as!(
        SimilarRequestRow,
        r#"SELECT r.reference, r.description, c.id AS catalogue_id
             FROM requests r
             JOIN catalogues c ON c.request_id = r.id AND c.status = 'sent' AND c.kind = 'standard'
            WHERE ($1::bigint IS NULL OR r.pool_id = $1)
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
