//! Turns whose process died: a running turn stops beating its heartbeat
//! when its server is killed (a server that shuts down closes its own:
//! `Live::interrupt_turns`). Whoever meets one — the page that loads the
//! conversation, a stream that follows it, a new message it blocks —
//! closes it as failed and says so in the conversation.
use crate::db::{ai_events, ai_turns};
use app::chat::ChatEvent;
use sqlx::PgPool;
use std::time::Duration;

/// A running turn whose server stopped beating this long ago is closed
/// (its heartbeat beats every second).
pub const STALE_TURN: Duration = Duration::from_secs(60);

/// Closes the conversation's stale turns and logs why; how many.
pub async fn close_stale_turns(db: &PgPool, conversation_id: i64) -> sqlx::Result<usize> {
    let closed = ai_turns::close_stale(db, conversation_id, STALE_TURN).await?;
    for turn_id in &closed {
        let events = [
            ChatEvent::Notice {
                text: "La réponse a été interrompue (le serveur s'est arrêté). Renvoyez votre message pour reprendre.".into(),
            },
            ChatEvent::TurnFinished {
                turn_id: *turn_id,
                status: "failed".into(),
                cost_eur: 0.0,
            },
        ];
        ai_events::append(db, conversation_id, Some(*turn_id), &events).await?;
    }
    Ok(closed.len())
}
