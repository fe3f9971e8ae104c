//! `availability_checks` as the team sends them and venues answer them, with
//! the reactivity signal each answer (or silence) leaves in
//! `response_signals`. Runtime-checked queries.
use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};

/// A check ready for a link: new, or the pending one the unique index keeps.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct OpenCheck {
    pub id: i64,
    pub expires_at: DateTime<Utc>,
    /// `true` when a pending check already waited for this venue.
    pub reused: bool,
}

/// The pending check of (request, venue), created when there is none. A
/// pending check already past its date is expired first (with its
/// `no_answer` signal), so it is never handed out again.
pub async fn open(
    conn: &mut PgConnection,
    request_id: i64,
    member_id: i64,
    created_by: i64,
    days: i32,
) -> sqlx::Result<OpenCheck> {
    expire_overdue(&mut *conn, Some((request_id, member_id))).await?;
    // The partial unique index turns a concurrent creation into DO NOTHING;
    // the second statement then reads the one pending row.
    let inserted: Option<OpenCheck> = sqlx::query_as(
        "INSERT INTO availability_checks (request_id, member_id, status, created_by, expires_at)
         VALUES ($1, $2, 'pending', $3, now() + make_interval(days => $4))
         ON CONFLICT (request_id, member_id) WHERE status = 'pending' DO NOTHING
         RETURNING id, expires_at, false AS reused",
    )
    .bind(request_id)
    .bind(member_id)
    .bind(created_by)
    .bind(days)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(check) = inserted {
        return Ok(check);
    }
    sqlx::query_as(
        "SELECT id, expires_at, true AS reused FROM availability_checks
          WHERE request_id = $1 AND member_id = $2 AND status = 'pending'
          FOR UPDATE",
    )
    .bind(request_id)
    .bind(member_id)
    .fetch_one(&mut *conn)
    .await
}

/// Marks pending checks past their date `expired`, each with one
/// `no_answer` signal; all of them, or those of one (request, venue).
/// Idempotent, and safe on several servers at once (one signal per check).
pub async fn expire_overdue(
    db: impl PgExecutor<'_>,
    only: Option<(i64, i64)>,
) -> sqlx::Result<u64> {
    let (request_id, member_id) = only.unzip();
    sqlx::query_scalar::<_, i64>(
        "WITH expired AS (
             UPDATE availability_checks SET status = 'expired'
              WHERE status = 'pending' AND expires_at <= now()
                AND ($1::bigint IS NULL OR (request_id = $1 AND member_id = $2))
              RETURNING id, member_id, request_id),
         signals AS (
             INSERT INTO response_signals (member_id, kind, response_hours, request_id, availability_check_id)
             SELECT member_id, 'no_answer', NULL, request_id, id FROM expired
             ON CONFLICT (availability_check_id) WHERE availability_check_id IS NOT NULL DO NOTHING)
         SELECT count(*) FROM expired",
    )
    .bind(request_id)
    .bind(member_id)
    .fetch_one(db)
    .await
    .map(|n| u64::try_from(n).unwrap_or_default())
}

/// The venue's answer: `available` (with `conditions` or not) or `unavailable`.
pub struct Answer<'a> {
    pub available: bool,
    pub conditions: Option<&'a str>,
    pub comment: Option<&'a str>,
}

/// Records the answer once, with its reactivity signal (hours since the
/// check was sent) in the same statement; `false` when the check is no
/// longer pending (answered, expired).
pub async fn answer(
    db: impl PgExecutor<'_>,
    check_id: i64,
    answer: &Answer<'_>,
) -> sqlx::Result<bool> {
    let answered: i64 = sqlx::query_scalar(
        "WITH answered AS (
             UPDATE availability_checks
                SET status = CASE WHEN $2 THEN 'available' ELSE 'unavailable' END,
                    conditions = $3, answer = $4, answered_at = now()
              WHERE id = $1 AND status = 'pending' AND expires_at > now()
              RETURNING id, member_id, request_id, sent_at, answered_at),
         signals AS (
             INSERT INTO response_signals (member_id, kind, response_hours, request_id, availability_check_id)
             SELECT member_id, CASE WHEN $2 THEN 'availability_answered' ELSE 'declined' END,
                    greatest(extract(epoch FROM answered_at - sent_at)::float8 / 3600.0, 0),
                    request_id, id
               FROM answered
             ON CONFLICT (availability_check_id) WHERE availability_check_id IS NOT NULL DO NOTHING)
         SELECT count(*) FROM answered",
    )
    .bind(check_id)
    .bind(answer.available)
    .bind(answer.conditions)
    .bind(answer.comment)
    .fetch_one(db)
    .await?;
    Ok(answered == 1)
}

/// The latest check of each venue of a request, for the builder.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct CheckRow {
    pub id: i64,
    pub member_id: i64,
    pub code: String,
    pub name: String,
    /// As [`super::links_view::AvailabilityRow::status`].
    pub status: String,
    pub answer: Option<String>,
    pub conditions: Option<String>,
    pub sent_at: DateTime<Utc>,
    pub answered_at: Option<DateTime<Utc>>,
    pub expires_at: DateTime<Utc>,
}

pub async fn latest_of_request(
    db: impl PgExecutor<'_>,
    request_id: i64,
) -> sqlx::Result<Vec<CheckRow>> {
    sqlx::query_as(
        "SELECT DISTINCT ON (a.member_id)
                a.id, a.member_id, m.code, m.name,
                CASE WHEN a.status = 'pending' AND a.expires_at <= now() THEN 'expired'
                     ELSE a.status END AS status,
                a.answer, a.conditions, a.sent_at, a.answered_at, a.expires_at
           FROM availability_checks a JOIN members m ON m.id = a.member_id
          WHERE a.request_id = $1
          ORDER BY a.member_id, a.created_at DESC, a.id DESC",
    )
    .bind(request_id)
    .fetch_all(db)
    .await
}
