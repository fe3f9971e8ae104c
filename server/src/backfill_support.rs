//! What the resumable `maxy embed …` commands share: a stop flag that Ctrl-C
//! raises (the walk stops between batches, a second Ctrl-C quits at once),
//! their progress bar, and their patience with an embedding server that
//! stopped answering.
use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressStyle};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// A receiver that turns `true` on the first Ctrl-C; the second one exits
/// the process (130) without waiting for the current batch.
pub fn stop_on_ctrl_c() -> watch::Receiver<bool> {
    let (stop_tx, stop) = watch::channel(false);
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            eprintln!("stopping after the current batch (Ctrl-C again to quit now)");
            let _ = stop_tx.send(true);
            if tokio::signal::ctrl_c().await.is_ok() {
                std::process::exit(130);
            }
        }
    });
    stop
}

/// A bar over `total` items named `unit` ("venues", "memories"…), or a
/// hidden one when `visible` is false (tests, `--quiet`).
pub fn progress_bar(total: i64, visible: bool, unit: &str) -> anyhow::Result<ProgressBar> {
    if !visible {
        return Ok(ProgressBar::hidden());
    }
    let bar = ProgressBar::new(u64::try_from(total).unwrap_or_default());
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{spinner}} [{{elapsed_precise}}] {{bar:40}} {{pos}}/{{len}} {unit}  {{msg}} (eta {{eta}})"
        ))
        .context("progress bar template")?,
    );
    Ok(bar)
}

/// `--patience`'s default: long enough for a restart or a redeploy of the
/// embedding server, short enough for a dead one to be noticed.
pub const DEFAULT_PATIENCE: Duration = Duration::from_secs(600);

/// The first wait after a batch found the embedding server unavailable.
const FIRST_OUTAGE_WAIT: Duration = Duration::from_secs(1);
/// Waits double up to this: a restarted server is noticed within it.
const LONGEST_OUTAGE_WAIT: Duration = Duration::from_secs(15);

/// How a backfill rides out an embedding server that stopped answering
/// (killed, restarting, overloaded past the client's retries): the batch
/// that failed is tried again after a growing wait, until the server has
/// been unavailable for `patience` in a row. Nothing of the batch was
/// written, so trying it again embeds each row once.
pub struct OutageWait {
    patience: Duration,
    /// When the current outage was first met; `None` while the server answers.
    since: Option<Instant>,
    next: Duration,
}

impl OutageWait {
    pub fn new(patience: Duration) -> Self {
        OutageWait {
            patience,
            since: None,
            next: FIRST_OUTAGE_WAIT,
        }
    }

    /// The server answered: a later outage gets the whole patience again.
    pub fn answered(&mut self) {
        self.since = None;
        self.next = FIRST_OUTAGE_WAIT;
    }

    /// A batch failed with the server unavailable (`reason`): waits before
    /// the batch is tried again and returns true, or returns false at once
    /// when the patience is spent, or as soon as `stop` turns `true`.
    pub async fn before_retry(
        &mut self,
        reason: &dyn std::fmt::Display,
        stop: &watch::Receiver<bool>,
        bar: &ProgressBar,
    ) -> bool {
        let since = *self.since.get_or_insert_with(Instant::now);
        let left = self.patience.saturating_sub(since.elapsed());
        if left.is_zero() || *stop.borrow() {
            return false;
        }
        let wait = self.next.min(left);
        self.next = (self.next * 2).min(LONGEST_OUTAGE_WAIT);
        bar.suspend(|| {
            tracing::warn!(
                wait_s = wait.as_secs_f32(),
                patience_left_s = left.as_secs(),
                "the embedding server is unavailable ({reason}); the batch is tried again after the wait"
            )
        });
        let mut stop = stop.clone();
        let stopped = async move {
            // A dropped sender can never stop the walk: wait out the sleep.
            if stop.wait_for(|stopped| *stopped).await.is_err() {
                std::future::pending::<()>().await;
            }
        };
        tokio::select! {
            () = tokio::time::sleep(wait) => true,
            () = stopped => false,
        }
    }
}
