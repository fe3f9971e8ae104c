//! `catalogues` + `catalogue_picks`, as the catalogue executor writes them:
//! the request's one open draft (per kind) and its picks.
//!
//! Runtime-checked queries; every function takes the executor's connection
//! (its transaction).
use sqlx::PgConnection;

/// The id of the request's draft of `kind`, created when there is none,
/// and locked until the transaction ends: two approvals filling the same
/// draft at once count its picks one after the other.
pub async fn lock_draft(
    conn: &mut PgConnection,
    request_id: i64,
    kind: &str,
    created_by: i64,
) -> sqlx::Result<i64> {
    // The partial unique index (one draft per request and kind) turns a
    // concurrent creation into DO NOTHING here, then both read the one row.
    sqlx::query(
        "INSERT INTO catalogues (request_id, kind, status, created_by)
         VALUES ($1, $2, 'draft', $3)
         ON CONFLICT (request_id, kind) WHERE status = 'draft' DO NOTHING",
    )
    .bind(request_id)
    .bind(kind)
    .bind(created_by)
    .execute(&mut *conn)
    .await?;
    sqlx::query_scalar(
        "SELECT id FROM catalogues WHERE request_id = $1 AND kind = $2 AND status = 'draft'
         FOR UPDATE",
    )
    .bind(request_id)
    .bind(kind)
    .fetch_one(&mut *conn)
    .await
}

#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct PickRow {
    pub member_id: i64,
    pub tier: String,
    pub position: i32,
}

pub async fn picks(conn: &mut PgConnection, catalogue_id: i64) -> sqlx::Result<Vec<PickRow>> {
    sqlx::query_as(
        "SELECT member_id, tier, position FROM catalogue_picks
          WHERE catalogue_id = $1 ORDER BY tier DESC, position, id",
    )
    .bind(catalogue_id)
    .fetch_all(conn)
    .await
}

/// A pick as the assistant writes it.
pub struct NewPick<'a> {
    pub member_id: i64,
    pub tier: &'a str,
    pub position: i32,
    pub explanation: &'a str,
    pub room_id: Option<i64>,
}

/// The assistant's pick (`added_by = 'ai'`), written as the builder writes
/// any pick.
pub async fn insert_pick(
    conn: &mut PgConnection,
    catalogue_id: i64,
    pick: &NewPick<'_>,
    user_id: i64,
) -> sqlx::Result<()> {
    let pick = super::catalogues::NewPick {
        member_id: pick.member_id,
        tier: pick.tier,
        position: pick.position,
        explanation: pick.explanation,
        room_id: pick.room_id,
        added_by: "ai",
    };
    super::catalogues::insert_pick(conn, catalogue_id, &pick, user_id).await
}

/// A venue already in the draft: its tier, place, reason and room change;
/// who first added it stays recorded, and so does a reason a person wrote.
pub async fn update_pick(
    conn: &mut PgConnection,
    catalogue_id: i64,
    pick: &NewPick<'_>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE catalogue_picks
            SET tier = $3, position = $4, room_id = $6,
                explanation = CASE WHEN reason_edited THEN explanation ELSE $5 END
          WHERE catalogue_id = $1 AND member_id = $2",
    )
    .bind(catalogue_id)
    .bind(pick.member_id)
    .bind(pick.tier)
    .bind(pick.position)
    .bind(pick.explanation)
    .bind(pick.room_id)
    .execute(conn)
    .await
    .map(|_| ())
}

/// After the assistant's write: the acceptance rate is recounted and the
/// version bumped, so a builder open on this draft reloads before its next
/// edit instead of acting on picks it has not seen. Returns the new version.
pub async fn touch(conn: &mut PgConnection, catalogue_id: i64, user_id: i64) -> sqlx::Result<i32> {
    super::catalogues::refresh_acceptance(&mut *conn, catalogue_id).await?;
    super::catalogues::bump_version(conn, catalogue_id, user_id).await
}
