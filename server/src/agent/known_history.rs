//! The messages each conversation's last send read, kept in memory so the
//! next send reads only what came after them (`ai_send::send_user_message`'s
//! `known`). A stored message never changes and only gains successors, so
//! what is kept stays true; another server's messages have later seqs and
//! are read. Bounded: the least recently sent conversations are dropped
//! (their next send reads the whole window, as without this).
use crate::db::ai_messages::StoredMessage;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// Conversations kept at most: the team's conversations of the day.
const CAPACITY: usize = 256;

#[derive(Default)]
pub struct KnownHistory {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    /// Per conversation: its window as last read, and when it was kept.
    windows: HashMap<i64, (Arc<[StoredMessage]>, u64)>,
    clock: u64,
}

impl KnownHistory {
    /// The window the last send of `conversation_id` read (empty if none).
    pub fn get(&self, conversation_id: i64) -> Arc<[StoredMessage]> {
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner
            .windows
            .get(&conversation_id)
            .map_or_else(|| Arc::from([]), |(w, _)| w.clone())
    }

    /// Keeps `window`, as a send read it, its own message included.
    pub fn keep(&self, conversation_id: i64, window: &[StoredMessage]) {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.clock += 1;
        let stamp = inner.clock;
        inner
            .windows
            .insert(conversation_id, (Arc::from(window), stamp));
        if inner.windows.len() > CAPACITY {
            let oldest = inner
                .windows
                .iter()
                .min_by_key(|(_, (_, stamp))| *stamp)
                .map(|(id, _)| *id);
            if let Some(id) = oldest {
                inner.windows.remove(&id);
            }
        }
    }

    /// Conversations kept (the tests' view of the bound).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .windows
            .len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::Block;
    use sqlx::types::Json;

    fn message(seq: i32) -> StoredMessage {
        StoredMessage {
            id: i64::from(seq) + 100,
            seq,
            role: "user".into(),
            content: Json(vec![Block::Text {
                text: format!("m{seq}"),
            }]),
        }
    }

    #[test]
    fn keeps_the_last_window_of_each_conversation() {
        let known = KnownHistory::default();
        assert!(known.get(1).is_empty());
        known.keep(1, &[message(0), message(1)]);
        known.keep(1, &[message(1), message(2)]);
        known.keep(2, &[message(0)]);
        assert_eq!(&*known.get(1), &[message(1), message(2)]);
        assert_eq!(&*known.get(2), &[message(0)]);
    }

    #[test]
    fn the_least_recently_kept_conversation_goes_first() {
        let known = KnownHistory::default();
        for id in 0..CAPACITY as i64 {
            known.keep(id, &[message(0)]);
        }
        // Conversation 0 sends again: 1 is now the oldest.
        known.keep(0, &[message(1)]);
        known.keep(10_000, &[message(0)]);
        assert_eq!(known.len(), CAPACITY);
        assert!(known.get(1).is_empty());
        assert_eq!(&*known.get(0), &[message(1)]);
        assert_eq!(&*known.get(10_000), &[message(0)]);
    }
}
