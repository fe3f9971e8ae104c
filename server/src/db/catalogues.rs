//! `catalogues`, `catalogue_picks` and `catalogue_search_picks` as the
//! catalogue builder reads and edits them: one catalogue with its request,
//! picks and rooms; the edits; the version and the acceptance rate.
//!
//! Runtime-checked queries. Edits take the connection of the builder's
//! transaction, which holds the catalogue's row lock ([`lock`]).
use chrono::NaiveDate;
use sqlx::{PgConnection, PgExecutor};

/// A catalogue's own row, with who last edited it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct CatalogueRow {
    pub id: i64,
    pub request_id: i64,
    pub kind: String,
    pub status: String,
    pub version: i32,
    pub edited_by_name: Option<String>,
    /// HH:MM, Paris time.
    pub edited_at_time: Option<String>,
    /// DD/MM/YYYY, Paris time.
    pub sent_on: Option<String>,
    pub search_picks: Option<i32>,
    pub search_kept: Option<i32>,
    pub search_moved: Option<i32>,
    pub search_replaced: Option<i32>,
}

const CATALOGUE: &str = "SELECT c.id, c.request_id, c.kind, c.status, c.version,
        u.display_name AS edited_by_name,
        to_char(c.edited_at AT TIME ZONE 'Europe/Paris', 'HH24:MI') AS edited_at_time,
        to_char(c.sent_at AT TIME ZONE 'Europe/Paris', 'DD/MM/YYYY') AS sent_on,
        c.search_picks, c.search_kept, c.search_moved, c.search_replaced
   FROM catalogues c LEFT JOIN users u ON u.id = c.edited_by
  WHERE c.id = $1";

pub async fn by_id(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<CatalogueRow>> {
    sqlx::query_as(CATALOGUE).bind(id).fetch_optional(db).await
}

/// Locks the catalogue's row until the transaction ends: edits of one
/// catalogue run one after the other, each seeing the version the previous
/// one wrote.
pub async fn lock(conn: &mut PgConnection, id: i64) -> sqlx::Result<Option<CatalogueRow>> {
    sqlx::query("SELECT 1 FROM catalogues WHERE id = $1 FOR UPDATE")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    by_id(&mut *conn, id).await
}

/// The request's open draft of `kind`, else its latest catalogue of that kind.
pub async fn current_of_request(
    db: impl PgExecutor<'_>,
    request_id: i64,
    kind: &str,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        "SELECT id FROM catalogues WHERE request_id = $1 AND kind = $2
          ORDER BY status = 'draft' DESC, created_at DESC, id DESC LIMIT 1",
    )
    .bind(request_id)
    .bind(kind)
    .fetch_optional(db)
    .await
}

/// The request fields the builder shows and checks against.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct RequestInfo {
    pub id: i64,
    pub reference: String,
    pub pool_id: i64,
    pub pool_slug: String,
    pub pool_name: String,
    pub description: String,
    pub event_type: Option<String>,
    pub participants: Option<i32>,
    pub configurations: Vec<String>,
    pub area: Option<String>,
    pub postal_codes: Vec<String>,
    pub center_lat: Option<f64>,
    pub center_lng: Option<f64>,
    pub radius_km: Option<f64>,
    pub event_start_date: Option<NaiveDate>,
    pub event_end_date: Option<NaiveDate>,
    pub search_hints: Option<String>,
    pub workspace_scenario: bool,
}

pub async fn request(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<RequestInfo>> {
    sqlx::query_as(
        "SELECT r.id, r.reference, r.pool_id, p.slug AS pool_slug, p.name AS pool_name,
                r.description, r.event_type, r.participants, r.configurations, r.area,
                r.postal_codes, r.center_lat, r.center_lng, r.radius_km,
                r.event_start_date, r.event_end_date, r.search_hints, r.workspace_scenario
           FROM requests r JOIN pools p ON p.id = r.pool_id
          WHERE r.id = $1",
    )
    .bind(id)
    .fetch_optional(db)
    .await
}

/// A pick with its venue.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct PickRow {
    pub member_id: i64,
    pub code: String,
    pub name: String,
    pub city: Option<String>,
    pub postal_code: Option<String>,
    pub tier: String,
    pub position: i32,
    pub explanation: String,
    pub room_id: Option<i64>,
    pub added_by: String,
    /// A person wrote the reason: it is kept when the pin or tier changes.
    pub reason_edited: bool,
}

/// The picks, recommended first, in their order.
pub async fn picks(db: impl PgExecutor<'_>, catalogue_id: i64) -> sqlx::Result<Vec<PickRow>> {
    sqlx::query_as(
        "SELECT p.member_id, m.code, m.name, m.city, m.postal_code, p.tier, p.position,
                p.explanation, p.room_id, p.added_by, p.reason_edited
           FROM catalogue_picks p JOIN members m ON m.id = p.member_id
          WHERE p.catalogue_id = $1
          ORDER BY p.tier = 'compatible', p.position, p.id",
    )
    .bind(catalogue_id)
    .fetch_all(db)
    .await
}

