//! `ai_pending_approvals`: write tool calls waiting for a person.
//!
//! Every transition is one conditional UPDATE on `status`, so two clicks,
//! or two servers, cannot both move the same row: the second finds the row
//! no longer open (after waiting for the first's lock) and changes
//! nothing. A card is open while `pending`, and again once `failed`: its
//! write did not happen, so it may be approved again (or refused).
//!
//! Runtime-checked queries: no offline data to regenerate.
use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};
use std::time::Duration;

pub struct NewApproval<'a> {
    pub conversation_id: i64,
    pub message_id: i64,
    pub tool_call_id: &'a str,
    pub tool_name: &'a str,
    pub arguments: &'a serde_json::Value,
    pub arguments_hash: &'a [u8],
    pub ttl: Duration,
}

/// The new row's id and expiry.
pub async fn insert(
    db: impl PgExecutor<'_>,
    a: &NewApproval<'_>,
) -> sqlx::Result<(i64, DateTime<Utc>)> {
    sqlx::query_as(
        "INSERT INTO ai_pending_approvals
                (conversation_id, message_id, tool_call_id, tool_name, arguments, arguments_hash, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))
         RETURNING id, expires_at",
    )
    .bind(a.conversation_id)
    .bind(a.message_id)
    .bind(a.tool_call_id)
    .bind(a.tool_name)
    .bind(a.arguments)
    .bind(a.arguments_hash)
    .bind(a.ttl.as_secs_f64())
    .fetch_one(db)
    .await
}

/// An approval with its conversation's mode.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ApprovalRow {
    pub id: i64,
    pub conversation_id: i64,
    pub tool_call_id: String,
    pub tool_name: String,
    pub arguments: serde_json::Value,
    pub arguments_hash: Vec<u8>,
    pub status: String,
    pub expires_at: DateTime<Utc>,
    /// `expires_at <= now()` by the database's clock (one clock for every
    /// server).
    pub expired: bool,
    /// `chat` or `training`.
    pub mode: String,
}

const COLUMNS: &str = "a.id, a.conversation_id, a.tool_call_id, a.tool_name, a.arguments,
       a.arguments_hash, a.status, a.expires_at, a.expires_at <= now() AS expired, c.mode";

/// The approval `id` if it belongs to a conversation of `user_id`.
pub async fn find_owned(
    db: impl PgExecutor<'_>,
    user_id: i64,
    id: i64,
) -> sqlx::Result<Option<ApprovalRow>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM ai_pending_approvals a
           JOIN ai_conversations c ON c.id = a.conversation_id
          WHERE a.id = $1 AND c.user_id = $2"
    ))
    .bind(id)
    .bind(user_id)
    .fetch_optional(db)
    .await
}

/// The current status of `id` and whether it is past its expiry.
pub async fn status(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<Option<(String, bool)>> {
    sqlx::query_as("SELECT status, expires_at <= now() FROM ai_pending_approvals WHERE id = $1")
        .bind(id)
        .fetch_optional(db)
        .await
}

/// pending or failed → approved, only if still open, unexpired, and holding
/// exactly `hash` and `arguments`. Keeps the row locked until the caller's
/// transaction ends.
pub async fn claim(
    conn: &mut PgConnection,
    id: i64,
    user_id: i64,
    hash: &[u8],
    arguments: &serde_json::Value,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE ai_pending_approvals
            SET status = 'approved', decided_by = $2, decided_at = now()
          WHERE id = $1 AND status IN ('pending', 'failed') AND expires_at > now()
            AND arguments_hash = $3 AND arguments = $4",
    )
    .bind(id)
    .bind(user_id)
    .bind(hash)
    .bind(arguments)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// approved → executed (with the executor's result) or failed (with its
/// error): exactly one of `result` / `error` is given.
pub async fn finish(
    conn: &mut PgConnection,
    id: i64,
    result: Option<&serde_json::Value>,
    error: Option<&str>,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE ai_pending_approvals
            SET status = CASE WHEN $3::text IS NULL THEN 'executed' ELSE 'failed' END,
                executed_at = now(), result = $2, error = $3
          WHERE id = $1 AND status = 'approved'",
    )
    .bind(id)
    .bind(result)
    .bind(error)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// pending or failed → rejected, with the reason, unless decided or expired.
pub async fn reject(
    db: impl PgExecutor<'_>,
    id: i64,
    user_id: i64,
    reason: &str,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE ai_pending_approvals
            SET status = 'rejected', decided_by = $2, decided_at = now(), reject_reason = $3
          WHERE id = $1 AND status IN ('pending', 'failed') AND expires_at > now()",
    )
    .bind(id)
    .bind(user_id)
    .bind(reason)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// pending past expiry → expired; the ids moved, with their conversation.
pub async fn expire_due(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<(i64, i64)>> {
    sqlx::query_as(
        "UPDATE ai_pending_approvals SET status = 'expired'
          WHERE status = 'pending' AND expires_at <= now()
          RETURNING id, conversation_id",
    )
    .fetch_all(db)
    .await
}

/// One approval past expiry → expired (when someone tries to decide it).
pub async fn expire_one(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE ai_pending_approvals SET status = 'expired'
          WHERE id = $1 AND status = 'pending' AND expires_at <= now()",
    )
    .bind(id)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The conversation's approvals still waiting (and not expired), oldest first.
pub async fn pending_for_conversation(
    db: impl PgExecutor<'_>,
    conversation_id: i64,
) -> sqlx::Result<Vec<ApprovalRow>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM ai_pending_approvals a
           JOIN ai_conversations c ON c.id = a.conversation_id
          WHERE a.conversation_id = $1 AND a.status = 'pending' AND a.expires_at > now()
          ORDER BY a.id"
    ))
    .bind(conversation_id)
    .fetch_all(db)
    .await
}
