//! Keyed leaky buckets of failures kept in this process's memory (one
//! instant per key: when its failures will all have drained).
//!
//! Checking never adds anything.
use super::gcra::Gcra;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Forget drained keys when a map grows past this, so it stays small.
const SWEEP_ABOVE: usize = 10_000;

pub struct Buckets<K> {
    gcra: Gcra,
    /// Per key: when its failures will all have drained.
    drained_at: Mutex<HashMap<K, Instant>>,
}

impl<K: Hash + Eq> Buckets<K> {
    pub fn new(capacity: u32, period: Duration) -> Self {
        Buckets {
            gcra: Gcra::new(capacity, period),
            drained_at: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `key` has `capacity` failures that have not drained at `now`.
    pub fn is_full(&self, key: &K, now: Instant) -> bool {
        let map = self.drained_at.lock().unwrap_or_else(|e| e.into_inner());
        map.get(key)
            .is_some_and(|at| self.gcra.is_full(at.saturating_duration_since(now)))
    }

    /// Counts one failure for `key` at `now`.
    pub fn add(&self, key: K, now: Instant) {
        let mut map = self.drained_at.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() > SWEEP_ABOVE {
            map.retain(|_, at| *at > now);
        }
        let at = map.entry(key).or_insert(now);
        *at = now + self.gcra.with_failure(at.saturating_duration_since(now));
    }
}
