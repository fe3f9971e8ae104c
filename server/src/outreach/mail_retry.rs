//! « Réessayer » on an e-mail not delivered: its job runs now (the one
//! waiting for its backoff, or a new one when the queue gave up), audited
//! as `mail.retried`.
use crate::audit::{self, Actor, Event};
use crate::db::app_error;
use crate::mail::{self, store};
use app::errors::AppError;
use sqlx::PgPool;

pub async fn retry(db: &PgPool, user_id: i64, send_id: i64) -> Result<(), AppError> {
    let mut tx = db.begin().await.map_err(app_error)?;
    let request_id = store::undelivered_request(&mut *tx, send_id)
        .await
        .map_err(app_error)?
        .ok_or_else(|| AppError::Conflict("Cet e-mail est déjà parti.".into()))?;
    let hurried =
        sqlx::query("UPDATE jobs SET run_at = now() WHERE dedupe_key = $1 AND status = 'queued'")
            .bind(mail::dedupe_key(send_id))
            .execute(&mut *tx)
            .await
            .map_err(app_error)?
            .rows_affected();
    if hurried == 0 {
        mail::enqueue(&mut tx, send_id).await.map_err(app_error)?;
    }
    store::requeue(&mut tx, send_id).await.map_err(app_error)?;
    let event = Event::new(Actor::User(user_id), "mail.retried")
        .on("request", request_id)
        .details(serde_json::json!({ "send_id": send_id }));
    audit::write(&mut *tx, event).await.map_err(app_error)?;
    tx.commit().await.map_err(app_error)?;
    Ok(())
}
