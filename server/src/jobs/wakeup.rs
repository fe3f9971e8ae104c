//! `LISTEN jobs`: wakes this process's idle workers as soon as a transaction
//! that queued a job commits (the `jobs_notify` trigger of migration 0010).
//!
//! One listening connection per process, fanned out through a [`Notify`],
//! rather than one per worker: it holds a pool connection for good. Workers
//! poll anyway, so while this task reconnects nothing is lost but latency.
use sqlx::postgres::PgListener;
use sqlx::PgPool;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{watch, Notify};

/// The channel the trigger notifies.
const CHANNEL: &str = "jobs";
/// Wait before reconnecting after the listening connection failed.
const RECONNECT_AFTER: Duration = Duration::from_secs(5);

pub(super) async fn listen(db: PgPool, wake: Arc<Notify>, mut shutdown: watch::Receiver<bool>) {
    loop {
        match listen_once(&db, &wake, &mut shutdown).await {
            Ok(()) => return,
            Err(e) => tracing::warn!(error = %e, "LISTEN jobs failed; workers keep polling"),
        }
        tokio::select! {
            () = tokio::time::sleep(RECONNECT_AFTER) => {}
            _ = shutdown.wait_for(|stop| *stop) => return,
        }
    }
}

/// Listens until shutdown (`Ok`) or a connection error.
async fn listen_once(
    db: &PgPool,
    wake: &Notify,
    shutdown: &mut watch::Receiver<bool>,
) -> sqlx::Result<()> {
    let mut listener = PgListener::connect_with(db).await?;
    listener.listen(CHANNEL).await?;
    loop {
        tokio::select! {
            notification = listener.recv() => {
                notification?;
                wake.notify_waiters();
            }
            _ = shutdown.wait_for(|stop| *stop) => return Ok(()),
        }
    }
}