/// Every room of these venues with each of its capacities.
pub async fn rooms_of_members(
    db: impl PgExecutor<'_>,
    member_ids: &[i64],
) -> sqlx::Result<Vec<super::write_targets::RoomCapacity>> {
    sqlx::query_as(
        "SELECT r.id AS room_id, r.member_id, r.name AS room_name, c.configuration, c.max_capacity
           FROM rooms r LEFT JOIN room_capacities c ON c.room_id = r.id
          WHERE r.member_id = ANY($1)
          ORDER BY r.member_id, r.position, r.id, c.configuration",
    )
    .bind(member_ids)
    .fetch_all(db)
    .await
}

/// A venue's history with the team, as [`team_signals`] reads it.
#[derive(sqlx::FromRow)]
struct TeamSignalRow {
    member_id: i64,
    past_picks: i64,
    favourite: bool,
    median_response_hours: Option<f64>,
    answer_rate: Option<f64>,
}

/// What the team's history says about these venues, for the builder's
/// internal note: the signals the search ranks with
/// ([`super::venue_search::signals`]), read on the builder's connection.
pub async fn team_signals(
    db: impl PgExecutor<'_>,
    member_ids: &[i64],
) -> sqlx::Result<Vec<super::venue_search::Signals>> {
    let rows: Vec<TeamSignalRow> = sqlx::query_as(
        "SELECT m.id AS member_id,
                (SELECT count(*) FROM catalogue_picks p WHERE p.member_id = m.id) AS past_picks,
                EXISTS (SELECT 1 FROM team_favorites f WHERE f.member_id = m.id) AS favourite,
                (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY s.response_hours)
                   FROM response_signals s
                  WHERE s.member_id = m.id AND s.response_hours IS NOT NULL)
                    AS median_response_hours,
                (SELECT avg((s.kind <> 'no_answer')::int)::float8
                   FROM response_signals s WHERE s.member_id = m.id) AS answer_rate
           FROM unnest($1::bigint[]) AS m(id)",
    )
    .bind(member_ids)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| super::venue_search::Signals {
            member_id: r.member_id,
            past_picks: r.past_picks,
            favourite: r.favourite,
            median_response_hours: r.median_response_hours,
            answer_rate: r.answer_rate,
            ..Default::default()
        })
        .collect())
}

/// A pick as the builder writes it.
pub struct NewPick<'a> {
    pub member_id: i64,
    pub tier: &'a str,
    pub position: i32,
    pub explanation: &'a str,
    pub room_id: Option<i64>,
    /// `ai` (the search) or `team`.
    pub added_by: &'a str,
}

pub async fn insert_pick(
    conn: &mut PgConnection,
    catalogue_id: i64,
    pick: &NewPick<'_>,
    user_id: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO catalogue_picks
                (catalogue_id, member_id, tier, position, explanation, room_id, added_by, added_by_user_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(catalogue_id)
    .bind(pick.member_id)
    .bind(pick.tier)
    .bind(pick.position)
    .bind(pick.explanation)
    .bind(pick.room_id)
    .bind(pick.added_by)
    .bind(user_id)
    .execute(conn)
    .await
    .map(|_| ())
}

pub async fn delete_pick(
    conn: &mut PgConnection,
    catalogue_id: i64,
    member_id: i64,
) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM catalogue_picks WHERE catalogue_id = $1 AND member_id = $2")
        .bind(catalogue_id)
        .bind(member_id)
        .execute(conn)
        .await
        .map(|_| ())
}

/// Puts `member_ids` in `tier`, in this order (positions 0, 1, 2…).
pub async fn set_tier_order(
    conn: &mut PgConnection,
    catalogue_id: i64,
    tier: &str,
    member_ids: &[i64],
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE catalogue_picks p SET tier = $2, position = (o.ord - 1)::int
           FROM unnest($3::bigint[]) WITH ORDINALITY AS o(member_id, ord)
          WHERE p.catalogue_id = $1 AND p.member_id = o.member_id",
    )
    .bind(catalogue_id)
    .bind(tier)
    .bind(member_ids)
    .execute(conn)
    .await
    .map(|_| ())
}

pub async fn set_room(
    conn: &mut PgConnection,
    catalogue_id: i64,
    member_id: i64,
    room_id: Option<i64>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE catalogue_picks SET room_id = $3 WHERE catalogue_id = $1 AND member_id = $2",
    )
    .bind(catalogue_id)
    .bind(member_id)
    .bind(room_id)
    .execute(conn)
    .await
    .map(|_| ())
}

