//! Wake-ups between the process running a turn and the streams following
//! it: an event appended to a conversation's log notifies the streams of
//! this process at once; streams served by another process find it by
//! polling the log (see `http::chat_events`), so nothing depends on which
//! server runs the turn.
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::Notify;

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

fn entry(map: &Mutex<HashMap<i64, Arc<Notify>>>, id: i64) -> Arc<Notify> {
    let mut map = map.lock().unwrap_or_else(PoisonError::into_inner);
    // Forget channels nobody holds any more, so the map stays small.
    if map.len() > 1024 {
        map.retain(|_, n| Arc::strong_count(n) > 1);
    }
    map.entry(id).or_default().clone()
}
