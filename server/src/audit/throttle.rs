//! Caps the audit rows that outsiders can cause, so a flood of refused
//! requests cannot flood the log (or the disk, or the console's view).
//!
//! Two caps, checked in this order:
//! - **per key** (an address block, a link and block…), per [`Cap`] window:
//!   rows beyond it are not written but counted, and the next row written for
//!   the same action and key says how many were left out (`suppressed`);
//! - **per action, across all keys**, [`GLOBAL_ROWS_PER_MINUTE`] rows per
//!   wall-clock minute: one address can be capped, but 220 addresses failing
//!   once each are 220 keys. Rows beyond it become one summary row per
//!   action and minute, written at the first one and counted up at each next
//!   one (`audit_log::add_to_summary`): a burst that stops is summarised at
//!   once, with no later row needed to carry its count.
//!
//! The windows live in this process's memory. Two processes on one database
//! each cap on their own (so up to twice the rows per minute), but add to
//! the same summary row (a unique index on action and minute). A restart
//! forgets the windows: the new process may write its own cap again in the
//! current minute, then adds to the summary row already there. Both are the
//! accepted best effort: the log stays bounded by a small multiple.
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

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

/// Rows of one outsider-caused action written per minute, all keys together
/// (per process); the rest of the minute is one summary row. Well above what
/// real organizers, venues and typos cause in a minute.
pub const GLOBAL_ROWS_PER_MINUTE: u32 = 20;

/// Forget finished windows when the map grows past this.
const SWEEP_ABOVE: usize = 10_000;

/// What to do with one row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    /// Write it; `suppressed` rows of its key were left out before it.
    Write { suppressed: u64 },
    /// The action's cap for this minute is spent: add `rows` (this one and
    /// those its key had left out) to the minute's summary row.
    Summarise { rows: u64 },
    /// Its key's cap is spent: left out, counted for the key's next row.
    LeaveOut,
}

#[derive(Default)]
pub struct AuditThrottle {
    windows: Mutex<HashMap<(String, String), Window>>,
    /// Per action: the current minute (since the epoch) and rows written in it.
    minutes: Mutex<HashMap<String, (u64, u32)>>,
}

struct Window {
    started: Instant,
    written: u32,
    /// Left out since the last row written.
    suppressed: u64,
}

impl AuditThrottle {
    /// What to do with a row of `action` for `key`, now.
    pub fn admit(&self, action: &str, key: &str, cap: Cap) -> Admission {
        let minute = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() / 60);
        self.admit_at(action, key, cap, Instant::now(), minute)
    }

    fn admit_at(&self, action: &str, key: &str, cap: Cap, now: Instant, minute: u64) -> Admission {
        let Some(suppressed) = self.admit_key(action, key, cap, now) else {
            return Admission::LeaveOut;
        };
        let mut minutes = self.minutes.lock().unwrap_or_else(|e| e.into_inner());
        let (current, written) = minutes.entry(action.to_string()).or_insert((minute, 0));
        if *current != minute {
            *current = minute;
            *written = 0;
        }
        if *written >= GLOBAL_ROWS_PER_MINUTE {
            return Admission::Summarise {
                rows: 1 + suppressed,
            };
        }
        *written += 1;
        Admission::Write { suppressed }
    }

    /// The per-key cap: `Some(n)` when the key may write (`n` left out
    /// before), `None` when this row is left out.
    fn admit_key(&self, action: &str, key: &str, cap: Cap, now: Instant) -> Option<u64> {
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
    use Admission::{LeaveOut, Summarise, Write};

    const MINUTE: Cap = Cap::per(2, Duration::from_secs(60));

    #[test]
    fn rows_are_capped_per_key_and_window_and_the_rest_is_counted() {
        let throttle = AuditThrottle::default();
        let now = Instant::now();
        let admit = |action, key, at| throttle.admit_at(action, key, MINUTE, at, 0);
        assert_eq!(admit("a", "k", now), Write { suppressed: 0 });
        assert_eq!(admit("a", "k", now), Write { suppressed: 0 });
        for _ in 0..500 {
            assert_eq!(admit("a", "k", now), LeaveOut);
        }
        assert_eq!(admit("a", "other", now), Write { suppressed: 0 });
        assert_eq!(admit("b", "k", now), Write { suppressed: 0 });
        let next = now + Duration::from_secs(60);
        assert_eq!(
            throttle.admit_at("a", "k", MINUTE, next, 1),
            Write { suppressed: 500 },
            "the next row tells how many were left out"
        );
        assert_eq!(
            throttle.admit_at("a", "k", MINUTE, next, 1),
            Write { suppressed: 0 }
        );
    }

    #[test]
    fn many_keys_share_one_cap_per_action_and_minute() {
        let throttle = AuditThrottle::default();
        let now = Instant::now();
        let admit = |action, key: &str, minute| throttle.admit_at(action, key, MINUTE, now, minute);
        for n in 0..GLOBAL_ROWS_PER_MINUTE {
            assert_eq!(admit("a", &n.to_string(), 7), Write { suppressed: 0 });
        }
        for n in 0..200 {
            let key = format!("other{n}");
            assert_eq!(admit("a", &key, 7), Summarise { rows: 1 }, "{key}");
        }
        assert_eq!(
            admit("b", "x", 7),
            Write { suppressed: 0 },
            "each action has its own cap"
        );
        assert_eq!(
            admit("a", "fresh", 8),
            Write { suppressed: 0 },
            "the next minute opens a new window"
        );
    }

    #[test]
    fn a_summarised_row_brings_what_its_key_left_out() {
        let throttle = AuditThrottle::default();
        let now = Instant::now();
        for n in 0..GLOBAL_ROWS_PER_MINUTE {
            throttle.admit_at("a", &n.to_string(), MINUTE, now, 0);
        }
        let ten_seconds = Cap::per(1, Duration::from_secs(10));
        let admit = |at| throttle.admit_at("a", "k", ten_seconds, at, 0);
        assert_eq!(admit(now), Summarise { rows: 1 });
        assert_eq!(admit(now), LeaveOut);
        assert_eq!(admit(now), LeaveOut);
        let later = now + Duration::from_secs(10);
        assert_eq!(
            admit(later),
            Summarise { rows: 3 },
            "same minute, next key window"
        );
    }
}
