//! A team member's message sent: the statement that opens a chat turn and
//! reads what the turn needs before its first model call.
use super::ai_context::{turn_columns, TurnReads, TurnWindow};
use super::ai_conversations::Conversation;
use super::ai_messages::StoredMessage;
use crate::conversation_content::Block;
use sqlx::types::Json;
use sqlx::FromRow;

/// What sending a message found.
#[derive(Debug)]
pub enum Sent {
    /// No such conversation for this user (or archived).
    NotFound,
    /// The conversation is the user's, but a turn is running: nothing written.
    Busy(Conversation),
    /// The turn is open, the message and its event stored.
    Opened {
        conversation: Conversation,
        turn_id: i64,
        /// The event's seq.
        seq: i64,
        /// What the turn reads before its first model call, the message
        /// sent included.
        reads: Box<TurnReads>,
    },
}

/// A team member's message, in one statement: checks the conversation is
/// theirs, opens its turn (refused while one runs), stores the message, the
/// event showing it and the event opening the turn (numbered by their
/// counters on the conversation, taken under its row lock; the second
/// event's `turn_id` is set to the turn opened), and reads what the turn
/// needs before its first model call (`ai_context::turn_columns`, within
/// `window`). Sending is one round trip, and the turn starts with its reads
/// done.
///
/// `known` are messages of the conversation the caller already holds, as a
/// read gave them, oldest first and without a gap up to their last (the
/// previous send's window): only the messages after them are read, since a
/// stored message never changes. Empty: the whole window is read.
///
/// A durable commit: when it returns, the message is on disk (ADR 0029).
#[allow(clippy::too_many_arguments)]
pub async fn send_user_message(
    db: &sqlx::PgPool,
    user_id: i64,
    conversation_id: i64,
    provider: &str,
    text: &str,
    [message_event, turn_started]: [&app::chat::ChatEvent; 2],
    window: TurnWindow,
    known: &[StoredMessage],
) -> sqlx::Result<Sent> {
    let content = [Block::Text {
        text: text.to_string(),
    }];
    // The reads run only when the turn opened (CASE evaluates its branch
    // only then). They see the statement's snapshot, which the message it
    // inserts is not in: it is added to them below.
    let from_seq = known.last().map_or(0, |m| m.seq + 1);
    let reads: Vec<String> = turn_columns("conv.request_id", "$1", "$7", window)
        .into_iter()
        .map(|(name, expr)| format!("CASE WHEN turn.id IS NOT NULL THEN {expr} END AS {name}"))
        .collect();
    let row = sqlx::query(&format!(
        "WITH conv AS (
             SELECT id, user_id, request_id, mode, title, updated_at FROM ai_conversations
              WHERE id = $1 AND user_id = $2 AND archived_at IS NULL
         ), turn AS (
             INSERT INTO ai_turns (conversation_id, provider) SELECT id, $3 FROM conv
             ON CONFLICT (conversation_id) WHERE status = 'running' DO NOTHING
             RETURNING id
         ), counter AS (
             UPDATE ai_conversations
                SET message_seq = message_seq + 1, event_seq = event_seq + 2
              WHERE id = $1 AND EXISTS (SELECT 1 FROM turn)
              RETURNING message_seq - 1 AS message, event_seq - 1 AS event
         ), message AS (
             INSERT INTO ai_messages (conversation_id, seq, role, content)
             SELECT $1, counter.message, 'user', $4 FROM counter
             RETURNING id, seq
         ), events AS (
             INSERT INTO ai_events (conversation_id, seq, turn_id, event)
             SELECT $1, counter.event, turn.id, $5 FROM counter, turn
             UNION ALL
             SELECT $1, counter.event + 1, turn.id, jsonb_set($6, '{{turn_id}}', to_jsonb(turn.id))
               FROM counter, turn
             RETURNING seq
         ), event AS (
             SELECT min(seq) AS seq FROM events HAVING count(*) > 0
         )
         SELECT conv.id, conv.user_id, conv.request_id, conv.mode, conv.title, conv.updated_at,
                turn.id AS turn_id, event.seq AS event_seq,
                message.id AS message_id, message.seq AS message_seq,
                {}
           FROM conv
                LEFT JOIN turn ON true LEFT JOIN event ON true LEFT JOIN message ON true",
        reads.join(",\n")
    ))
    .bind(conversation_id)
    .bind(user_id)
    .bind(provider)
    .bind(Json(&content[..]))
    .bind(Json(message_event))
    .bind(Json(turn_started))
    .bind(from_seq)
    .fetch_optional(db)
    .await?;
    let Some(row) = row else {
        return Ok(Sent::NotFound);
    };
    use sqlx::Row;
    let conversation = Conversation::from_row(&row)?;
    let opened: (Option<i64>, Option<i64>, Option<i64>, Option<i32>) = (
        row.try_get("turn_id")?,
        row.try_get("event_seq")?,
        row.try_get("message_id")?,
        row.try_get("message_seq")?,
    );
    let (Some(turn_id), Some(seq), Some(message_id), Some(message_seq)) = opened else {
        return Ok(Sent::Busy(conversation));
    };
    let mut reads = TurnReads::from_row(&row)?.ok_or(sqlx::Error::RowNotFound)?;
    // Fewer than the window read: every message after the known ones is
    // there, and the known ones come before them. A full window: the read
    // alone is the newest `window` messages.
    if reads.messages.len() < usize::from(window.messages) && !known.is_empty() {
        let read = std::mem::take(&mut reads.messages);
        let keep = usize::from(window.messages).saturating_sub(read.len());
        let start = known.len().saturating_sub(keep);
        reads.messages = known[start..].iter().cloned().chain(read).collect();
    }
    reads.messages.push(StoredMessage {
        id: message_id,
        seq: message_seq,
        role: "user".into(),
        content: Json(content.to_vec()),
    });
    // The window counts the message sent, as a read after the send would.
    let over = reads
        .messages
        .len()
        .saturating_sub(usize::from(window.messages));
    reads.messages.drain(..over);
    Ok(Sent::Opened {
        conversation,
        turn_id,
        seq,
        reads: Box::new(reads),
    })
}
