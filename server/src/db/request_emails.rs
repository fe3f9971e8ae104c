//! `request_emails`: the e-mails of a request, newest first for the
//! assistant's `list_request_emails`, oldest first for the request page
//! (runtime-checked queries).
use chrono::{DateTime, Utc};
use sqlx::PgExecutor;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct EmailRow {
    pub direction: String,
    pub from_address: String,
    pub subject: String,
    pub body: String,
    pub received_at: DateTime<Utc>,
}

pub async fn latest(
    db: impl PgExecutor<'_>,
    request_id: i64,
    limit: i64,
) -> sqlx::Result<Vec<EmailRow>> {
    sqlx::query_as(
        "SELECT direction, from_address, subject, body, received_at
           FROM request_emails
          WHERE request_id = $1
          ORDER BY received_at DESC, id DESC
          LIMIT $2",
    )
    .bind(request_id)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// The first `limit` e-mails of a request, oldest first (the request page
/// reads the exchange in order).
pub async fn chronological(
    db: impl PgExecutor<'_>,
    request_id: i64,
    limit: i64,
) -> sqlx::Result<Vec<EmailRow>> {
    sqlx::query_as(
        "SELECT direction, from_address, subject, body, received_at
           FROM request_emails
          WHERE request_id = $1
          ORDER BY received_at, id
          LIMIT $2",
    )
    .bind(request_id)
    .bind(limit)
    .fetch_all(db)
    .await
}
