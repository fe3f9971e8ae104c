//! The one write of an availability check and its venue link, shared by the
//! builder's bulk « Demander les disponibilités » and the assistant's
//! approved `request_availability_check`: same deadline, same link, same
//! one-pending-check-per-venue rule, same audit row.
use crate::audit::{self, Actor, Event};
use crate::auth::magic_links::{self, IssuedLink, Purpose};
use crate::auth::tokens::SigningKey;
use crate::db::availability_checks;
use crate::tools::write::request_availability_check::ANSWER_DAYS;
use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use std::time::Duration;

/// What to do when the venue already has a check waiting for its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnPending {
    /// Keep it (same deadline) and issue a fresh link to it: the builder.
    Reuse,
    /// Refuse: an approved tool call asked for a *new* check.
    Refuse,
}

#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error("une demande de disponibilité attend déjà la réponse de ce lieu")]
    AlreadyPending,
    #[error("le lien n'a pas pu être créé : {0}")]
    Link(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// A check and its link; the token is in `link` and shown once.
pub struct CheckLink {
    pub check_id: i64,
    pub expires_at: DateTime<Utc>,
    pub reused: bool,
    pub link: IssuedLink,
}

/// Opens the check of (request, venue), issues its link and audits it
/// (`availability.requested`), on `conn` (a transaction: a link is never
/// issued for a check that did not commit, nor audited).
pub async fn open_check(
    conn: &mut PgConnection,
    key: &SigningKey,
    request_id: i64,
    member_id: i64,
    user_id: i64,
    on_pending: OnPending,
) -> Result<CheckLink, CheckError> {
    let days = i32::try_from(ANSWER_DAYS).unwrap_or(7);
    let check = availability_checks::open(&mut *conn, request_id, member_id, user_id, days).await?;
    if check.reused && on_pending == OnPending::Refuse {
        return Err(CheckError::AlreadyPending);
    }
    // The link lives as long as the check may be answered.
    let left = (check.expires_at - Utc::now())
        .to_std()
        .unwrap_or_default()
        .max(Duration::from_secs(60));
    let link = magic_links::issue(
        &mut *conn,
        key,
        Purpose::Availability,
        check.id,
        left,
        Some(user_id),
    )
    .await
    .map_err(|e| match e.downcast::<sqlx::Error>() {
        Ok(db) => CheckError::Db(db),
        Err(other) => CheckError::Link(other.to_string()),
    })?;
    // Audited here, in the same transaction, whoever opens it (the
    // builder's bulk send or an approved tool call).
    let event = Event::new(Actor::User(user_id), "availability.requested")
        .on("availability_check", check.id)
        .details(serde_json::json!({
            "request_id": request_id,
            "member_id": member_id,
            "link_id": link.id,
            "reused": check.reused,
        }));
    audit::write(&mut *conn, event).await?;
    Ok(CheckLink {
        check_id: check.id,
        expires_at: check.expires_at,
        reused: check.reused,
        link,
    })
}
