//! Who the organizer deals with and until when: the team member who sent
//! the catalogue's newest live link (else the request's owner, else the
//! catalogue's author) and that link's last day. One statement, read beside
//! the catalogue's own.
use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

#[derive(Clone, Debug, Default, sqlx::FromRow)]
pub struct ContactRow {
    pub name: Option<String>,
    pub email: Option<String>,
    /// The last live link's expiry: after it the page no longer opens.
    pub open_until: Option<DateTime<Utc>>,
}

pub async fn of_catalogue(db: impl PgExecutor<'_>, catalogue_id: i64) -> sqlx::Result<ContactRow> {
    let row: Option<ContactRow> = sqlx::query_as(
        "SELECT u.display_name AS name, u.email, l.expires_at AS open_until
           FROM catalogues c
           JOIN requests r ON r.id = c.request_id
           LEFT JOIN LATERAL (
                SELECT created_by, expires_at FROM magic_links
                 WHERE purpose = 'catalogue' AND subject_id = c.id
                   AND revoked_at IS NULL AND expires_at > now()
                 ORDER BY created_at DESC LIMIT 1) l ON true
           LEFT JOIN users u ON u.id = coalesce(l.created_by, r.assigned_user_id, c.created_by)
                            AND u.disabled_at IS NULL
          WHERE c.id = $1",
    )
    .bind(catalogue_id)
    .fetch_optional(db)
    .await?;
    Ok(row.unwrap_or_default())
}
