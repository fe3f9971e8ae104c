//! Waits for SIGTERM or Ctrl-C so the server can finish in-flight
//! requests, and stops the chat turns running here cleanly ([`Drain`]).
use crate::agent::live::Live;
use std::future::Future;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

pub async fn signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut stream) => {
                stream.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutdown signal received: finishing in-flight requests");
}

/// How long after the turns were interrupted the server still waits for
/// connections and turns to close before it stops anyway.
const AFTER_INTERRUPT: Duration = Duration::from_secs(10);

/// The server's stop around the chat turns running in it:
///
/// 1. at the signal, it stops accepting connections and the streams of
///    turns run by other servers end (their browsers reconnect elsewhere);
/// 2. turns running here get the grace period to finish, their streams
///    followed to the end;
/// 3. then the ones left are interrupted: each closes as failed with a
///    notice the user reads (« le serveur redémarre »), no turn stays
///    « en cours » and no answer is half-written;
/// 4. [`AFTER_INTERRUPT`] later, whatever is still open is dropped.
pub struct Drain {
    live: Arc<Live>,
    grace: Duration,
    began: Arc<OnceLock<Instant>>,
    forced: Arc<Notify>,
}

impl Drain {
    pub fn new(live: Arc<Live>, grace: Duration) -> Self {
        Drain {
            live,
            grace,
            began: Arc::default(),
            forced: Arc::default(),
        }
    }

    /// For `with_graceful_shutdown`: resolves at the signal, after steps 1
    /// to 4 have been set going.
    pub fn on_signal(&self) -> impl Future<Output = ()> + Send + 'static {
        let (live, grace) = (self.live.clone(), self.grace);
        let (began, forced) = (self.began.clone(), self.forced.clone());
        async move {
            signal().await;
            let _ = began.set(Instant::now());
            tracing::info!(
                turns = live.turns_here(),
                grace_s = grace.as_secs_f64(),
                "streams of other servers' turns end; turns running here have the grace period"
            );
            live.drain();
            tokio::spawn(async move {
                tokio::time::sleep(grace).await;
                live.interrupt_turns();
                tokio::time::sleep(AFTER_INTERRUPT).await;
                // A stored permit: `forced` resolves even if awaited later.
                forced.notify_one();
            });
        }
    }

    /// Resolves when connections stayed open [`AFTER_INTERRUPT`] past the
    /// interruption.
    pub async fn forced(&self) {
        self.forced.notified().await;
    }

    /// Once the HTTP server stopped: turns still running here (nobody
    /// watching them) finish within the grace period or are interrupted.
    pub async fn finish_turns(&self) {
        let began = self.began.get().copied().unwrap_or_else(Instant::now);
        let deadline = tokio::time::Instant::from_std(began + self.grace);
        let finished = tokio::time::timeout_at(deadline, self.live.no_turns_here()).await;
        if finished.is_ok() {
            return;
        }
        self.live.interrupt_turns();
        let closed = tokio::time::timeout(AFTER_INTERRUPT, self.live.no_turns_here()).await;
        if closed.is_err() {
            tracing::warn!(
                turns = self.live.turns_here(),
                "turns still running at exit: another server will close them"
            );
        }
    }
}
