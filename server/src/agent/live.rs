//! Wake-ups between the process running a turn and the streams following
//! it: an event appended to a conversation's log notifies the streams of
//! this process at once, and those of every other process through
//! PostgreSQL (`LISTEN chat`, migration 0031: [`follow_other_processes`]);
//! the same for the stop button and the running turn. Streams and turns
//! still poll, slowly, for when the listening connection is down, so
//! nothing depends on which server runs the turn.
use crate::db::notifications::Heard;
use sqlx::PgPool;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::{watch, Notify};

/// The channel migration 0031's triggers notify.
const CHANNEL: &str = "chat";

#[derive(Debug)]
pub struct Live {
    conversations: Mutex<HashMap<i64, Arc<Notify>>>,
    stops: Mutex<HashMap<i64, Arc<Notify>>>,
    /// Conversations whose turn runs in this process (how many: a turn
    /// closing and the next opening may overlap for a moment).
    here: Mutex<HashMap<i64, usize>>,
    /// Notified when the last turn running here ends.
    no_turns: Notify,
    /// The server is shutting down: streams of turns running elsewhere end
    /// (their browsers reconnect to another server).
    draining: watch::Sender<bool>,
    /// The grace period is over: the turns still running here stop.
    interrupting: watch::Sender<bool>,
}

impl Default for Live {
    fn default() -> Self {
        Live {
            conversations: Mutex::default(),
            stops: Mutex::default(),
            here: Mutex::default(),
            no_turns: Notify::new(),
            draining: watch::channel(false).0,
            interrupting: watch::channel(false).0,
        }
    }
}

/// Held by a turn while it runs in this process.
pub struct RunsHere {
    live: Arc<Live>,
    conversation_id: i64,
}

impl Drop for RunsHere {
    fn drop(&mut self) {
        let mut here = self
            .live
            .here
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = here.get_mut(&self.conversation_id) {
            *n -= 1;
            if *n == 0 {
                here.remove(&self.conversation_id);
            }
        }
        if here.is_empty() {
            self.live.no_turns.notify_waiters();
        }
    }
}

/// Shutting down, in two steps (`serve`): first the streams of turns
/// running elsewhere end, then, after the grace period, the turns still
/// running here stop and close.
impl Live {
    /// Marks the conversation's turn as running here until the guard drops.
    pub fn runs_here(self: &Arc<Self>, conversation_id: i64) -> RunsHere {
        let mut here = self.here.lock().unwrap_or_else(PoisonError::into_inner);
        *here.entry(conversation_id).or_default() += 1;
        RunsHere {
            live: self.clone(),
            conversation_id,
        }
    }

    /// Whether a turn of the conversation runs in this process.
    pub fn is_here(&self, conversation_id: i64) -> bool {
        self.here
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains_key(&conversation_id)
    }

    /// The server stops taking work: streams not following a turn of
    /// this process end.
    pub fn drain(&self) {
        self.draining.send_replace(true);
    }

    /// Resolves once [`Self::drain`] was called (at once if it was).
    pub async fn drained(&self) {
        let mut rx = self.draining.subscribe();
        let _ = rx.wait_for(|v| *v).await;
    }

    /// The grace period is over: the turns running here stop.
    pub fn interrupt_turns(&self) {
        self.interrupting.send_replace(true);
    }

    /// Resolves once [`Self::interrupt_turns`] was called (at once if it was).
    pub async fn interrupted(&self) {
        let mut rx = self.interrupting.subscribe();
        let _ = rx.wait_for(|v| *v).await;
    }

    /// How many conversations have a turn running here.
    pub fn turns_here(&self) -> usize {
        self.here
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Resolves once no turn runs here (at once if none does).
    pub async fn no_turns_here(&self) {
        loop {
            // Registered before the check, so a turn ending between the
            // two still wakes this.
            let ended = self.no_turns.notified();
            tokio::pin!(ended);
            ended.as_mut().enable();
            if self.turns_here() == 0 {
                return;
            }
            ended.await;
        }
    }
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
    let heard = |heard: Heard<'_>| {
        if let Some(payload) = heard.payload() {
            live.heard(payload);
        }
    };
    crate::db::notifications::listen(db, CHANNEL, heard, shutdown).await;
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
    async fn waiting_for_no_turns_ends_when_the_last_one_does() {
        let live = Arc::new(Live::default());
        live.no_turns_here().await; // none: at once
        let first = live.runs_here(1);
        let second = live.runs_here(2);
        let waiter = tokio::spawn({
            let live = live.clone();
            async move { live.no_turns_here().await }
        });
        drop(first);
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiter.is_finished(), "turn 2 still runs");
        drop(second);
        tokio::time::timeout(Duration::from_secs(1), waiter)
            .await
            .expect("woken when the last turn ended")
            .unwrap();
    }

    #[tokio::test]
    async fn turns_here_are_counted_and_shutting_down_is_heard_by_late_listeners() {
        let live = Arc::new(Live::default());
        let first = live.runs_here(3);
        let second = live.runs_here(3);
        assert!(live.is_here(3) && !live.is_here(4));
        drop(first);
        assert!(live.is_here(3), "one turn of 3 still runs");
        drop(second);
        assert!(!live.is_here(3));
        assert_eq!(live.turns_here(), 0);
        live.drain();
        // Asked after the fact: resolves at once.
        tokio::time::timeout(Duration::from_millis(100), live.drained())
            .await
            .unwrap();
        assert!(
            tokio::time::timeout(Duration::from_millis(50), live.interrupted())
                .await
                .is_err()
        );
        live.interrupt_turns();
        tokio::time::timeout(Duration::from_millis(100), live.interrupted())
            .await
            .unwrap();
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
