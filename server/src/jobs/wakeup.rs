//! `LISTEN jobs`: wakes this process's idle workers as soon as a transaction
//! that queued a job commits (the `jobs_notify` trigger of migration 0010).
//!
//! One listening connection per process, fanned out through a [`Notify`],
//! rather than one per worker: it holds a pool connection for good. Workers
//! poll anyway, so while it reconnects nothing is lost but latency.
use sqlx::PgPool;
use std::sync::Arc;
use tokio::sync::{watch, Notify};

/// The channel the trigger notifies.
const CHANNEL: &str = "jobs";

pub(super) async fn listen(db: PgPool, wake: Arc<Notify>, shutdown: watch::Receiver<bool>) {
    // A new start wakes them too: a job queued while nobody listened is
    // found at once rather than at the next poll.
    crate::db::notifications::listen(db, CHANNEL, |_| wake.notify_waiters(), shutdown).await;
}
