//! `ai_conversations`: a team member's chats with the assistant. Every read
//! takes the owner, so a conversation of someone else reads as absent.
use sqlx::{FromRow, PgExecutor};

#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct Conversation {
    pub id: i64,
    pub user_id: i64,
    pub request_id: Option<i64>,
    /// `chat` or `training`.
    pub mode: String,
    pub title: String,
    pub updated_at: chrono::DateTime<chrono::Utc>,
}

/// A sidebar line, with the cards waiting for a decision.
#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct ConversationLine {
    pub id: i64,
    pub title: String,
    pub request_id: Option<i64>,
    pub updated_at: chrono::DateTime<chrono::Utc>,
    pub pending_approvals: i64,
}

pub async fn create(
    db: impl PgExecutor<'_>,
    user_id: i64,
    request_id: Option<i64>,
    title: &str,
) -> sqlx::Result<Conversation> {
    sqlx::query_as(
        "INSERT INTO ai_conversations (user_id, request_id, title) VALUES ($1, $2, $3)
         RETURNING id, user_id, request_id, mode, title, updated_at",
    )
    .bind(user_id)
    .bind(request_id)
    .bind(title)
    .fetch_one(db)
    .await
}

/// The conversation if it exists and belongs to `user_id`.
pub async fn owned(
    db: impl PgExecutor<'_>,
    user_id: i64,
    id: i64,
) -> sqlx::Result<Option<Conversation>> {
    sqlx::query_as(
        "SELECT id, user_id, request_id, mode, title, updated_at FROM ai_conversations
         WHERE id = $1 AND user_id = $2 AND archived_at IS NULL",
    )
    .bind(id)
    .bind(user_id)
    .fetch_optional(db)
    .await
}

/// The user's conversations, most recent first (the sidebar).
pub async fn list(
    db: impl PgExecutor<'_>,
    user_id: i64,
    limit: i64,
) -> sqlx::Result<Vec<ConversationLine>> {
    sqlx::query_as(
        "SELECT c.id, c.title, c.request_id, c.updated_at,
                (SELECT count(*) FROM ai_pending_approvals a
                  WHERE a.conversation_id = c.id AND a.status = 'pending'
                    AND a.expires_at > now()) AS pending_approvals
           FROM ai_conversations c
          WHERE c.user_id = $1 AND c.archived_at IS NULL
          ORDER BY c.updated_at DESC
          LIMIT $2",
    )
    .bind(user_id)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// Approval cards of the conversation still waiting for a decision.
pub async fn pending_approvals(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "SELECT count(*) FROM ai_pending_approvals
          WHERE conversation_id = $1 AND status = 'pending' AND expires_at > now()",
    )
    .bind(id)
    .fetch_one(db)
    .await
}

/// What the conversation's model calls cost so far, in USD.
pub async fn cost_usd(db: impl PgExecutor<'_>, id: i64) -> sqlx::Result<f64> {
    sqlx::query_scalar(
        "SELECT coalesce(sum(cost_usd), 0)::float8 FROM llm_calls WHERE conversation_id = $1",
    )
    .bind(id)
    .fetch_one(db)
    .await
}

/// What became of a write call the model made: its approval's state.
#[derive(Clone, Debug, PartialEq, FromRow, serde::Deserialize)]
pub struct ApprovalOutcome {
    pub id: i64,
    pub tool_call_id: String,
    pub tool_name: String,
    /// pending, approved, rejected, expired, executed, failed.
    pub status: String,
    pub reject_reason: Option<String>,
    pub error: Option<String>,
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

/// The approvals of the conversation's write calls, for the history the
/// model reads (each call's result says what the team decided).
/// The columns an [`ApprovalOutcome`] is read from.
pub const OUTCOME_COLUMNS: &str =
    "id, tool_call_id, tool_name, status, reject_reason, error, expires_at";

pub async fn approval_outcomes(
    db: impl PgExecutor<'_>,
    id: i64,
) -> sqlx::Result<Vec<ApprovalOutcome>> {
    sqlx::query_as(&format!(
        "SELECT {OUTCOME_COLUMNS} FROM ai_pending_approvals WHERE conversation_id = $1"
    ))
    .bind(id)
    .fetch_all(db)
    .await
}
