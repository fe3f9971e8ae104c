//! What magic-link holders read: one catalogue, one availability check.
use chrono::NaiveDate;
use sqlx::PgExecutor;

/// The request as its organizer (or an asked venue) may see it: no team memo,
/// no organizer contact details.
pub struct EventRow {
    pub reference: String,
    pub description: String,
    pub participants: Option<i32>,
    pub configurations: Vec<String>,
    pub event_start_date: Option<NaiveDate>,
    pub event_end_date: Option<NaiveDate>,
}

pub struct CatalogueRow {
    pub sent_at: Option<chrono::DateTime<chrono::Utc>>,
    pub event: EventRow,
}

pub async fn catalogue(
    db: impl PgExecutor<'_>,
    catalogue_id: i64,
) -> sqlx::Result<Option<CatalogueRow>> {
    let row = sqlx::query!(
        r#"SELECT c.sent_at, r.reference, r.description, r.participants, r.configurations,
                  r.event_start_date, r.event_end_date
             FROM catalogues c JOIN requests r ON r.id = c.request_id
            WHERE c.id = $1 AND c.kind = 'standard'"#,
        catalogue_id
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(|r| CatalogueRow {
        sent_at: r.sent_at,
        event: EventRow {
            reference: r.reference,
            description: r.description,
            participants: r.participants,
            configurations: r.configurations,
            event_start_date: r.event_start_date,
            event_end_date: r.event_end_date,
        },
    }))
}

pub struct PickRow {
    pub tier: String,
    pub code: String,
    pub name: String,
    pub city: Option<String>,
    pub postal_code: Option<String>,
    pub explanation: String,
    pub room: Option<String>,
}

pub async fn picks(db: impl PgExecutor<'_>, catalogue_id: i64) -> sqlx::Result<Vec<PickRow>> {
    sqlx::query_as!(
        PickRow,
        r#"SELECT p.tier, m.code, m.name, m.city, m.postal_code, p.explanation, r.name AS "room?"
             FROM catalogue_picks p
             JOIN members m ON m.id = p.member_id
             LEFT JOIN rooms r ON r.id = p.room_id
            WHERE p.catalogue_id = $1
            ORDER BY p.tier = 'compatible', p.position, p.id"#,
        catalogue_id
    )
    .fetch_all(db)
    .await
}

pub struct AvailabilityRow {
    pub venue_name: String,
    pub status: String,
    pub answer: Option<String>,
    pub expires_at: chrono::DateTime<chrono::Utc>,
    pub event: EventRow,
}

pub async fn availability(
    db: impl PgExecutor<'_>,
    check_id: i64,
) -> sqlx::Result<Option<AvailabilityRow>> {
    let row = sqlx::query!(
        r#"SELECT m.name AS venue_name,
                  CASE WHEN a.status = 'pending' AND a.expires_at <= now() THEN 'expired' ELSE a.status END AS "status!",
                  a.answer, a.expires_at,
                  r.reference, r.description, r.participants, r.configurations,
                  r.event_start_date, r.event_end_date
             FROM availability_checks a
             JOIN members m ON m.id = a.member_id
             JOIN requests r ON r.id = a.request_id
            WHERE a.id = $1"#,
        check_id
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(|r| AvailabilityRow {
        venue_name: r.venue_name,
        status: r.status,
        answer: r.answer,
        expires_at: r.expires_at,
        event: EventRow {
            reference: r.reference,
            description: r.description,
            participants: r.participants,
            configurations: r.configurations,
            event_start_date: r.event_start_date,
            event_end_date: r.event_end_date,
        },
    }))
}

/// Records the venue's answer, once: `false` when the check is no longer pending.
pub async fn answer(
    db: impl PgExecutor<'_>,
    check_id: i64,
    available: bool,
    comment: Option<&str>,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE availability_checks
            SET status = CASE WHEN $2 THEN 'available' ELSE 'unavailable' END,
                answer = $3, answered_at = now()
          WHERE id = $1 AND status = 'pending' AND expires_at > now()",
        check_id,
        available,
        comment
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}
