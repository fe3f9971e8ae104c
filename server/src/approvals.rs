//! PLACEHOLDER until the approvals module lands: only `create`.
use sha2::{Digest, Sha256};
use sqlx::PgExecutor;
use std::time::Duration;

pub struct PendingApproval {
    pub id: i64,
    pub arguments_hash: String,
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

pub async fn create(
    db: impl PgExecutor<'_>,
    conversation_id: i64,
    message_id: i64,
    tool_call_id: &str,
    tool_name: &str,
    arguments: &serde_json::Value,
    ttl: Duration,
) -> sqlx::Result<PendingApproval> {
    let hash = Sha256::digest(arguments.to_string().as_bytes()).to_vec();
    let (id, expires_at): (i64, chrono::DateTime<chrono::Utc>) = sqlx::query_as(
        "INSERT INTO ai_pending_approvals (conversation_id, message_id, tool_call_id, tool_name,
                                           arguments, arguments_hash, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))
         RETURNING id, expires_at",
    )
    .bind(conversation_id)
    .bind(message_id)
    .bind(tool_call_id)
    .bind(tool_name)
    .bind(arguments)
    .bind(&hash)
    .bind(ttl.as_secs_f64())
    .fetch_one(db)
    .await?;
    Ok(PendingApproval {
        id,
        arguments_hash: hash.iter().map(|b| format!("{b:02x}")).collect(),
        expires_at,
    })
}

pub struct DecisionOutcome {
    pub approval_id: i64,
    pub conversation_id: i64,
    pub status: String,
    pub detail: String,
}

pub async fn decide(
    _db: &sqlx::PgPool,
    _user_id: i64,
    _approval_id: i64,
    _decision: app::chat::Decision,
) -> Result<DecisionOutcome, app::errors::AppError> {
    Err(app::errors::AppError::NotFound)
}
