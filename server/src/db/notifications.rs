//! `LISTEN` on one channel for the life of the process, with reconnection:
//! how a process hears what another wrote (a job queued, a chat event
//! appended, an organizer's page changed) without polling for it. One
//! connection per channel, held for good.
//!
//! Notifications are not queued for a listener that is away: whatever was
//! notified while the connection was down is lost. So the listener is told
//! when it starts (or starts again) listening and when it stops
//! ([`Heard`]): wake-ups poll anyway and lose only latency, but a cache kept
//! fresh by notifications must forget what it holds at each new start and
//! not trust itself while nobody listens.
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

/// What the listener hears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heard<'a> {
    /// Listening from now on; anything notified before may have been missed.
    Listening,
    /// One notification's payload.
    Notification(&'a str),
    /// Not listening any more (the connection failed; a new one is tried
    /// after a pause).
    Lost,
}

impl<'a> Heard<'a> {
    /// The payload, for listeners that only care about notifications.
    pub fn payload(self) -> Option<&'a str> {
        match self {
            Heard::Notification(payload) => Some(payload),
            Heard::Listening | Heard::Lost => None,
        }
    }
}

/// Calls `heard` with what is heard on `channel` until `shutdown` turns
/// `true` (or its sender is dropped).
pub async fn listen(
    db: PgPool,
    channel: &'static str,
    heard: impl Fn(Heard<'_>),
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        let result = listen_once(&db, channel, &heard, &mut shutdown).await;
        heard(Heard::Lost);
        match result {
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
    heard: &impl Fn(Heard<'_>),
    shutdown: &mut watch::Receiver<bool>,
) -> sqlx::Result<()> {
    let mut listener = PgListener::connect_with(db).await?;
    listener.listen(channel).await?;
    heard(Heard::Listening);
    loop {
        tokio::select! {
            received = listener.try_recv() => match received? {
                Some(notification) => heard(Heard::Notification(notification.payload())),
                // The connection was lost and a new one listens already
                // (sqlx reconnects eagerly; a failure is an `Err`): what
                // was notified in between is gone.
                None => heard(Heard::Listening),
            },
            _ = shutdown.wait_for(|stop| *stop) => return Ok(()),
        }
    }
}