/// A reason a person wrote: from now on it is theirs, kept when the pin or
/// the tier changes.
pub async fn set_reason(
    conn: &mut PgConnection,
    catalogue_id: i64,
    member_id: i64,
    reason: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE catalogue_picks SET explanation = $3, reason_edited = true
          WHERE catalogue_id = $1 AND member_id = $2",
    )
    .bind(catalogue_id)
    .bind(member_id)
    .bind(reason)
    .execute(conn)
    .await
    .map(|_| ())
}

/// A generated reason, written only over a reason no person wrote.
pub async fn set_generated_reason(
    conn: &mut PgConnection,
    catalogue_id: i64,
    member_id: i64,
    reason: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE catalogue_picks SET explanation = $3
          WHERE catalogue_id = $1 AND member_id = $2 AND NOT reason_edited",
    )
    .bind(catalogue_id)
    .bind(member_id)
    .bind(reason)
    .execute(conn)
    .await
    .map(|_| ())
}

/// Remembers the search's picks (a venue already remembered keeps the
/// tier the first fill gave it).
pub async fn remember_search_picks(
    conn: &mut PgConnection,
    catalogue_id: i64,
    member_ids: &[i64],
    tiers: &[String],
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO catalogue_search_picks (catalogue_id, member_id, tier)
         SELECT $1, m, t FROM unnest($2::bigint[], $3::text[]) AS x(m, t)
         ON CONFLICT (catalogue_id, member_id) DO NOTHING",
    )
    .bind(catalogue_id)
    .bind(member_ids)
    .bind(tiers)
    .execute(conn)
    .await
    .map(|_| ())
}

/// Recounts kept / moved / replaced from the remembered search picks and
/// the catalogue's picks now (nothing when it was never filled by search).
pub async fn refresh_acceptance(conn: &mut PgConnection, catalogue_id: i64) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE catalogues c
            SET search_picks = s.total, search_kept = s.kept,
                search_moved = s.moved, search_replaced = s.replaced
           FROM (SELECT count(*)::int AS total,
                        count(*) FILTER (WHERE p.tier = sp.tier)::int AS kept,
                        count(*) FILTER (WHERE p.tier <> sp.tier)::int AS moved,
                        count(*) FILTER (WHERE p.member_id IS NULL)::int AS replaced
                   FROM catalogue_search_picks sp
                   LEFT JOIN catalogue_picks p
                          ON p.catalogue_id = sp.catalogue_id AND p.member_id = sp.member_id
                  WHERE sp.catalogue_id = $1) s
          WHERE c.id = $1 AND s.total > 0",
    )
    .bind(catalogue_id)
    .execute(conn)
    .await
    .map(|_| ())
}

/// The next version, written by `user_id` now.
pub async fn bump_version(
    conn: &mut PgConnection,
    catalogue_id: i64,
    user_id: i64,
) -> sqlx::Result<i32> {
    sqlx::query_scalar(
        "UPDATE catalogues SET version = version + 1, edited_by = $2, edited_at = now()
          WHERE id = $1 RETURNING version",
    )
    .bind(catalogue_id)
    .bind(user_id)
    .fetch_one(conn)
    .await
}

/// The acceptance of the request's latest standard catalogue filled from
/// the search: (search picks, kept, moved, replaced).
pub async fn acceptance_of_request(
    db: impl PgExecutor<'_>,
    request_id: i64,
) -> sqlx::Result<Option<(i32, i32, i32, i32)>> {
    sqlx::query_as(
        "SELECT search_picks, search_kept, search_moved, search_replaced FROM catalogues
          WHERE request_id = $1 AND kind = 'standard' AND search_picks IS NOT NULL
          ORDER BY created_at DESC, id DESC LIMIT 1",
    )
    .bind(request_id)
    .fetch_optional(db)
    .await
}

/// « Nouvelle version »: a new draft holding `from`'s picks and remembered
/// search picks; `None` when the request already has a draft of that kind.
pub async fn copy_as_draft(
    conn: &mut PgConnection,
    from: i64,
    user_id: i64,
) -> sqlx::Result<Option<i64>> {
    let id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO catalogues (request_id, kind, status, created_by, copied_from,
                                 edited_by, edited_at)
         SELECT request_id, kind, 'draft', $2, id, $2, now() FROM catalogues WHERE id = $1
         ON CONFLICT (request_id, kind) WHERE status = 'draft' DO NOTHING
         RETURNING id",
    )
    .bind(from)
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(id) = id else { return Ok(None) };
    sqlx::query(
        "INSERT INTO catalogue_picks
                (catalogue_id, member_id, tier, position, explanation, room_id, added_by,
                 added_by_user_id, reason_edited)
         SELECT $2, member_id, tier, position, explanation, room_id, added_by, added_by_user_id,
                reason_edited
           FROM catalogue_picks WHERE catalogue_id = $1",
    )
    .bind(from)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "INSERT INTO catalogue_search_picks (catalogue_id, member_id, tier)
         SELECT $2, member_id, tier FROM catalogue_search_picks WHERE catalogue_id = $1",
    )
    .bind(from)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    refresh_acceptance(conn, id).await?;
    Ok(Some(id))
}

