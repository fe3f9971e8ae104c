//! What an organizer answers on the catalogue page: favourites
//! (`catalogue_picks.organizer_favorite`) and one comment per catalogue
//! (`catalogue_feedback`). Runtime-checked queries.
use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

/// Sets the organizer's favourite flag of a pick of `catalogue_id`; `false`
/// when the pick is not in that catalogue (another catalogue's pick).
pub async fn set_favorite(
    db: impl PgExecutor<'_>,
    catalogue_id: i64,
    pick_id: i64,
    favorite: bool,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE catalogue_picks SET organizer_favorite = $3
          WHERE id = $2 AND catalogue_id = $1",
    )
    .bind(catalogue_id)
    .bind(pick_id)
    .bind(favorite)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Stores the comment (replacing the previous one); `None` removes it.
pub async fn save_comment(
    db: impl PgExecutor<'_>,
    catalogue_id: i64,
    comment: Option<&str>,
) -> sqlx::Result<()> {
    match comment {
        Some(text) => sqlx::query(
            "INSERT INTO catalogue_feedback (catalogue_id, comment) VALUES ($1, $2)
             ON CONFLICT (catalogue_id) DO UPDATE SET comment = EXCLUDED.comment",
        )
        .bind(catalogue_id)
        .bind(text),
        None => {
            sqlx::query("DELETE FROM catalogue_feedback WHERE catalogue_id = $1").bind(catalogue_id)
        }
    }
    .execute(db)
    .await?;
    Ok(())
}

#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct CommentRow {
    pub comment: String,
    pub updated_at: DateTime<Utc>,
}

pub async fn comment(
    db: impl PgExecutor<'_>,
    catalogue_id: i64,
) -> sqlx::Result<Option<CommentRow>> {
    sqlx::query_as("SELECT comment, updated_at FROM catalogue_feedback WHERE catalogue_id = $1")
        .bind(catalogue_id)
        .fetch_optional(db)
        .await
}
