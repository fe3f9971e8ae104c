//! Caps the audit rows one key may write per window, so a flood of refused
//! requests cannot flood the log (or the disk) with it.
//!
//! Rows beyond the cap are not written but counted: the next row written for
//! the same action and key says how many were left out (`suppressed`), so the
//! log still tells that an attack went on, and for how long.
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How many rows of one action one key may write per window.
#[derive(Clone, Copy, Debug)]
pub struct Cap {
    pub rows: u32,
    pub window: Duration,
}

impl Cap {
    pub const fn per(rows: u32, window: Duration) -> Self {
        Cap { rows, window }
    }
}

/// Forget finished windows when the map grows past this.
const SWEEP_ABOVE: usize = 10_000;

#[derive(Default)]
pub struct AuditThrottle {
    windows: Mutex<HashMap<(String, String), Window>>,
}

struct Window {
    started: Instant,
    written: u32,
    /// Left out since the last row written.
    suppressed: u64,
}

impl AuditThrottle {
    /// `Some(n)` when a row of `action` for `key` may be written now (`n` rows
    /// were left out before it), `None` when it must be left out.
    pub fn admit(&self, action: &str, key: &str, cap: Cap) -> Option<u64> {
        self.admit_at(action, key, cap, Instant::now())
    }

    fn admit_at(&self, action: &str, key: &str, cap: Cap, now: Instant) -> Option<u64> {
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if windows.len() > SWEEP_ABOVE {
            // A window with nothing left to report can be forgotten once over.
            windows.retain(|_, w| w.suppressed > 0 || now.duration_since(w.started) < cap.window);
        }
        let w = windows
            .entry((action.to_string(), key.to_string()))
            .or_insert(Window {
                started: now,
                written: 0,
                suppressed: 0,
            });
        if now.duration_since(w.started) >= cap.window {
            w.started = now;
            w.written = 0;
        }
        if w.written >= cap.rows {
            w.suppressed += 1;
            return None;
        }
        w.written += 1;
        Some(std::mem::take(&mut w.suppressed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_capped_per_key_and_window_and_the_rest_is_counted() {
        let throttle = AuditThrottle::default();
        let cap = Cap::per(2, Duration::from_secs(60));
        let now = Instant::now();
        assert_eq!(throttle.admit_at("a", "k", cap, now), Some(0));
        assert_eq!(throttle.admit_at("a", "k", cap, now), Some(0));
        for _ in 0..500 {
            assert_eq!(throttle.admit_at("a", "k", cap, now), None);
        }
        assert_eq!(throttle.admit_at("a", "other", cap, now), Some(0));
        assert_eq!(throttle.admit_at("b", "k", cap, now), Some(0));
        let next = now + Duration::from_secs(60);
        assert_eq!(
            throttle.admit_at("a", "k", cap, next),
            Some(500),
            "the next row tells how many were left out"
        );
        assert_eq!(throttle.admit_at("a", "k", cap, next), Some(0));
    }
}
