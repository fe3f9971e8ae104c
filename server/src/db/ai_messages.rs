//! `ai_messages`: the conversation as the model reads it, in
//! provider-neutral content blocks (`conversation_content::Block`). `user`
//! messages hold what a person wrote, `assistant` messages the model's text
//! and tool calls, `tool` messages the results of those calls.
use crate::conversation_content::Block;
use sqlx::types::Json;
use sqlx::{FromRow, PgExecutor};

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
    db: impl PgExecutor<'_>,
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
    .fetch_all(db)
    .await
}
