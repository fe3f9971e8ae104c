//! Where a turn's events go: appended to the conversation's log, and the
//! streams following it woken. Text deltas are coalesced (flushed every
//! [`FLUSH_EVERY`] or before any other event), so a fast model costs a few
//! rows a second, not one per token.
//!
//! Writes can also go on behind the turn ([`EventSink::push_with_message_behind`]):
//! they run in order, and the next write of the sink waits for them first,
//! so the log keeps its order.
use super::live::Live;
use crate::db::ai_events;
use crate::db::llm_calls::{self, CallContext};
use crate::llm::{Block, CallRecord};
use app::chat::ChatEvent;
use sqlx::PgPool;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub const FLUSH_EVERY: Duration = Duration::from_millis(80);

pub struct EventSink {
    db: PgPool,
    live: Arc<Live>,
    conversation_id: i64,
    turn_id: i64,
    text: String,
    text_since: Option<Instant>,
    /// A write going on behind the turn, to finish before the next one.
    behind: Option<tokio::task::JoinHandle<sqlx::Result<()>>>,
}

impl EventSink {
    pub fn new(db: PgPool, live: Arc<Live>, conversation_id: i64, turn_id: i64) -> Self {
        EventSink {
            db,
            live,
            conversation_id,
            turn_id,
            text: String::new(),
            text_since: None,
            behind: None,
        }
    }

    /// More answer text: written once enough time has passed.
    pub async fn text(&mut self, delta: &str) -> sqlx::Result<()> {
        self.text.push_str(delta);
        let since = *self.text_since.get_or_insert_with(Instant::now);
        if since.elapsed() >= FLUSH_EVERY {
            self.flush().await?;
        }
        Ok(())
    }

    /// Any other event: the pending text first, then it.
    pub async fn push(&mut self, event: ChatEvent) -> sqlx::Result<()> {
        let events = self.next_write(vec![event]).await?;
        self.write(&events).await
    }

    /// Several events in one write (the pending text first); nothing
    /// written when there is nothing to write.
    pub async fn push_all(&mut self, events: Vec<ChatEvent>) -> sqlx::Result<()> {
        let all = self.next_write(events).await?;
        if all.is_empty() {
            return Ok(());
        }
        self.write(&all).await
    }

    /// Events (the pending text first) and a message of the round, in one
    /// write: see [`ai_events::append_with_message`].
    pub async fn push_with_message(
        &mut self,
        events: Vec<ChatEvent>,
        message: ai_events::RoundMessage<'_>,
    ) -> sqlx::Result<ai_events::RoundStored> {
        let all = self.next_write(events).await?;
        let stored = ai_events::append_with_message(
            &self.db,
            self.conversation_id,
            self.turn_id,
            &all,
            message,
        )
        .await?;
        if !all.is_empty() {
            self.live.notify(self.conversation_id);
        }
        Ok(stored)
    }

    pub async fn flush(&mut self) -> sqlx::Result<()> {
        if self.text.is_empty() {
            return Ok(());
        }
        let events = self.next_write(Vec::new()).await?;
        self.write(&events).await
    }

    /// [`Self::push_with_message`] without waiting for it: a round's
    /// messages are written while the turn goes on (it keeps them in
    /// memory). Writes behind the turn run one after the other, in the order
    /// they were pushed, and the next write of this sink waits for them
    /// first, so the log keeps its order. Their failure is the next write's;
    /// the message's call records are then stored on their own.
    pub fn push_with_message_behind(&mut self, events: Vec<ChatEvent>, message: BehindMessage) {
        let mut all = self.take_text();
        all.extend(events);
        let previous = self.behind.take();
        let (db, live) = (self.db.clone(), self.live.clone());
        let (conversation_id, turn_id) = (self.conversation_id, self.turn_id);
        self.behind = Some(tokio::spawn(async move {
            let written = async {
                if let Some(previous) = previous {
                    joined(previous).await?;
                }
                ai_events::append_with_message(
                    &db,
                    conversation_id,
                    turn_id,
                    &all,
                    message.as_round(),
                )
                .await
            }
            .await;
            if let Err(e) = &written {
                tracing::warn!(conversation_id, error = %e, "a round's message was not stored");
                for call in &message.calls {
                    if let Err(e) = llm_calls::insert(&db, call, message.call_context).await {
                        tracing::warn!(error = %e, "cannot record an LLM call");
                    }
                }
            }
            written?;
            live.notify(conversation_id);
            Ok(())
        }));
    }

    /// Waits for the write going on behind the turn, if any.
    pub async fn settle(&mut self) -> sqlx::Result<()> {
        match self.behind.take() {
            Some(behind) => joined(behind).await,
            None => Ok(()),
        }
    }

    /// The turn's last event (and the model's last message, if any), and
    /// the turn closed, at once. Returns whether the turn was still running.
    pub async fn close_turn(
        &mut self,
        turn_id: i64,
        last: ChatEvent,
        closing: ai_events::Closing<'_>,
    ) -> sqlx::Result<bool> {
        let events = self.next_write(vec![last]).await?;
        let closed = ai_events::append_closing_turn(
            &self.db,
            self.conversation_id,
            turn_id,
            &events,
            closing,
        )
        .await?;
        self.live.notify(self.conversation_id);
        Ok(closed)
    }

    /// What the next write carries, once the write behind the turn (if
    /// any) is done: the pending text, then `events`.
    async fn next_write(&mut self, events: Vec<ChatEvent>) -> sqlx::Result<Vec<ChatEvent>> {
        self.settle().await?;
        let mut all = self.take_text();
        all.extend(events);
        Ok(all)
    }

    fn take_text(&mut self) -> Vec<ChatEvent> {
        self.text_since = None;
        if self.text.is_empty() {
            return Vec::new();
        }
        vec![ChatEvent::TextDelta {
            text: std::mem::take(&mut self.text),
        }]
    }

    async fn write(&mut self, events: &[ChatEvent]) -> sqlx::Result<()> {
        // Relaxed commits: the flush after the turn's closing makes them
        // durable.
        ai_events::append_during_turn(&self.db, self.conversation_id, self.turn_id, events).await?;
        self.live.notify(self.conversation_id);
        Ok(())
    }
}

/// A write behind the turn, finished (a panic in it is an error).
async fn joined(write: tokio::task::JoinHandle<sqlx::Result<()>>) -> sqlx::Result<()> {
    write
        .await
        .map_err(|e| sqlx::Error::Io(std::io::Error::other(e)))?
}

/// A round's message written behind the turn: owned, as the write outlives
/// the call that pushed it.
pub struct BehindMessage {
    /// `assistant` or `tool`.
    pub role: &'static str,
    pub content: Vec<Block>,
    pub model: Option<String>,
    /// Model calls stored with it (the call that gave this answer).
    pub calls: Vec<CallRecord>,
    pub call_context: CallContext,
}

impl BehindMessage {
    fn as_round(&self) -> ai_events::RoundMessage<'_> {
        ai_events::RoundMessage {
            role: self.role,
            content: &self.content,
            model: self.model.as_deref(),
            calls: &self.calls,
            call_context: self.call_context,
        }
    }
}
