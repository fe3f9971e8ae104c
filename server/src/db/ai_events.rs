//! `ai_events`: the log a conversation page is drawn from (one
//! `app::chat::ChatEvent` per row, numbered by `seq`).
use super::ai_conversations::{ApprovalOutcome, OUTCOME_COLUMNS};
use super::ai_messages::{self, StoredMessage};
use crate::conversation_content::Block;
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

/// A message a round of a running turn stores: the model's answer with its
/// tool calls, or the results of those calls.
#[derive(Clone, Copy, Debug)]
pub struct RoundMessage<'a> {
    /// `assistant` or `tool`.
    pub role: &'a str,
    pub content: &'a [Block],
    pub model: Option<&'a str>,
}

/// What [`append_with_message`] stored and read.
#[derive(Debug)]
pub struct RoundStored {
    pub message: StoredMessage,
    /// The conversation's approvals as this statement saw them: the next
    /// round's history reads them without a query of its own.
    pub outcomes: Vec<ApprovalOutcome>,
}

/// Appends events of a running turn and one message of its round in one
/// statement (one row lock numbers both), and reads the conversation's
/// approvals as they stand after it: the next round's history reads them
/// without a query of its own. A plain, durable commit.
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
                append_ctes!("1"),
                ", message AS (
                 INSERT INTO ai_messages (conversation_id, seq, role, content, tool_calls, model)
                 SELECT $1, counter.message, $5, $6, $7, $8 FROM counter
                 RETURNING id, seq, role, content
             )
             SELECT message.id, message.seq, message.role, message.content,
                    (SELECT coalesce(jsonb_agg(x), '[]') FROM (
                        SELECT {} FROM ai_pending_approvals WHERE conversation_id = $1) x)
               FROM message"
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

/// Appends a turn's last events and the model's last message when the
/// turn ends with one (`ai_messages`, role `assistant`, no tool call), and
/// closes the turn (`ai_turns::finish`'s update), in one statement and one
/// durable commit: the page never sees a turn ended without its answer.
/// Returns whether the turn was still running.
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
        "WITH closed AS (
             UPDATE ai_turns SET status = $5, error = $6, finished_at = now()
              WHERE id = $2 AND status = 'running' RETURNING id
         ), ",
        append_ctes!("CASE WHEN $7::jsonb IS NULL THEN 0 ELSE 1 END"),
        ", message AS (
             INSERT INTO ai_messages (conversation_id, seq, role, content, model)
             SELECT $1, counter.message, 'assistant', $7, $8 FROM counter WHERE $7::jsonb IS NOT NULL
         )
         -- Data-modifying CTEs run to completion whether read or not.
         SELECT EXISTS (SELECT 1 FROM closed)"
    ))
    .bind(conversation_id)
    .bind(turn_id)
    .bind(count)
    .bind(payload)
    .bind(closing.status)
    .bind(closing.error)
    .bind(content)
    .bind(model)
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
}

#[derive(Clone, Copy, Debug)]
pub struct FinalMessage<'a> {
    pub content: &'a [Block],
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

/// A row of [`after_and_running`]: the running turn (on every row), then
/// one event (none on the only row of a log already read).
type RunningAndEvent = (Option<i64>, Option<i64>, Option<Json<ChatEvent>>);

/// [`after`], and the conversation's running turn if any, in one statement:
/// what a stream that follows a conversation reads at each wake-up. One
/// snapshot for both, so events the turn wrote before it ended are never
/// missed by a read that already sees it ended.
pub async fn after_and_running(
    db: impl PgExecutor<'_>,
    conversation_id: i64,
    after: i64,
    limit: i64,
) -> sqlx::Result<(Vec<SeqEvent>, Option<i64>)> {
    let rows: Vec<RunningAndEvent> = sqlx::query_as(
        "SELECT t.running, e.seq, e.event
           FROM (SELECT (SELECT id FROM ai_turns
                          WHERE conversation_id = $1 AND status = 'running'
                          ORDER BY id LIMIT 1) AS running) t
           LEFT JOIN LATERAL (SELECT seq, event FROM ai_events
                               WHERE conversation_id = $1 AND seq > $2
                               ORDER BY seq LIMIT $3) e ON true
          ORDER BY e.seq",
    )
    .bind(conversation_id)
    .bind(after)
    .bind(limit)
    .fetch_all(db)
    .await?;
    let running = rows.first().and_then(|(running, _, _)| *running);
    let events = rows
        .into_iter()
        .filter_map(|(_, seq, event)| {
            Some(SeqEvent {
                seq: seq?,
                event: event?.0,
            })
        })
        .collect();
    Ok((events, running))
}
