//! Whether what this process rendered of the organizers' pages may still be
//! shown without reading the database: it listens on `organizer_pages`
//! (migration 0032's triggers notify it on any write to a table the page
//! reads) and counts what it hears. A page read under one count is current
//! while the count has not moved; nothing is current while nobody listens,
//! since a notification sent then is lost (ADR 0043).
use crate::db::notifications::{self, Heard};
use sqlx::PgPool;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::watch;

/// The channel migration 0032's triggers notify.
const CHANNEL: &str = "organizer_pages";

#[derive(Debug, Default)]
pub struct PageChanges {
    /// Moves at every change heard, and when listening starts or stops.
    generation: AtomicU64,
    listening: AtomicBool,
}

impl PageChanges {
    pub fn heard(&self, heard: Heard<'_>) {
        match heard {
            Heard::Listening => {
                // What was notified before is unknown: everything read
                // until now is stale.
                self.generation.fetch_add(1, Ordering::SeqCst);
                self.listening.store(true, Ordering::SeqCst);
            }
            Heard::Notification(_) => {
                self.generation.fetch_add(1, Ordering::SeqCst);
            }
            Heard::Lost => {
                self.listening.store(false, Ordering::SeqCst);
                self.generation.fetch_add(1, Ordering::SeqCst);
            }
        }
    }

    /// The count a page read from now on belongs to; `None` while nobody
    /// listens (such a read is never shown again without a new one).
    pub fn current(&self) -> Option<u64> {
        self.listening
            .load(Ordering::SeqCst)
            .then(|| self.generation.load(Ordering::SeqCst))
    }

    /// A page read under `generation` shows what the database holds, as far
    /// as this process has heard.
    pub fn unchanged_since(&self, generation: Option<u64>) -> bool {
        generation.is_some() && self.current() == generation
    }
}

/// Listens for changes until `shutdown` turns `true`.
pub async fn follow(changes: Arc<PageChanges>, db: PgPool, shutdown: watch::Receiver<bool>) {
    notifications::listen(db, CHANNEL, |heard| changes.heard(heard), shutdown).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_current_before_listening_or_after_the_connection_is_lost() {
        let changes = PageChanges::default();
        let before = changes.current();
        assert_eq!(before, None);
        assert!(!changes.unchanged_since(before));

        changes.heard(Heard::Listening);
        let read = changes.current();
        assert!(read.is_some());
        assert!(changes.unchanged_since(read));

        changes.heard(Heard::Lost);
        assert_eq!(changes.current(), None);
        assert!(!changes.unchanged_since(read));

        // Listening again does not bring back what was read before the loss.
        changes.heard(Heard::Listening);
        assert!(!changes.unchanged_since(read));
        assert!(changes.unchanged_since(changes.current()));
    }

    #[test]
    fn a_change_heard_makes_every_earlier_read_stale() {
        let changes = PageChanges::default();
        changes.heard(Heard::Listening);
        let read = changes.current();
        changes.heard(Heard::Notification(""));
        assert!(!changes.unchanged_since(read));
        let again = changes.current();
        assert_ne!(again, read);
        assert!(changes.unchanged_since(again));
    }
}
