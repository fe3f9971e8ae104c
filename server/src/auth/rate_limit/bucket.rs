//! Keyed leaky buckets of failures (GCRA: one instant per key).
//!
//! A key's failures drain at `capacity` per `period`; the key is full when
//! `capacity` of them have not drained yet. Checking never adds anything.
use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Forget drained keys when a map grows past this, so it stays small.
const SWEEP_ABOVE: usize = 10_000;

pub struct Buckets<K> {
    /// Time one failure takes to drain.
    interval: Duration,
    /// How far ahead of now the drain may be before the key is full.
    tolerance: Duration,
    /// Per key: when its failures will all have drained.
    drained_at: Mutex<HashMap<K, Instant>>,
}

impl<K: Hash + Eq> Buckets<K> {
    pub fn new(capacity: u32, period: Duration) -> Self {
        let capacity = capacity.max(1);
        let interval = period / capacity;
        Buckets {
            interval,
            tolerance: interval * (capacity - 1),
            drained_at: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `key` has `capacity` failures that have not drained at `now`.
    pub fn is_full<Q>(&self, key: &Q, now: Instant) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let map = self.drained_at.lock().unwrap_or_else(|e| e.into_inner());
        map.get(key)
            .is_some_and(|at| at.saturating_duration_since(now) > self.tolerance)
    }

    /// Counts one failure for `key` at `now`.
    pub fn add(&self, key: K, now: Instant) {
        let mut map = self.drained_at.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() > SWEEP_ABOVE {
            map.retain(|_, at| *at > now);
        }
        let at = map.entry(key).or_insert(now);
        // A full bucket overflows: failures beyond its capacity are not kept,
        // so a key is never refused for longer than one period.
        *at = ((*at).max(now) + self.interval).min(now + self.tolerance + self.interval);
    }

    /// Takes back one failure of `key` (an attempt counted in advance that
    /// turned out to succeed).
    pub fn remove<Q>(&self, key: &Q, now: Instant)
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let mut map = self.drained_at.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = map.get_mut(key) {
            match at.checked_sub(self.interval).filter(|t| *t > now) {
                Some(earlier) => *at = earlier,
                None => {
                    map.remove(key);
                }
            }
        }
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.drained_at.lock().map(|m| m.len()).unwrap_or_default()
    }
}
