//! Link uses counted in memory and written once a second.
//!
//! Counting a use with an `UPDATE` per view made every view of one link queue
//! on its row lock (each view waited for the previous one's commit): one
//! popular link could not be opened more than a few hundred times a second.
//! Views now only read the link ([`crate::db::magic_links::live`]) and bump a
//! counter here; a background loop adds the counts with one statement per
//! flush, and the server flushes once more when it stops. What this trades:
//! a crash loses up to a second of use counts (never a link, a revocation or
//! an expiry: those are read from the database on every view).
use crate::db::magic_links::{self as rows, PendingUses};
use chrono::{DateTime, Utc};
use sqlx::PgPool;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// How often the counts are written.
pub const FLUSH_EVERY: Duration = Duration::from_secs(1);

/// The uses of each link since the last flush.
pub struct LinkUses {
    db: PgPool,
    pending: Mutex<HashMap<i64, Pending>>,
}

#[derive(Clone, Copy)]
struct Pending {
    uses: u32,
    last: DateTime<Utc>,
}

impl LinkUses {
    /// A counter on `db` whose flush loop runs every `every` on the current
    /// tokio runtime (none outside one: then only [`Self::flush`] writes). The
    /// loop holds a weak reference and ends when the counter is dropped.
    pub fn started(db: PgPool, every: Duration) -> Arc<Self> {
        let uses = Arc::new(LinkUses {
            db,
            pending: Mutex::default(),
        });
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(flush_loop(Arc::downgrade(&uses), every));
        }
        uses
    }

    /// One more use of `link_id`, now.
    pub fn record(&self, link_id: i64) {
        let now = Utc::now();
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        let entry = pending
            .entry(link_id)
            .or_insert(Pending { uses: 0, last: now });
        entry.uses = entry.uses.saturating_add(1);
        entry.last = entry.last.max(now);
    }

    /// How many uses wait for the next flush (all links).
    pub fn unflushed(&self) -> u64 {
        let pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        pending.values().map(|p| u64::from(p.uses)).sum()
    }

    /// Writes every counted use; on failure the counts are kept for the next
    /// flush (merged with the uses counted meanwhile). Returns the links
    /// updated.
    pub async fn flush(&self) -> sqlx::Result<u64> {
        let taken = {
            let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            std::mem::take(&mut *pending)
        };
        if taken.is_empty() {
            return Ok(0);
        }
        let mut sorted: Vec<(i64, Pending)> = taken.into_iter().collect();
        sorted.sort_unstable_by_key(|(id, _)| *id);
        let ids: Vec<i64> = sorted.iter().map(|(id, _)| *id).collect();
        let uses: Vec<i32> = sorted
            .iter()
            .map(|(_, p)| i32::try_from(p.uses).unwrap_or(i32::MAX))
            .collect();
        let last: Vec<DateTime<Utc>> = sorted.iter().map(|(_, p)| p.last).collect();
        let written = rows::add_uses(
            &self.db,
            &PendingUses {
                ids: &ids,
                uses: &uses,
                last: &last,
            },
        )
        .await;
        if written.is_err() {
            let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            for (id, p) in sorted {
                let entry = pending.entry(id).or_insert(Pending { uses: 0, ..p });
                entry.uses = entry.uses.saturating_add(p.uses);
                entry.last = entry.last.max(p.last);
            }
        }
        written
    }
}

async fn flush_loop(uses: Weak<LinkUses>, every: Duration) {
    // The first tick one period from now (`interval` would fire at once).
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let Some(uses) = uses.upgrade() else { return };
        if let Err(e) = uses.flush().await {
            tracing::warn!(error = %e, "cannot write the magic links' use counts (kept for the next try)");
        }
    }
}
