//! `ai_messages`: the conversation as the model reads it, in
//! provider-neutral content blocks (`llm::Block`). `user` messages hold what
//! a person wrote, `assistant` messages the model's text and tool calls,
//! `tool` messages the results of those calls.
use super::ai_context::{turn_columns, TurnReads, TurnWindow};
use super::ai_conversations::Conversation;
use crate::llm::Block;
use sqlx::types::Json;
use sqlx::{FromRow, PgConnection};

#[derive(Clone, Debug, PartialEq, FromRow, serde::Deserialize)]
pub struct StoredMessage {
    pub id: i64,
    pub seq: i32,
    /// `user`, `assistant` or `tool`.
    pub role: String,
    pub content: Json<Vec<Block>>,
}

/// Appends a message in one statement, numbered by the conversation's
/// counter (`message_seq`, migration 0017): the UPDATE takes the row lock
/// and re-reads the latest counter after waiting for it, so two writers (two
/// servers) never take the same seq. One round trip: a chat turn appends a
/// message per round, and each round trip is server time the team waits.
pub async fn append(
    db: impl sqlx::PgExecutor<'_>,
    conversation_id: i64,
    role: &str,
    content: &[Block],
    model: Option<&str>,
) -> sqlx::Result<StoredMessage> {
    // Not max(seq) + 1 under a FOR UPDATE in the same statement: its
    // snapshot predates the lock, so it would miss a row committed while
    // waiting. An UPDATE re-reads the row it waited for.
    sqlx::query_as(
        "WITH counter AS (
             UPDATE ai_conversations SET message_seq = message_seq + 1
              WHERE id = $1 RETURNING message_seq - 1 AS seq
         )
         INSERT INTO ai_messages (conversation_id, seq, role, content, tool_calls, model)
         SELECT $1, counter.seq, $2, $3, $4, $5 FROM counter
         RETURNING id, seq, role, content",
    )
    .bind(conversation_id)
    .bind(role)
    .bind(Json(content))
    .bind(tool_calls_column(content))
    .bind(model)
    .fetch_one(db)
    .await
}

/// The `tool_calls` column of a message: its calls' ids, names and
/// inputs, or NULL when it calls no tool.
pub fn tool_calls_column(content: &[Block]) -> Option<Json<Vec<serde_json::Value>>> {
    let calls: Vec<serde_json::Value> = content
        .iter()
        .filter_map(|b| match b {
            Block::ToolUse { id, name, input } => {
                Some(serde_json::json!({"id": id, "name": name, "input": input}))
            }
            _ => None,
        })
        .collect();
    (!calls.is_empty()).then_some(Json(calls))
}

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
pub async fn send_user_message(
    db: impl sqlx::PgExecutor<'_>,
    user_id: i64,
    conversation_id: i64,
    provider: &str,
    text: &str,
    [message_event, turn_started]: [&app::chat::ChatEvent; 2],
    window: TurnWindow,
) -> sqlx::Result<Sent> {
    let content = [Block::Text {
        text: text.to_string(),
    }];
    // The reads run only when the turn opened (CASE evaluates its branch
    // only then). They see the statement's snapshot, which the message it
    // inserts is not in: it is added to them below.
    let reads: Vec<String> = turn_columns("conv.request_id", "$1", window)
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
           FROM conv LEFT JOIN turn ON true LEFT JOIN event ON true LEFT JOIN message ON true",
        reads.join(",\n")
    ))
    .bind(conversation_id)
    .bind(user_id)
    .bind(provider)
    .bind(Json(&content[..]))
    .bind(Json(message_event))
    .bind(Json(turn_started))
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

/// The last `limit` messages, oldest first.
/// The columns a [`StoredMessage`] is read from.
pub const MESSAGE_COLUMNS: &str = "id, seq, role, content";

pub async fn last(
    db: impl sqlx::PgExecutor<'_>,
    conversation_id: i64,
    limit: i64,
) -> sqlx::Result<Vec<StoredMessage>> {
    let mut rows: Vec<StoredMessage> = sqlx::query_as(&format!(
        "SELECT {MESSAGE_COLUMNS} FROM ai_messages
          WHERE conversation_id = $1 ORDER BY seq DESC LIMIT $2"
    ))
    .bind(conversation_id)
    .bind(limit)
    .fetch_all(db)
    .await?;
    rows.reverse();
    Ok(rows)
}

/// The team's and the assistant's messages (not tool results) with
/// `from_seq <= seq < before_seq`: what a summary of the cut history is made
/// from. Oldest first, at most `limit`.
pub async fn exchanges_between(
    db: &mut PgConnection,
    conversation_id: i64,
    from_seq: i32,
    before_seq: i32,
    limit: i64,
) -> sqlx::Result<Vec<StoredMessage>> {
    sqlx::query_as(
        "SELECT id, seq, role, content FROM ai_messages
          WHERE conversation_id = $1 AND seq >= $2 AND seq < $3
            AND role IN ('user', 'assistant')
          ORDER BY seq LIMIT $4",
    )
    .bind(conversation_id)
    .bind(from_seq)
    .bind(before_seq)
    .bind(limit)
    .fetch_all(&mut *db)
    .await
}
