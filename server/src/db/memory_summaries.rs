//! What the conversation summariser reads and remembers: the user's own
//! messages after the last summarised seq, the conversations idle long
//! enough, and what it already wrote (never the same fact twice).
//!
//! Where it stopped is the `until_seq` of its `memory.summarised` entries
//! in the audit log (object `ai_conversation`): no migration was allotted
//! to the summariser, the audit log is the record of what a system actor
//! did, and its (object_type, object_id) index answers « the last one for
//! this conversation » directly. The facts themselves are deduplicated on
//! (user, conversation, content) in `ai_memories` — the same conversation
//! summarised twice (two servers, a lost audit row) writes nothing new.
use chrono::{DateTime, Utc};
use sqlx::types::Json;
use sqlx::PgExecutor;

use crate::conversation_content::Block;

/// The audit action of a summariser pass.
pub const ACTION: &str = "memory.summarised";

/// Takes the conversation's summary lease for `seconds` (migration 0033):
/// its `until` when taken, `None` while another pass holds it. An expired
/// lease (its pass died) is taken over.
pub async fn take_lease(
    db: impl PgExecutor<'_>,
    conversation_id: i64,
    seconds: f64,
) -> sqlx::Result<Option<DateTime<Utc>>> {
    sqlx::query_scalar(
        "INSERT INTO memory_summary_leases (conversation_id, until)
         VALUES ($1, clock_timestamp() + make_interval(secs => $2))
         ON CONFLICT (conversation_id) DO UPDATE SET until = EXCLUDED.until
          WHERE memory_summary_leases.until < clock_timestamp()
         RETURNING until",
    )
    .bind(conversation_id)
    .bind(seconds)
    .fetch_optional(db)
    .await
}

/// Gives back the lease taken until `until` (nothing if it was taken over).
pub async fn end_lease(
    db: impl PgExecutor<'_>,
    conversation_id: i64,
    until: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM memory_summary_leases WHERE conversation_id = $1 AND until = $2")
        .bind(conversation_id)
        .bind(until)
        .execute(db)
        .await
        .map(drop)
}

/// The last message seq a pass covered; `-1` when none ran yet.
pub async fn watermark(db: impl PgExecutor<'_>, conversation_id: i64) -> sqlx::Result<i32> {
    sqlx::query_scalar(
        "SELECT COALESCE(max((details->>'until_seq')::int), -1)
           FROM audit_log
          WHERE object_type = 'ai_conversation' AND object_id = $1 AND action = $2",
    )
    .bind(conversation_id)
    .bind(ACTION)
    .fetch_one(db)
    .await
}

/// The conversation's owner and its last message seq (`-1`: no message).
pub async fn conversation(
    db: impl PgExecutor<'_>,
    conversation_id: i64,
) -> sqlx::Result<Option<(i64, i32)>> {
    sqlx::query_as("SELECT user_id, message_seq - 1 FROM ai_conversations WHERE id = $1")
        .bind(conversation_id)
        .fetch_optional(db)
        .await
}

/// The user's messages after `after_seq` (at most `limit`, oldest first):
/// only `user` rows, never tool results — third-party text must not
/// become memory.
pub async fn user_messages_after(
    db: impl PgExecutor<'_>,
    conversation_id: i64,
    after_seq: i32,
    limit: i64,
) -> sqlx::Result<Vec<(i32, Json<Vec<Block>>)>> {
    sqlx::query_as(
        "SELECT seq, content FROM ai_messages
          WHERE conversation_id = $1 AND seq > $2 AND role = 'user'
          ORDER BY seq LIMIT $3",
    )
    .bind(conversation_id)
    .bind(after_seq)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// How many user messages came after `after_seq`.
pub async fn user_messages_since(
    db: impl PgExecutor<'_>,
    conversation_id: i64,
    after_seq: i32,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "SELECT count(*) FROM ai_messages
          WHERE conversation_id = $1 AND seq > $2 AND role = 'user'",
    )
    .bind(conversation_id)
    .bind(after_seq)
    .fetch_one(db)
    .await
}

/// Conversations quiet for `idle_secs` (but active within `horizon_secs`)
/// with messages no pass covered yet, quietest first. A range scan of
/// `ai_conversations_idle_idx` (migration 0020), partial on the
/// `message_seq > 0` written here.
pub async fn idle_unsummarised(
    db: impl PgExecutor<'_>,
    idle_secs: f64,
    horizon_secs: f64,
    limit: i64,
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(
        "SELECT c.id FROM ai_conversations c
          WHERE c.updated_at < now() - make_interval(secs => $1)
            AND c.updated_at > now() - make_interval(secs => $2)
            AND c.message_seq > 0
            AND c.message_seq - 1 > COALESCE(
                  (SELECT max((a.details->>'until_seq')::int) FROM audit_log a
                    WHERE a.object_type = 'ai_conversation' AND a.object_id = c.id
                      AND a.action = $3), -1)
          ORDER BY c.updated_at LIMIT $4",
    )
    .bind(idle_secs)
    .bind(horizon_secs)
    .bind(ACTION)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// The contents of the user's memories from this conversation.
pub async fn known_contents(
    db: impl PgExecutor<'_>,
    user_id: i64,
    conversation_id: i64,
) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "SELECT content FROM ai_memories WHERE user_id = $1 AND conversation_id = $2",
    )
    .bind(user_id)
    .bind(conversation_id)
    .fetch_all(db)
    .await
}

/// Whether the user already has this reminder (same title, same due date).
pub async fn reminder_exists(
    db: impl PgExecutor<'_>,
    user_id: i64,
    title: &str,
    due_at: Option<chrono::DateTime<chrono::Utc>>,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM tasks
                         WHERE user_id = $1 AND title = $2 AND due_at IS NOT DISTINCT FROM $3)",
    )
    .bind(user_id)
    .bind(title)
    .bind(due_at)
    .fetch_one(db)
    .await
}
