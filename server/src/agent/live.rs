//! Wake-ups between the process running a turn and the streams following
//! it: an event appended to a conversation's log notifies the streams of
//! this process at once, and those of every other process through
//! PostgreSQL (`LISTEN chat`, migration 0031: [`follow_other_processes`]);
//! the same for the stop button and the running turn. Streams and turns
//! still poll, slowly, for when the listening connection is down, so
//! nothing depends on which server runs the turn.
use sqlx::PgPool;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::{watch, Notify};

/// The channel migration 0031's triggers notify.
const CHANNEL: &str = "chat";

#[derive(Debug, Default)]
pub struct Live {
    conversations: Mutex<HashMap<i64, Arc<Notify>>>,
    stops: Mutex<HashMap<i64, Arc<Notify>>>,
}

impl Live {
    /// The conversation's wake-up, created on first use.
    pub fn channel(&self, conversation_id: i64) -> Arc<Notify> {
        entry(&self.conversations, conversation_id)
    }

    /// New events in the conversation.
    pub fn notify(&self, conversation_id: i64) {
        self.channel(conversation_id).notify_waiters();
    }

    /// What the running turn of the conversation waits on to stop.
    pub fn stop_signal(&self, conversation_id: i64) -> Arc<Notify> {
        entry(&self.stops, conversation_id)
    }

    /// The stop button was pressed (the flag is already in the database).
    pub fn stop(&self, conversation_id: i64) {
        self.stop_signal(conversation_id).notify_waiters();
    }
}

impl Live {
    /// A notification from the `chat` channel: `events:<id>` or `stop:<id>`.
    /// Anything else is ignored (a payload this version does not know).
    fn heard(&self, payload: &str) {
        let Some((kind, id)) = payload.split_once(':') else {
            return;
        };
        let Ok(conversation_id) = id.parse::<i64>() else {
            return;
        };
        match kind {
            "events" => self.notify(conversation_id),
            "stop" => self.stop(conversation_id),
            _ => {}
        }
    }
}

/// Wakes this process's streams and turns on what other processes write,
/// until `shutdown` turns `true`.
pub async fn follow_other_processes(live: Arc<Live>, db: PgPool, shutdown: watch::Receiver<bool>) {
    crate::db::notifications::listen(db, CHANNEL, |payload| live.heard(payload), shutdown).await;
}

fn entry(map: &Mutex<HashMap<i64, Arc<Notify>>>, id: i64) -> Arc<Notify> {
    let mut map = map.lock().unwrap_or_else(PoisonError::into_inner);
    // Forget channels nobody holds any more, so the map stays small.
    if map.len() > 1024 {
        map.retain(|_, n| Arc::strong_count(n) > 1);
    }
    map.entry(id).or_default().clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    async fn woken(notify: Arc<Notify>, by: impl FnOnce()) -> bool {
        let notified = notify.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        by();
        tokio::time::timeout(Duration::from_millis(100), notified)
            .await
            .is_ok()
    }

    #[tokio::test]
    async fn payloads_wake_the_conversation_they_name_and_nothing_else() {
        let live = Live::default();
        assert!(woken(live.channel(7), || live.heard("events:7")).await);
        assert!(woken(live.stop_signal(7), || live.heard("stop:7")).await);
        assert!(!woken(live.channel(7), || live.heard("events:8")).await);
        assert!(!woken(live.channel(7), || live.heard("stop:7")).await);
        for junk in [
            "",
            "events",
            "events:",
            "events:x",
            ":7",
            "other:7",
            "events:7:1",
        ] {
            assert!(!woken(live.channel(7), || live.heard(junk)).await, "{junk}");
        }
    }
}
