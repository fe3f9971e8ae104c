//! Where a turn's events go: appended to the conversation's log, and the
//! streams following it woken. Text deltas are coalesced (flushed every
//! [`FLUSH_EVERY`] or before any other event), so a fast model costs a few
//! rows a second, not one per token.
//!
//! Every write is awaited where it is made, in order, and commits durably
//! (ADR 0029): when a write returns, its rows are on disk.
use super::live::Live;
use crate::db::ai_events;
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
        let mut events = self.take_text();
        events.push(event);
        self.write(&events).await
    }

    /// The pending text, if any.
    pub async fn flush(&mut self) -> sqlx::Result<()> {
        let events = self.take_text();
        if events.is_empty() {
            return Ok(());
        }
        self.write(&events).await
    }

    /// A message of the round (the model's answer, or its tool results),
    /// with the pending text before it: see [`ai_events::append_with_message`].
    pub async fn push_message(
        &mut self,
        message: ai_events::RoundMessage<'_>,
    ) -> sqlx::Result<ai_events::RoundStored> {
        let events = self.take_text();
        let stored = ai_events::append_with_message(
            &self.db,
            self.conversation_id,
            self.turn_id,
            &events,
            message,
        )
        .await?;
        if !events.is_empty() {
            self.live.notify(self.conversation_id);
        }
        Ok(stored)
    }

    /// The turn's last event (and the model's last message, if any), and
    /// the turn closed, in one statement. Returns whether the turn was
    /// still running.
    pub async fn close_turn(
        &mut self,
        last: ChatEvent,
        closing: ai_events::Closing<'_>,
    ) -> sqlx::Result<bool> {
        let mut events = self.take_text();
        events.push(last);
        let closed = ai_events::append_closing_turn(
            &self.db,
            self.conversation_id,
            self.turn_id,
            &events,
            closing,
        )
        .await?;
        self.live.notify(self.conversation_id);
        Ok(closed)
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
        ai_events::append(&self.db, self.conversation_id, Some(self.turn_id), events).await?;
        self.live.notify(self.conversation_id);
        Ok(())
    }
}
