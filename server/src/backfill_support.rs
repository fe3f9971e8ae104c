//! What the resumable `maxy embed …` commands share: a stop flag that Ctrl-C
//! raises (the walk stops between batches, a second Ctrl-C quits at once)
//! and their progress bar.
use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressStyle};
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
