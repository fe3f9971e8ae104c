//! Pending availability checks past their date become `expired`, each with
//! a `no_answer` reactivity signal. Pages already read an overdue check as
//! expired; the sweep makes it true in the table (and in the signals the
//! search reads). Idempotent: any number of servers may run it.
use crate::db::availability_checks;
use sqlx::PgPool;
use std::time::Duration;

/// One pass; how many checks expired.
pub async fn expire_checks(db: &PgPool) -> sqlx::Result<u64> {
    availability_checks::expire_overdue(db, None).await
}

/// Runs [`expire_checks`] every `period`, as long as the server runs (the
/// scheduler pattern of the session sweep in `serve`).
pub async fn every(db: PgPool, period: Duration) {
    let mut tick = tokio::time::interval(period);
    loop {
        tick.tick().await;
        match expire_checks(&db).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(checks = n, "overdue availability checks expired"),
            Err(e) => tracing::warn!(error = %e, "cannot expire availability checks"),
        }
    }
}