/// An active venue of the pool, as the add box lists it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct MemberMatch {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub city: Option<String>,
}

/// Active venues of the pool whose code is `query` or whose name contains
/// it (case-insensitive), exact matches first.
pub async fn lookup_members(
    db: impl PgExecutor<'_>,
    pool_id: i64,
    query: &str,
    limit: i64,
) -> sqlx::Result<Vec<MemberMatch>> {
    sqlx::query_as(
        "SELECT id, code, name, city FROM members
          WHERE pool_id = $1 AND status = 'active'
            AND (lower(code) = lower($2)
                 OR name ILIKE '%' || replace(replace(replace($2, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')
          ORDER BY lower(code) = lower($2) DESC, lower(name) = lower($2) DESC, name, id
          LIMIT $3",
    )
    .bind(pool_id)
    .bind(query)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// A venue the builder may add: its pool and status.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct MemberState {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub pool_id: i64,
    pub status: String,
}

/// The venue whose code is `query`, else those named exactly `query`
/// (case-insensitive) in the pool.
pub async fn resolve_member(
    db: impl PgExecutor<'_>,
    pool_id: i64,
    query: &str,
) -> sqlx::Result<Vec<MemberState>> {
    sqlx::query_as(
        "SELECT id, code, name, pool_id, status FROM members WHERE code = $2
         UNION ALL
         SELECT id, code, name, pool_id, status FROM members
          WHERE pool_id = $1 AND lower(name) = lower($2) AND code <> $2
            AND NOT EXISTS (SELECT 1 FROM members WHERE code = $2)
         LIMIT 5",
    )
    .bind(pool_id)
    .bind(query)
    .fetch_all(db)
    .await
}

/// A request the workspace can train on.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ScenarioRow {
    pub id: i64,
    pub reference: String,
    pub description: String,
    pub event_type: Option<String>,
    pub participants: Option<i32>,
    pub workspace_scenario: bool,
    pub training_picks: Option<i64>,
}

/// The latest requests (real and invented), with their training catalogue's size.
pub async fn scenarios(db: impl PgExecutor<'_>, limit: i64) -> sqlx::Result<Vec<ScenarioRow>> {
    sqlx::query_as(
        "SELECT r.id, r.reference, left(r.description, 200) AS description, r.event_type,
                r.participants, r.workspace_scenario, t.picks AS training_picks
           FROM requests r
           LEFT JOIN LATERAL (
                SELECT (SELECT count(*) FROM catalogue_picks p WHERE p.catalogue_id = c.id) AS picks
                  FROM catalogues c WHERE c.request_id = r.id AND c.kind = 'training'
                 ORDER BY c.status = 'draft' DESC, c.created_at DESC LIMIT 1) t ON true
          ORDER BY r.created_at DESC, r.id DESC
          LIMIT $1",
    )
    .bind(limit)
    .fetch_all(db)
    .await
}

/// An invented request, as the workspace stores it.
pub struct NewScenario<'a> {
    pub pool_id: i64,
    pub description: &'a str,
    pub participants: Option<i32>,
    pub configurations: &'a [String],
    pub postal_codes: &'a [String],
    pub area: Option<&'a str>,
    pub event_type: Option<&'a str>,
    pub user_id: i64,
}

/// Stores it (source `manual`, flagged as a workspace scenario) with a
/// reference of its own (`ATELIER-<id>`); its id.
pub async fn insert_scenario(conn: &mut PgConnection, s: &NewScenario<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "WITH id AS (SELECT nextval(pg_get_serial_sequence('requests', 'id')) AS id)
         INSERT INTO requests (id, reference, pool_id, source, description, participants,
                               configurations, postal_codes, area, event_type,
                               assigned_user_id, workspace_scenario)
         SELECT id.id, 'ATELIER-' || id.id, $1, 'manual', $2, $3, $4, $5, $6, $7, $8, true
           FROM id
         RETURNING id",
    )
    .bind(s.pool_id)
    .bind(s.description)
    .bind(s.participants)
    .bind(s.configurations)
    .bind(s.postal_codes)
    .bind(s.area)
    .bind(s.event_type)
    .bind(s.user_id)
    .fetch_one(conn)
    .await
}
