//! `ai_events`: the log a conversation page is drawn from (one
//! `app::chat::ChatEvent` per row, numbered by `seq`).
use super::ai_conversations::{ApprovalOutcome, OUTCOME_COLUMNS};
use super::ai_messages::{self, StoredMessage};
use super::llm_calls::{self, CallContext};
use crate::llm::{Block, CallRecord};
use app::chat::{ChatEvent, SeqEvent};
use sqlx::types::Json;
use sqlx::{PgExecutor, PgPool};
use std::sync::LazyLock;

/// The CTEs appending events `$4` (jsonb[], `$3` of them) of turn `$2` to
/// conversation `$1`, numbered after the conversation's counter (taken
/// under its row lock); `rows` holds their seqs. With an argument, the same
/// UPDATE also takes that many message numbers (`counter.message` is the
/// last one): one row lock numbers a statement's events and its message.
macro_rules! append_ctes {
    () => {
        append_ctes!("0")
    };
    ($messages:literal) => {
        concat!(
            "counter AS (
                 UPDATE ai_conversations
                    SET event_seq = event_seq + $3, message_seq = message_seq + ",
            $messages,
            "
                  WHERE id = $1 RETURNING event_seq - $3 AS first, message_seq - 1 AS message
             ), rows AS (
                 INSERT INTO ai_events (conversation_id, seq, turn_id, event)
                 SELECT $1, counter.first + e.n, $2, e.event
                   FROM counter, unnest($4::jsonb[]) WITH ORDINALITY AS e(event, n)
                 RETURNING seq
             )"
        )
    };
}

/// The events' count and their JSON, as the append statements bind them
/// (`$3`, `$4`).
fn as_rows(events: &[ChatEvent]) -> (i64, Vec<Json<&ChatEvent>>) {
    let count = i64::try_from(events.len()).unwrap_or(i64::MAX);
    (count, events.iter().map(Json).collect())
}

/// Appends events in one statement; returns the last seq.
pub async fn append(
    db: impl PgExecutor<'_>,
    conversation_id: i64,
    turn_id: Option<i64>,
    events: &[ChatEvent],
) -> sqlx::Result<i64> {
    let (count, payload) = as_rows(events);
    sqlx::query_scalar(concat!(
        "WITH ",
        append_ctes!(),
        " SELECT coalesce(max(seq), 0) FROM rows"
    ))
    .bind(conversation_id)
    .bind(turn_id)
    .bind(count)
    .bind(payload)
    .fetch_one(db)
    .await
}

/// Appends events of a running turn, committing asynchronously
/// (`relaxed_commit_cte!`): a turn waits for these writes between the model's
/// rounds. They reach the disk at the latest with the flush that follows
/// the turn's closing ([`super::ai_turns::flush_to_disk`]); a database crash
/// before it loses them together with the turn, which is then closed as
/// interrupted.
pub async fn append_during_turn(
    db: &PgPool,
    conversation_id: i64,
    turn_id: i64,
    events: &[ChatEvent],
) -> sqlx::Result<i64> {
    let (count, payload) = as_rows(events);
    sqlx::query_scalar(concat!(
        "WITH ",
        relaxed_commit_cte!(),
        ", ",
        append_ctes!(),
        " SELECT coalesce(max(seq), 0) FROM rows, relaxed"
    ))
    .bind(conversation_id)
    .bind(turn_id)
    .bind(count)
    .bind(payload)
    .fetch_one(db)
    .await
}

/// A message a round of a running turn stores: the model's answer with its
/// tool calls, or the results of those calls.
#[derive(Clone, Copy, Debug)]
pub struct RoundMessage<'a> {
    /// `assistant` or `tool`.
    pub role: &'a str,
    pub content: &'a [Block],
    pub model: Option<&'a str>,
    /// Model calls stored with it (the call that gave this answer).
    pub calls: &'a [CallRecord],
    pub call_context: CallContext,
}

/// What [`append_with_message`] stored and read.
#[derive(Debug)]
pub struct RoundStored {
    pub message: StoredMessage,
    /// The conversation's approvals as this statement saw them: the next
    /// round's history reads them without a query of its own.
    pub outcomes: Vec<ApprovalOutcome>,
}

