//! What magic-link holders read: one catalogue (with what its organizer
//! answered), one availability check. Runtime-checked queries: the page is
//! the benchmarked one, so a catalogue view is one round trip.
use chrono::{DateTime, NaiveDate, Utc};
use sqlx::PgExecutor;

/// The request as its organizer (or an asked venue) may see it: no team memo,
/// no organizer contact details.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct EventRow {
    pub reference: String,
    pub description: String,
    pub participants: Option<i32>,
    pub configurations: Vec<String>,
    pub event_start_date: Option<NaiveDate>,
    pub event_end_date: Option<NaiveDate>,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct CatalogueRow {
    pub sent_at: Option<DateTime<Utc>>,
    /// The organizer's comment, if any.
    pub comment: Option<String>,
    pub comment_updated_at: Option<DateTime<Utc>>,
    #[sqlx(flatten)]
    pub event: EventRow,
}

/// A standard catalogue that is not archived: training catalogues are never
/// shown to anyone outside, and archiving a catalogue closes its links.
pub async fn catalogue(
    db: impl PgExecutor<'_>,
    catalogue_id: i64,
) -> sqlx::Result<Option<CatalogueRow>> {
    sqlx::query_as(
        "SELECT c.sent_at, f.comment, f.updated_at AS comment_updated_at,
                r.reference, r.description, r.participants, r.configurations,
                r.event_start_date, r.event_end_date
           FROM catalogues c
           JOIN requests r ON r.id = c.request_id
           LEFT JOIN catalogue_feedback f ON f.catalogue_id = c.id
          WHERE c.id = $1 AND c.kind = 'standard' AND c.status <> 'archived'",
    )
    .bind(catalogue_id)
    .fetch_optional(db)
    .await
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct PickRow {
    pub id: i64,
    pub tier: String,
    pub code: String,
    pub name: String,
    pub address: Option<String>,
    pub city: Option<String>,
    pub postal_code: Option<String>,
    pub explanation: String,
    pub room: Option<String>,
    /// The pinned room's layout and capacity as the builder shows them and
    /// the reason names them (`catalogue_builder::rules::fitting`): the first
    /// requested configuration that holds the group, else the largest.
    pub room_configuration: Option<String>,
    pub room_capacity: Option<i32>,
    pub organizer_favorite: bool,
    /// A person wrote the reason (shown as written).
    pub reason_edited: bool,
    /// What the organizer wrote about this venue (migration 0030).
    pub organizer_comment: Option<String>,
}

/// Who the organizer deals with and until when: the team member who sent
/// the catalogue's newest live link (else the request's owner, else the
/// catalogue's author; nobody when that account is disabled) and that
/// link's last day.
#[derive(Clone, Debug, Default, sqlx::FromRow)]
pub struct ContactRow {
    #[sqlx(rename = "contact_name")]
    pub name: Option<String>,
    #[sqlx(rename = "contact_email")]
    pub email: Option<String>,
    /// The last live link's expiry: after it the page no longer opens.
    pub open_until: Option<DateTime<Utc>>,
}

/// Everything the organizer's page shows, from [`catalogue_with_picks`].
pub struct CatalogueView {
    pub catalogue: CatalogueRow,
    pub contact: ContactRow,
    pub picks: Vec<PickRow>,
}

/// One row of [`catalogue_with_picks`]: the catalogue's and the contact's
/// columns repeated on each pick (8 rows at most in practice), the pick's
/// `None` when it has none.
#[derive(sqlx::FromRow)]
struct CataloguePickRow {
    #[sqlx(flatten)]
    catalogue: CatalogueRow,
    #[sqlx(flatten)]
    contact: ContactRow,
    pick_id: Option<i64>,
    tier: Option<String>,
    code: Option<String>,
    name: Option<String>,
    address: Option<String>,
    city: Option<String>,
    postal_code: Option<String>,
    explanation: Option<String>,
    room: Option<String>,
    room_configuration: Option<String>,
    room_capacity: Option<i32>,
    organizer_favorite: Option<bool>,
    reason_edited: Option<bool>,
    organizer_comment: Option<String>,
}

/// The catalogue (as [`catalogue`]), its contact, and its picks in the
/// organizer's order — recommended first, then compatible — with what the
/// organizer wrote on each, in one statement: this is the page organizers
/// open, and each statement more is a round trip and a pooled connection
/// per opening. Team favourites and notes are not selected: they never
/// leave the team.
pub async fn catalogue_with_picks(
    db: impl PgExecutor<'_>,
    catalogue_id: i64,
) -> sqlx::Result<Option<CatalogueView>> {
    let rows: Vec<CataloguePickRow> = sqlx::query_as(
        "SELECT c.sent_at, f.comment, f.updated_at AS comment_updated_at,
                r.reference, r.description, r.participants, r.configurations,
                r.event_start_date, r.event_end_date,
                who.display_name AS contact_name, who.email AS contact_email,
                l.expires_at AS open_until,
                p.id AS pick_id, p.tier, m.code, m.name, m.address, m.city, m.postal_code,
                p.explanation, ro.name AS room, cap.configuration AS room_configuration,
                cap.max_capacity AS room_capacity, p.organizer_favorite, p.reason_edited,
                oc.comment AS organizer_comment
           FROM catalogues c
           JOIN requests r ON r.id = c.request_id
           LEFT JOIN catalogue_feedback f ON f.catalogue_id = c.id
           LEFT JOIN LATERAL (
                SELECT created_by, expires_at FROM magic_links
                 WHERE purpose = 'catalogue' AND subject_id = c.id
                   AND revoked_at IS NULL AND expires_at > now()
                 ORDER BY created_at DESC LIMIT 1) l ON true
           LEFT JOIN users who ON who.id = coalesce(l.created_by, r.assigned_user_id, c.created_by)
                              AND who.disabled_at IS NULL
           LEFT JOIN catalogue_picks p ON p.catalogue_id = c.id
           LEFT JOIN organizer_pick_comments oc ON oc.pick_id = p.id
           LEFT JOIN members m ON m.id = p.member_id
           LEFT JOIN rooms ro ON ro.id = p.room_id
           LEFT JOIN LATERAL (
                SELECT rc.configuration, rc.max_capacity
                  FROM room_capacities rc
                 WHERE rc.room_id = p.room_id
                   AND (cardinality(r.configurations) = 0 OR rc.configuration = ANY (r.configurations))
                 ORDER BY rc.max_capacity >= coalesce(r.participants, 0) DESC,
                          array_position(r.configurations, rc.configuration),
                          rc.max_capacity DESC
                 LIMIT 1) cap ON true
          WHERE c.id = $1 AND c.kind = 'standard' AND c.status <> 'archived'
          ORDER BY p.tier = 'compatible', p.position, p.id",
    )
    .bind(catalogue_id)
    .fetch_all(db)
    .await?;
    let mut rows = rows.into_iter().peekable();
    let Some((catalogue, contact)) = rows
        .peek()
        .map(|row| (row.catalogue.clone(), row.contact.clone()))
    else {
        return Ok(None);
    };
    let picks = rows
        .filter_map(|row| {
            Some(PickRow {
                id: row.pick_id?,
                tier: row.tier?,
                code: row.code?,
                name: row.name?,
                address: row.address,
                city: row.city,
                postal_code: row.postal_code,
                explanation: row.explanation.unwrap_or_default(),
                room: row.room,
                room_configuration: row.room_configuration,
                room_capacity: row.room_capacity,
                organizer_favorite: row.organizer_favorite.unwrap_or_default(),
                reason_edited: row.reason_edited.unwrap_or_default(),
                organizer_comment: row.organizer_comment,
            })
        })
        .collect();
    Ok(Some(CatalogueView {
        catalogue,
        contact,
        picks,
    }))
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct AvailabilityRow {
    pub venue_name: String,
    /// `pending`, `available`, `unavailable` or `expired` (a pending check
    /// past its date reads as expired before the sweep marks it).
    pub status: String,
    pub answer: Option<String>,
    pub conditions: Option<String>,
    pub expires_at: DateTime<Utc>,
    #[sqlx(flatten)]
    pub event: EventRow,
}

pub async fn availability(
    db: impl PgExecutor<'_>,
    check_id: i64,
) -> sqlx::Result<Option<AvailabilityRow>> {
    sqlx::query_as(
        "SELECT m.name AS venue_name,
                CASE WHEN a.status = 'pending' AND a.expires_at <= now() THEN 'expired'
                     ELSE a.status END AS status,
                a.answer, a.conditions, a.expires_at,
                r.reference, r.description, r.participants, r.configurations,
                r.event_start_date, r.event_end_date
           FROM availability_checks a
           JOIN members m ON m.id = a.member_id
           JOIN requests r ON r.id = a.request_id
          WHERE a.id = $1",
    )
    .bind(check_id)
    .fetch_optional(db)
    .await
}
