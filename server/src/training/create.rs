//! The one way a training session is written — by the « Apprendre » button,
//! the guideline form and the chat's approved `create_training_session` —
//! and queued for its embedding in the same transaction.
use super::embed;
use super::validate::{Source, Valid};
use crate::db::training_sessions::{self, NewSession};
use sqlx::PgConnection;

#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    /// A named object does not exist, or does not belong with the others.
    #[error("{0}")]
    NotFound(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// Writes `session` on `conn` (the caller's transaction) and queues its
/// embedding there too; the embedding service is never called here, so
/// its outage cannot fail the write (the row keeps a NULL vector until the
/// job runs).
pub async fn record(
    conn: &mut PgConnection,
    session: &Valid,
    source: Source,
    user_id: Option<i64>,
) -> Result<i64, CreateError> {
    let targets = training_sessions::targets(
        &mut *conn,
        session.request_id,
        session.member_id,
        session.catalogue_id,
    )
    .await?;
    if let Some(id) = session.request_id.filter(|_| !targets.request_exists) {
        return Err(CreateError::NotFound(format!(
            "La demande n° {id} n'existe pas."
        )));
    }
    if let Some(id) = session.member_id.filter(|_| !targets.member_exists) {
        return Err(CreateError::NotFound(format!(
            "Le lieu n° {id} n'existe pas."
        )));
    }
    if let Some(id) = session.catalogue_id {
        match targets.catalogue_request_id {
            None => {
                return Err(CreateError::NotFound(format!(
                    "Le catalogue n° {id} n'existe pas."
                )))
            }
            Some(owner) if session.request_id.is_some_and(|r| r != owner) => {
                return Err(CreateError::NotFound(format!(
                    "Le catalogue n° {id} ne répond pas à cette demande."
                )))
            }
            Some(_) => {}
        }
    }
    let id = training_sessions::insert(
        &mut *conn,
        &NewSession {
            request_id: session.request_id,
            member_id: session.member_id,
            catalogue_id: session.catalogue_id,
            user_id,
            source: source.as_str(),
            verdict: &session.verdict,
            reason: &session.reason,
            category: &session.category,
            event_type: session.event_type.as_deref(),
            directives: session.directives.as_ref().map(|d| d.to_json()),
        },
    )
    .await?;
    embed::enqueue(&mut *conn, id).await?;
    Ok(id)
}
