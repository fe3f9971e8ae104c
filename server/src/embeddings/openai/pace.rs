//! How fast a lane's server embeds texts right now, and so how many texts
//! one request may carry. A busy server (a backfill beside the job workers
//! and the searches, on two cores) embeds a few texts per second; a batch of
//! 48 then outlasts the timeout and, retried whole, fails the same way every
//! time. Batches are therefore sized to take about half the timeout at the
//! measured speed, and a batch that times out is sent again smaller: a slow
//! server slows a backfill down, it does not fail it.
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Share of the timeout a batch is planned to take: a server twice as slow
/// as last measured still answers in time.
const HEADROOM: f64 = 0.5;

/// The measured time per text (a moving average of the last answers).
#[derive(Debug, Default)]
pub(super) struct Pace {
    /// Microseconds per text; 0 until a first answer is measured.
    micros_per_text: AtomicU64,
}

impl Pace {
    /// Texts per request that should answer within `timeout`, at most `max`
    /// and at least one. Unmeasured: `max`.
    pub fn batch_that_fits(&self, max: usize, timeout: Duration) -> usize {
        let per_text = self.micros_per_text.load(Ordering::Relaxed);
        if per_text == 0 {
            return max.max(1);
        }
        let fits = timeout.as_micros() as f64 * HEADROOM / per_text as f64;
        (fits as usize).clamp(1, max.max(1))
    }

    /// `texts` were embedded in `took`.
    pub fn answered(&self, texts: usize, took: Duration) {
        if texts == 0 {
            return;
        }
        let measured = (took.as_micros() / texts as u128).max(1) as u64;
        // Half the weight on the newest answer: the speed follows the
        // server's load within a few batches without jumping on one outlier.
        let _ = self
            .micros_per_text
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
                Some(if old == 0 {
                    measured
                } else {
                    (old + measured) / 2
                })
            });
    }

    /// `texts` did not answer within `timeout`: each took more than
    /// `timeout / texts`. Counted twice as slow as that bound, so the next
    /// batch is a quarter of this one and a server that hangs is given up
    /// on after a few timeouts, not one per halving.
    pub fn timed_out(&self, texts: usize, timeout: Duration) {
        let at_least = (timeout.as_micros() * 2 / texts.max(1) as u128).max(1) as u64;
        self.micros_per_text.fetch_max(at_least, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIMEOUT: Duration = Duration::from_secs(10);

    #[test]
    fn an_unmeasured_lane_sends_the_configured_batch() {
        assert_eq!(Pace::default().batch_that_fits(48, TIMEOUT), 48);
        assert_eq!(Pace::default().batch_that_fits(0, TIMEOUT), 1);
    }

    #[test]
    fn a_fast_server_gets_the_configured_batch_a_slow_one_less() {
        let pace = Pace::default();
        pace.answered(48, Duration::from_millis(960)); // 20 ms per text
        assert_eq!(pace.batch_that_fits(48, TIMEOUT), 48);

        // The measure: 3.6 texts per second while searches run.
        let slow = Pace::default();
        slow.answered(10, Duration::from_millis(2_780));
        let batch = slow.batch_that_fits(48, TIMEOUT);
        assert_eq!(batch, 17);
        assert!(batch as f64 * 0.278 < TIMEOUT.as_secs_f64() * HEADROOM);
    }

    #[test]
    fn a_timeout_quarters_the_next_batch_down_to_one() {
        let pace = Pace::default();
        pace.timed_out(48, TIMEOUT);
        assert_eq!(pace.batch_that_fits(48, TIMEOUT), 12);
        pace.timed_out(12, TIMEOUT);
        assert_eq!(pace.batch_that_fits(48, TIMEOUT), 3);
        pace.timed_out(3, TIMEOUT);
        assert_eq!(pace.batch_that_fits(48, TIMEOUT), 1);
    }

    #[test]
    fn the_speed_recovers_when_the_server_does() {
        let pace = Pace::default();
        pace.timed_out(48, TIMEOUT);
        for _ in 0..12 {
            pace.answered(10, Duration::from_millis(200));
        }
        assert_eq!(pace.batch_that_fits(48, TIMEOUT), 48);
    }

    #[test]
    fn an_older_faster_measure_does_not_hide_a_timeout() {
        let pace = Pace::default();
        pace.answered(48, Duration::from_millis(480));
        pace.timed_out(48, TIMEOUT);
        assert_eq!(pace.batch_that_fits(48, TIMEOUT), 12);
    }
}
