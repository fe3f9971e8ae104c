//! `ai_messages`: the conversation as the model reads it, in
//! provider-neutral content blocks (`llm::Block`). `user` messages hold what
//! a person wrote, `assistant` messages the model's text and tool calls,
//! `tool` messages the results of those calls.
use crate::llm::Block;
use sqlx::types::Json;
use sqlx::{FromRow, PgConnection};

#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct StoredMessage {
    pub id: i64,
    pub seq: i32,
    /// `user`, `assistant` or `tool`.
    pub role: String,
    pub content: Json<Vec<Block>>,
}

/// Appends a message; the seq is taken under the conversation's row lock
/// (held by the transaction), so two writers (two servers) never interleave.
pub async fn append(
    db: &mut PgConnection,
    conversation_id: i64,
    role: &str,
    content: &[Block],
    model: Option<&str>,
) -> sqlx::Result<StoredMessage> {
    let mut tx = sqlx::Connection::begin(&mut *db).await?;
    sqlx::query("SELECT 1 FROM ai_conversations WHERE id = $1 FOR UPDATE")
        .bind(conversation_id)
        .execute(&mut *tx)
        .await?;
    let tool_calls: Vec<serde_json::Value> = content
        .iter()
        .filter_map(|b| match b {
            Block::ToolUse { id, name, input } => {
                Some(serde_json::json!({"id": id, "name": name, "input": input}))
            }
            _ => None,
        })
        .collect();
    let stored = sqlx::query_as(
        "INSERT INTO ai_messages (conversation_id, seq, role, content, tool_calls, model)
         SELECT $1, coalesce(max(seq) + 1, 0), $2, $3, $4, $5
           FROM ai_messages WHERE conversation_id = $1
         RETURNING id, seq, role, content",
    )
    .bind(conversation_id)
    .bind(role)
    .bind(Json(content))
    .bind((!tool_calls.is_empty()).then_some(Json(tool_calls)))
    .bind(model)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(stored)
}

/// The last `limit` messages, oldest first.
pub async fn last(
    db: &mut PgConnection,
    conversation_id: i64,
    limit: i64,
) -> sqlx::Result<Vec<StoredMessage>> {
    let mut rows: Vec<StoredMessage> = sqlx::query_as(
        "SELECT id, seq, role, content FROM ai_messages
          WHERE conversation_id = $1 ORDER BY seq DESC LIMIT $2",
    )
    .bind(conversation_id)
    .bind(limit)
    .fetch_all(&mut *db)
    .await?;
    rows.reverse();
    Ok(rows)
}

/// The user messages before `before_seq` (what a summary of the cut
/// history is made from), oldest first, at most `limit`.
pub async fn user_texts_before(
    db: &mut PgConnection,
    conversation_id: i64,
    before_seq: i32,
    limit: i64,
) -> sqlx::Result<Vec<StoredMessage>> {
    sqlx::query_as(
        "SELECT id, seq, role, content FROM ai_messages
          WHERE conversation_id = $1 AND seq < $2 AND role IN ('user', 'assistant')
          ORDER BY seq LIMIT $3",
    )
    .bind(conversation_id)
    .bind(before_seq)
    .bind(limit)
    .fetch_all(&mut *db)
    .await
}