/// Appends events of a running turn, one message of its round and the
/// `llm_calls` rows of the message's calls in one statement, committed
/// asynchronously like [`append_during_turn`] (and like `llm_calls::insert`,
/// which these rows would otherwise take a round trip of their own for): a tool
/// round is two of these (before the calls run, and with their results)
/// instead of four writes. The flush after the turn's closing carries them
/// to disk; so does any durable commit in between, such as an approval card's.
pub async fn append_with_message(
    db: &PgPool,
    conversation_id: i64,
    turn_id: i64,
    events: &[ChatEvent],
    message: RoundMessage<'_>,
) -> sqlx::Result<RoundStored> {
    let (count, payload) = as_rows(events);
    type Row = (
        i64,
        i32,
        String,
        Json<Vec<Block>>,
        Json<Vec<ApprovalOutcome>>,
    );
    // Built once: this runs on every tool round.
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            concat!(
                "WITH ",
                relaxed_commit_cte!(),
                ", ",
                append_ctes!("1"),
                ", message AS (
                 INSERT INTO ai_messages (conversation_id, seq, role, content, tool_calls, model)
                 SELECT $1, counter.message, $5, $6, $7, $8 FROM counter
                 RETURNING id, seq, role, content
             ), calls AS (",
                insert_llm_calls_from_json!("$9"),
                ")
             SELECT message.id, message.seq, message.role, message.content,
                    (SELECT coalesce(jsonb_agg(x), '[]') FROM (
                        SELECT {} FROM ai_pending_approvals WHERE conversation_id = $1) x)
               FROM message, relaxed"
            ),
            OUTCOME_COLUMNS
        )
    });
    let (id, seq, role, content, Json(outcomes)): Row = sqlx::query_as(SQL.as_str())
        .bind(conversation_id)
        .bind(turn_id)
        .bind(count)
        .bind(payload)
        .bind(message.role)
        .bind(Json(message.content))
        .bind(ai_messages::tool_calls_column(message.content))
        .bind(message.model)
        .bind(llm_calls::rows(message.calls, message.call_context))
        .fetch_one(db)
        .await?;
    Ok(RoundStored {
        message: StoredMessage {
            id,
            seq,
            role,
            content,
        },
        outcomes,
    })
}

/// Appends a turn's last events, the model's last message when the turn
/// ends with one (`ai_messages`, role `assistant`, no tool call), the
/// `llm_calls` rows of the calls not recorded yet (the call that gave that
/// message), and closes the turn (`ai_turns::finish`'s update), in one
/// statement: the end of every turn is one round trip. Returns whether the
/// turn was still running.
///
/// It commits without waiting for the disk: the page shows the turn's end
/// at once, and the turn then calls [`super::ai_turns::flush_to_disk`],
/// whose commit carries this one to disk (ADR 0024). On the pool, never in
/// a caller's transaction, whose whole commit it would relax.
pub async fn append_closing_turn(
    db: &PgPool,
    conversation_id: i64,
    turn_id: i64,
    events: &[ChatEvent],
    closing: Closing<'_>,
) -> sqlx::Result<bool> {
    let (count, payload) = as_rows(events);
    let (content, model) = match closing.message {
        Some(m) => (Some(Json(m.content)), Some(m.model)),
        None => (None, None),
    };
    sqlx::query_scalar(concat!(
        "WITH ",
        relaxed_commit_cte!(),
        ", closed AS (
             UPDATE ai_turns SET status = $5, error = $6, finished_at = now()
              WHERE id = $2 AND status = 'running' RETURNING id
         ), ",
        append_ctes!("CASE WHEN $7::jsonb IS NULL THEN 0 ELSE 1 END"),
        ", message AS (
             INSERT INTO ai_messages (conversation_id, seq, role, content, model)
             SELECT $1, counter.message, 'assistant', $7, $8 FROM counter WHERE $7::jsonb IS NOT NULL
         ), calls AS (",
        insert_llm_calls_from_json!("$9"),
        ")
         -- Data-modifying CTEs run to completion whether read or not.
         SELECT EXISTS (SELECT 1 FROM closed) FROM relaxed"
    ))
    .bind(conversation_id)
    .bind(turn_id)
    .bind(count)
    .bind(payload)
    .bind(closing.status)
    .bind(closing.error)
    .bind(content)
    .bind(model)
    .bind(llm_calls::rows(closing.calls, closing.call_context))
    .fetch_one(db)
    .await
}

/// How a turn ends.
#[derive(Clone, Copy, Debug)]
pub struct Closing<'a> {
    /// `done`, `stopped` or `failed`.
    pub status: &'a str,
    pub error: Option<&'a str>,
    /// The model's last answer, stored with the closing (text only).
    pub message: Option<FinalMessage<'a>>,
    /// Model calls whose `llm_calls` rows were left to the closing.
    pub calls: &'a [CallRecord],
    pub call_context: CallContext,
}

#[derive(Clone, Copy, Debug)]
pub struct FinalMessage<'a> {
    pub content: &'a [crate::llm::Block],
    pub model: &'a str,
}

/// Events after `after`, in order, at most `limit`.
pub async fn after(
    db: impl PgExecutor<'_>,
    conversation_id: i64,
    after: i64,
    limit: i64,
) -> sqlx::Result<Vec<SeqEvent>> {
    let rows: Vec<(i64, Json<ChatEvent>)> = sqlx::query_as(
        "SELECT seq, event FROM ai_events
          WHERE conversation_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
    )
    .bind(conversation_id)
    .bind(after)
    .bind(limit)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(seq, Json(event))| SeqEvent { seq, event })
        .collect())
}
