//! `catalogues` as outreach reads and sends them: state, sending, the
//! request's status, and the catalogue's organizer links. Runtime-checked
//! queries.
use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};

#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct CatalogueState {
    pub id: i64,
    pub request_id: i64,
    /// `standard` or `training`.
    pub kind: String,
    /// `draft`, `sent` or `archived`.
    pub status: String,
    pub sent_at: Option<DateTime<Utc>>,
    pub picks: i64,
}

const STATE: &str = "SELECT c.id, c.request_id, c.kind, c.status, c.sent_at,
                            (SELECT count(*) FROM catalogue_picks p WHERE p.catalogue_id = c.id) AS picks
                       FROM catalogues c WHERE c.id = $1";

pub async fn state(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<CatalogueState>> {
    sqlx::query_as(STATE).bind(id).fetch_optional(db).await
}

/// [`state`], the row locked until the transaction ends: a send and an
/// archive (or two sends) of one catalogue happen one after the other.
pub async fn lock(conn: &mut PgConnection, id: i64) -> sqlx::Result<Option<CatalogueState>> {
    sqlx::query_as(&format!("{STATE} FOR UPDATE OF c"))
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// Marks the catalogue sent now (a resend moves the date), and its request
/// `catalogue_sent` unless the request is already further (won, lost…).
pub async fn mark_sent(conn: &mut PgConnection, id: i64) -> sqlx::Result<DateTime<Utc>> {
    let sent_at: DateTime<Utc> = sqlx::query_scalar(
        "UPDATE catalogues SET status = 'sent', sent_at = now() WHERE id = $1 RETURNING sent_at",
    )
    .bind(id)
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query(
        "UPDATE requests SET status = 'catalogue_sent'
          WHERE id = (SELECT request_id FROM catalogues WHERE id = $1)
            AND status IN ('new', 'qualifying')",
    )
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(sent_at)
}

/// The live (unexpired, unrevoked) organizer links of a catalogue, newest first.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct LinkRow {
    pub id: i64,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub use_count: i32,
    pub last_used_at: Option<DateTime<Utc>>,
}

pub async fn live_links(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Vec<LinkRow>> {
    sqlx::query_as(
        "SELECT id, created_at, expires_at, use_count, last_used_at FROM magic_links
          WHERE purpose = 'catalogue' AND subject_id = $1
            AND revoked_at IS NULL AND expires_at > now()
          ORDER BY created_at DESC, id DESC",
    )
    .bind(id)
    .fetch_all(db)
    .await
}

/// Revokes every live organizer link of the catalogue; their ids.
pub async fn revoke_links(db: impl PgExecutor<'_>, id: i64, by: i64) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(
        "UPDATE magic_links SET revoked_at = now(), revoked_by = $2
          WHERE purpose = 'catalogue' AND subject_id = $1
            AND revoked_at IS NULL AND expires_at > now()
          RETURNING id",
    )
    .bind(id)
    .bind(by)
    .fetch_all(db)
    .await
}

/// The standard catalogue the builder works on when none is named: the
/// request's newest one that is not archived.
pub async fn current_of_request(
    db: impl PgExecutor<'_>,
    request_id: i64,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        "SELECT id FROM catalogues
          WHERE request_id = $1 AND kind = 'standard' AND status <> 'archived'
          ORDER BY created_at DESC, id DESC LIMIT 1",
    )
    .bind(request_id)
    .fetch_optional(db)
    .await
}

/// A pick as the team sees it on the builder's outreach panel.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct TeamPickRow {
    pub id: i64,
    pub member_id: i64,
    pub code: String,
    pub name: String,
    pub tier: String,
    pub organizer_favorite: bool,
}

pub async fn picks(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Vec<TeamPickRow>> {
    sqlx::query_as(
        "SELECT p.id, p.member_id, m.code, m.name, p.tier, p.organizer_favorite
           FROM catalogue_picks p JOIN members m ON m.id = p.member_id
          WHERE p.catalogue_id = $1
          ORDER BY p.tier = 'compatible', p.position, p.id",
    )
    .bind(id)
    .fetch_all(db)
    .await
}
