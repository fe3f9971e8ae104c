//! `mail_sends` (migration 0029), and what a message is written from: the
//! request, the recipient's address and the sending team member. Runtime-
//! checked queries.
use chrono::{DateTime, NaiveDate, Utc};
use sqlx::{PgConnection, PgExecutor};

/// A row to insert: everything but its status.
pub struct NewSend<'a> {
    pub request_id: i64,
    /// `catalogue` or `availability`.
    pub kind: &'static str,
    pub catalogue_id: Option<i64>,
    pub check_id: Option<i64>,
    pub member_id: Option<i64>,
    pub recipient: &'a str,
    pub recipient_name: Option<&'a str>,
    pub subject: &'a str,
    pub body_text: &'a str,
    pub body_html: &'a str,
    pub created_by: i64,
}

pub async fn insert(conn: &mut PgConnection, send: &NewSend<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO mail_sends (request_id, kind, catalogue_id, check_id, member_id, recipient,
                                 recipient_name, subject, body_text, body_html, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         RETURNING id",
    )
    .bind(send.request_id)
    .bind(send.kind)
    .bind(send.catalogue_id)
    .bind(send.check_id)
    .bind(send.member_id)
    .bind(send.recipient)
    .bind(send.recipient_name)
    .bind(send.subject)
    .bind(send.body_text)
    .bind(send.body_html)
    .bind(send.created_by)
    .fetch_one(conn)
    .await
}

/// A message still to deliver.
#[derive(Debug, sqlx::FromRow)]
pub struct Pending {
    pub recipient: String,
    pub recipient_name: Option<String>,
    pub subject: String,
    pub body_text: String,
    pub body_html: String,
}

/// The message of `id` unless it was delivered already.
pub async fn pending(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<Pending>> {
    sqlx::query_as(
        "SELECT recipient, recipient_name, subject, body_text, body_html
           FROM mail_sends WHERE id = $1 AND status <> 'sent'",
    )
    .bind(id)
    .fetch_optional(db)
    .await
}

/// Delivered: the bodies (and the link in them) are cleared.
pub async fn mark_sent(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE mail_sends
            SET status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = NULL,
                body_text = NULL, body_html = NULL
          WHERE id = $1 AND status <> 'sent'",
    )
    .bind(id)
    .execute(db)
    .await?;
    Ok(())
}

pub async fn mark_failed(db: impl PgExecutor<'_>, id: i64, error: &str) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE mail_sends
            SET status = 'failed', attempts = attempts + 1, last_error = left($2, 500)
          WHERE id = $1 AND status <> 'sent'",
    )
    .bind(id)
    .bind(error)
    .execute(db)
    .await?;
    Ok(())
}

/// One send as the builder lists it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct SendRow {
    pub id: i64,
    pub kind: String,
    pub member_id: Option<i64>,
    pub recipient: String,
    pub recipient_name: Option<String>,
    pub subject: String,
    pub status: String,
    pub attempts: i32,
    pub last_error: Option<String>,
    pub created_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
    pub created_by_name: Option<String>,
    /// When the queue tries again (a job still queued or running).
    pub retry_at: Option<DateTime<Utc>>,
}

/// The sends of a request, newest first.
pub async fn of_request(db: impl PgExecutor<'_>, request_id: i64) -> sqlx::Result<Vec<SendRow>> {
    sqlx::query_as(
        "SELECT s.id, s.kind, s.member_id, s.recipient, s.recipient_name, s.subject, s.status,
                s.attempts, s.last_error, s.created_at, s.sent_at, u.display_name AS created_by_name,
                j.run_at AS retry_at
           FROM mail_sends s
           LEFT JOIN users u ON u.id = s.created_by
           LEFT JOIN LATERAL (
                SELECT run_at FROM jobs
                 WHERE dedupe_key = 'mail.send:' || s.id AND status IN ('queued', 'running')
                 ORDER BY id DESC LIMIT 1) j ON true
          WHERE s.request_id = $1
          ORDER BY s.created_at DESC, s.id DESC
          LIMIT 100",
    )
    .bind(request_id)
    .fetch_all(db)
    .await
}

/// The request of a send that is not delivered yet (what a retry needs).
pub async fn undelivered_request(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar("SELECT request_id FROM mail_sends WHERE id = $1 AND status <> 'sent'")
        .bind(id)
        .fetch_optional(db)
        .await
}

/// A send asked again by a person: shown as queued until the job runs.
pub async fn requeue(conn: &mut PgConnection, id: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE mail_sends SET status = 'queued' WHERE id = $1 AND status = 'failed'")
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The request and its organizer, as the catalogue's e-mail needs them.
#[derive(Debug, sqlx::FromRow)]
pub struct RequestFacts {
    pub request_id: i64,
    pub reference: String,
    pub organizer_name: Option<String>,
    pub organizer_email: Option<String>,
    pub participants: Option<i32>,
    pub configurations: Vec<String>,
    pub event_start_date: Option<NaiveDate>,
    pub event_end_date: Option<NaiveDate>,
}

const REQUEST_FACTS: &str = "r.id AS request_id, r.reference, r.organizer_name, r.organizer_email,
     r.participants, r.configurations, r.event_start_date, r.event_end_date";

pub async fn catalogue_request(
    conn: &mut PgConnection,
    catalogue_id: i64,
) -> sqlx::Result<Option<RequestFacts>> {
    sqlx::query_as(&format!(
        "SELECT {REQUEST_FACTS} FROM catalogues c JOIN requests r ON r.id = c.request_id
          WHERE c.id = $1"
    ))
    .bind(catalogue_id)
    .fetch_optional(conn)
    .await
}

pub async fn request(
    conn: &mut PgConnection,
    request_id: i64,
) -> sqlx::Result<Option<RequestFacts>> {
    sqlx::query_as(&format!(
        "SELECT {REQUEST_FACTS} FROM requests r WHERE r.id = $1"
    ))
    .bind(request_id)
    .fetch_optional(conn)
    .await
}

/// A venue's name and contact address.
#[derive(Debug, sqlx::FromRow)]
pub struct VenueContact {
    pub name: String,
    pub contact_email: Option<String>,
}

pub async fn venue(conn: &mut PgConnection, member_id: i64) -> sqlx::Result<Option<VenueContact>> {
    sqlx::query_as("SELECT name, contact_email FROM members WHERE id = $1")
        .bind(member_id)
        .fetch_optional(conn)
        .await
}

/// The team member's name and address (the sender).
pub async fn user(conn: &mut PgConnection, user_id: i64) -> sqlx::Result<Option<(String, String)>> {
    sqlx::query_as("SELECT display_name, email FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(conn)
        .await
}
