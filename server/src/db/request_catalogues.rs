//! A request's catalogues as the assistant reads them (`get_request_catalogues`):
//! each standard catalogue, newest first, with its picks, their pinned
//! room, the organizer's favourites and comment. Training catalogues are the
//! workspace's, not answers to the organizer. Runtime-checked queries.
use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct CatalogueRow {
    pub id: i64,
    pub status: String,
    pub created_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
    /// The organizer's comment on the catalogue page (third-party text).
    pub comment: Option<String>,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct PickRow {
    pub catalogue_id: i64,
    pub code: String,
    pub name: String,
    pub city: Option<String>,
    pub tier: String,
    pub room: Option<String>,
    pub explanation: String,
    pub organizer_favorite: bool,
}

/// The request's standard catalogues, newest first (at most `limit`).
pub async fn catalogues(
    db: impl PgExecutor<'_>,
    request_id: i64,
    limit: i64,
) -> sqlx::Result<Vec<CatalogueRow>> {
    sqlx::query_as(
        "SELECT c.id, c.status, c.created_at, c.sent_at, f.comment
           FROM catalogues c LEFT JOIN catalogue_feedback f ON f.catalogue_id = c.id
          WHERE c.request_id = $1 AND c.kind = 'standard'
          ORDER BY c.created_at DESC, c.id DESC
          LIMIT $2",
    )
    .bind(request_id)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// The picks of these catalogues, recommended first, in their order.
pub async fn picks(db: impl PgExecutor<'_>, catalogue_ids: &[i64]) -> sqlx::Result<Vec<PickRow>> {
    sqlx::query_as(
        "SELECT p.catalogue_id, m.code, m.name, m.city, p.tier, r.name AS room,
                p.explanation, p.organizer_favorite
           FROM catalogue_picks p
           JOIN members m ON m.id = p.member_id
           LEFT JOIN rooms r ON r.id = p.room_id
          WHERE p.catalogue_id = ANY($1)
          ORDER BY p.catalogue_id, p.tier = 'compatible', p.position, p.id",
    )
    .bind(catalogue_ids)
    .fetch_all(db)
    .await
}
