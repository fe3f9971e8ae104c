//! The arithmetic of a leaky bucket of failures (GCRA), on one number per
//! key: its *backlog*, how long until every failure counted has drained.
//!
//! Failures drain at `capacity` per `period`; the bucket is full when
//! `capacity` of them have not drained yet. Kept apart from where backlogs
//! are stored (in memory for links, in PostgreSQL for sign-in) so both
//! count the same way.
use std::time::Duration;

#[derive(Clone, Copy, Debug)]
pub struct Gcra {
    /// Time one failure takes to drain.
    interval: Duration,
    /// How far the backlog may reach before the bucket is full.
    tolerance: Duration,
}

impl Gcra {
    pub fn new(capacity: u32, period: Duration) -> Self {
        let capacity = capacity.max(1);
        let interval = period / capacity;
        Gcra {
            interval,
            tolerance: interval * (capacity - 1),
        }
    }

    /// Whether a bucket with this backlog holds `capacity` failures.
    pub fn is_full(&self, backlog: Duration) -> bool {
        backlog > self.tolerance
    }

    /// The backlog once one more failure is counted. A full bucket
    /// overflows: failures beyond its capacity are not kept, so a key is
    /// never refused for longer than one period.
    pub fn with_failure(&self, backlog: Duration) -> Duration {
        (backlog + self.interval).min(self.tolerance + self.interval)
    }

    /// The backlog once one failure is taken back (an attempt counted in
    /// advance that turned out to succeed). Zero: nothing left to count.
    pub fn without_failure(&self, backlog: Duration) -> Duration {
        backlog.saturating_sub(self.interval)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: Duration = Duration::from_secs(60);

    #[test]
    fn the_bucket_fills_at_its_capacity_and_drains_one_failure_per_interval() {
        let gcra = Gcra::new(10, MINUTE);
        let mut backlog = Duration::ZERO;
        for n in 0..10 {
            assert!(!gcra.is_full(backlog), "after {n} failures");
            backlog = gcra.with_failure(backlog);
        }
        assert!(gcra.is_full(backlog));
        assert_eq!(backlog, MINUTE);
        // Six seconds later one failure has drained.
        assert!(!gcra.is_full(backlog - Duration::from_secs(6)));
    }

    #[test]
    fn a_full_bucket_overflows_instead_of_growing() {
        let gcra = Gcra::new(5, MINUTE);
        let mut backlog = Duration::ZERO;
        for _ in 0..1000 {
            backlog = gcra.with_failure(backlog);
        }
        assert_eq!(backlog, MINUTE, "refused for one period at most");
    }

    #[test]
    fn taking_back_undoes_a_failure_and_stops_at_zero() {
        let gcra = Gcra::new(10, MINUTE);
        let two = gcra.with_failure(gcra.with_failure(Duration::ZERO));
        assert_eq!(gcra.without_failure(two), gcra.with_failure(Duration::ZERO));
        assert_eq!(gcra.without_failure(Duration::from_secs(1)), Duration::ZERO);
        assert_eq!(gcra.without_failure(Duration::ZERO), Duration::ZERO);
    }

    #[test]
    fn a_bucket_of_one_is_full_after_one_failure_for_its_whole_period() {
        let gcra = Gcra::new(1, Duration::from_secs(900));
        let backlog = gcra.with_failure(Duration::ZERO);
        assert!(gcra.is_full(backlog));
        assert!(gcra.is_full(backlog - Duration::from_secs(899)));
        assert!(!gcra.is_full(Duration::ZERO));
    }
}
