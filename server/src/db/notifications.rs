//! `LISTEN` on one channel for the life of the process, with reconnection:
//! how a process hears what another wrote (a job queued, a chat event
//! appended) without polling for it. One connection per channel, held for
//! good; its users poll anyway, so while it reconnects nothing is lost but
//! latency.
//!
//! The pool given must reach PostgreSQL itself (`db::direct_pool`): through
//! a transaction pooler the `LISTEN` stays on a server connection other
//! clients get next, and nothing is heard (ADR 0040).
use sqlx::postgres::PgListener;
use sqlx::PgPool;
use std::time::Duration;
use tokio::sync::watch;

/// Wait before reconnecting after the listening connection failed.
const RECONNECT_AFTER: Duration = Duration::from_secs(5);

/// Calls `heard` with the payload of every notification on `channel` until
/// `shutdown` turns `true` (or its sender is dropped).
pub async fn listen(
    db: PgPool,
    channel: &'static str,
    heard: impl Fn(&str),
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        match listen_once(&db, channel, &heard, &mut shutdown).await {
            Ok(()) => return,
            Err(e) => tracing::warn!(error = %e, channel, "LISTEN failed; falling back to polling"),
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
    channel: &str,
    heard: &impl Fn(&str),
    shutdown: &mut watch::Receiver<bool>,
) -> sqlx::Result<()> {
    let mut listener = PgListener::connect_with(db).await?;
    listener.listen(channel).await?;
    loop {
        tokio::select! {
            notification = listener.recv() => heard(notification?.payload()),
            _ = shutdown.wait_for(|stop| *stop) => return Ok(()),
        }
    }
}
