//! What a write tool call names, looked up to validate it: the request,
//! venues by code or id, rooms and their capacities. The proposal reads
//! them to build the card; the executors read them again inside their
//! transaction, because a venue may be deactivated between the card and the
//! click.
//!
//! Runtime-checked queries (`query_as`, not `query!`): no offline data.
use sqlx::PgExecutor;

/// The fields of a request that writes check against.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct RequestBrief {
    pub id: i64,
    pub reference: String,
    pub pool_id: i64,
    pub participants: Option<i32>,
    pub configurations: Vec<String>,
    pub event_start_date: Option<chrono::NaiveDate>,
    pub event_end_date: Option<chrono::NaiveDate>,
}

pub async fn request(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<RequestBrief>> {
    sqlx::query_as(
        "SELECT id, reference, pool_id, participants, configurations, event_start_date, event_end_date
           FROM requests WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(db)
    .await
}

/// A venue as a card shows it.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct MemberBrief {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub city: Option<String>,
    pub pool_id: i64,
    pub status: String,
}

const MEMBER_COLUMNS: &str = "id, code, name, city, pool_id, status";

pub async fn members_by_codes(
    db: impl PgExecutor<'_>,
    codes: &[String],
) -> sqlx::Result<Vec<MemberBrief>> {
    sqlx::query_as(&format!(
        "SELECT {MEMBER_COLUMNS} FROM members WHERE code = ANY($1)"
    ))
    .bind(codes)
    .fetch_all(db)
    .await
}

pub async fn members_by_ids(
    db: impl PgExecutor<'_>,
    ids: &[i64],
) -> sqlx::Result<Vec<MemberBrief>> {
    sqlx::query_as(&format!(
        "SELECT {MEMBER_COLUMNS} FROM members WHERE id = ANY($1)"
    ))
    .bind(ids)
    .fetch_all(db)
    .await
}

/// One room with one of its capacities (`configuration` is `None` for a
/// room without any capacity row).
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct RoomCapacity {
    pub room_id: i64,
    pub member_id: i64,
    pub room_name: String,
    pub configuration: Option<String>,
    pub max_capacity: Option<i32>,
}

/// Every capacity of the rooms `ids`.
pub async fn room_capacities(
    db: impl PgExecutor<'_>,
    ids: &[i64],
) -> sqlx::Result<Vec<RoomCapacity>> {
    sqlx::query_as(
        "SELECT r.id AS room_id, r.member_id, r.name AS room_name, c.configuration, c.max_capacity
           FROM rooms r LEFT JOIN room_capacities c ON c.room_id = r.id
          WHERE r.id = ANY($1)
          ORDER BY r.id, c.configuration",
    )
    .bind(ids)
    .fetch_all(db)
    .await
}

/// Whether an availability check for this venue and request still waits
/// for an answer (the unique index allows one at a time).
pub async fn pending_availability_check(
    db: impl PgExecutor<'_>,
    request_id: i64,
    member_id: i64,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM availability_checks
                         WHERE request_id = $1 AND member_id = $2 AND status = 'pending')",
    )
    .bind(request_id)
    .bind(member_id)
    .fetch_one(db)
    .await
}
