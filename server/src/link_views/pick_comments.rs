//! `organizer_pick_comments` (migration 0030): an organizer's comment on one
//! venue of their catalogue, one per pick, overwritten when edited, removed
//! when emptied. Runtime-checked queries.
use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

/// Saves (or, `None`, removes) the comment on `pick_id`, when that pick
/// belongs to `catalogue_id`; false when it does not (the link grants
/// nothing on another catalogue's picks).
pub async fn save(
    db: impl PgExecutor<'_>,
    catalogue_id: i64,
    pick_id: i64,
    comment: Option<&str>,
) -> sqlx::Result<bool> {
    // One statement: the pick's ownership is checked by the same query
    // that writes.
    let owned: Option<bool> = sqlx::query_scalar(
        "WITH pick AS (SELECT id FROM catalogue_picks WHERE id = $2 AND catalogue_id = $1),
              saved AS (
                INSERT INTO organizer_pick_comments (pick_id, catalogue_id, comment)
                SELECT id, $1, $3 FROM pick WHERE $3::text IS NOT NULL
                ON CONFLICT (pick_id) DO UPDATE SET comment = EXCLUDED.comment
                RETURNING pick_id),
              removed AS (
                DELETE FROM organizer_pick_comments
                 WHERE $3::text IS NULL AND pick_id IN (SELECT id FROM pick)
                RETURNING pick_id)
         SELECT true FROM pick",
    )
    .bind(catalogue_id)
    .bind(pick_id)
    .bind(comment)
    .fetch_optional(db)
    .await?;
    Ok(owned.is_some())
}

/// One comment, with its venue.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct PickComment {
    pub pick_id: i64,
    pub member_id: i64,
    pub comment: String,
    pub updated_at: DateTime<Utc>,
}

/// The comments on a catalogue's venues.
pub async fn of_catalogue(
    db: impl PgExecutor<'_>,
    catalogue_id: i64,
) -> sqlx::Result<Vec<PickComment>> {
    sqlx::query_as(
        "SELECT c.pick_id, p.member_id, c.comment, c.updated_at
           FROM organizer_pick_comments c
           JOIN catalogue_picks p ON p.id = c.pick_id
          WHERE c.catalogue_id = $1",
    )
    .bind(catalogue_id)
    .fetch_all(db)
    .await
}
