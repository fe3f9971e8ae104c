//! `llm_calls`: one row per language-model call (task, model, tokens, cost,
//! latency, status), the source of the cost and latency metrics.
//!
//! Runtime-checked (`query`, not `query!`) so adding it needed no new
//! offline `.sqlx/` data; the tests insert through it on a real database.
use crate::call_record::CallRecord;
use chrono::{DateTime, Utc};
use sqlx::types::Json;
use sqlx::{PgExecutor, PgPool};

/// Who the call served (defined beside the record, below this module and
/// the provider layer).
pub use crate::call_record::CallContext;

/// One `llm_calls` row as [`insert_llm_calls_from_json!`] reads it.
#[derive(Debug, serde::Serialize)]
pub struct CallRow<'a> {
    task: &'static str,
    provider: &'static str,
    model: &'a str,
    input_tokens: i32,
    output_tokens: i32,
    cache_write_tokens: i32,
    cache_read_tokens: i32,
    /// An unknown price is stored as 0 (the column is NOT NULL); the model
    /// name in the row tells such calls apart.
    cost_usd: f64,
    latency_ms: i32,
    status: &'static str,
    error: Option<&'a str>,
    conversation_id: Option<i64>,
    user_id: Option<i64>,
    request_id: Option<i64>,
    search_run_id: Option<i64>,
}

impl<'a> CallRow<'a> {
    pub fn new(call: &'a CallRecord, context: CallContext) -> Self {
        let tokens = |n: u32| i32::try_from(n).unwrap_or(i32::MAX);
        CallRow {
            task: call.task.label(),
            provider: call.provider,
            model: &call.model,
            input_tokens: tokens(call.usage.input_tokens),
            output_tokens: tokens(call.usage.output_tokens),
            cache_write_tokens: tokens(call.usage.cache_write_tokens),
            cache_read_tokens: tokens(call.usage.cache_read_tokens),
            cost_usd: call.cost_usd.unwrap_or(0.0).max(0.0),
            latency_ms: i32::try_from(call.latency.as_millis()).unwrap_or(i32::MAX),
            status: if call.error.is_none() { "ok" } else { "error" },
            error: call.error.as_deref(),
            conversation_id: context.conversation_id,
            user_id: context.user_id,
            request_id: context.request_id,
            search_run_id: context.search_run_id,
        }
    }
}

/// The calls as the JSON array [`insert_llm_calls_from_json!`] reads.
pub fn rows(calls: &[CallRecord], context: CallContext) -> Json<Vec<CallRow<'_>>> {
    Json(calls.iter().map(|c| CallRow::new(c, context)).collect())
}

/// Records one call, in a durable commit: a call's tokens and cost are on
/// disk before its answer is handed on (ADR 0029).
pub async fn insert(db: &PgPool, call: &CallRecord, context: CallContext) -> sqlx::Result<i64> {
    sqlx::query_scalar(concat!(
        "WITH calls AS (",
        insert_llm_calls_from_json!("$1"),
        " RETURNING id) SELECT id FROM calls"
    ))
    .bind(rows(std::slice::from_ref(call), context))
    .fetch_one(db)
    .await
}

/// Names the search whose finalists the calls `ids` ranked: the calls are
/// recorded as they end, the search's row only after them.
pub async fn link_search_run(
    db: impl PgExecutor<'_>,
    ids: &[i64],
    search_run_id: i64,
) -> sqlx::Result<u64> {
    if ids.is_empty() {
        return Ok(0);
    }
    let done = sqlx::query("UPDATE llm_calls SET search_run_id = $2 WHERE id = ANY($1)")
        .bind(ids)
        .bind(search_run_id)
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}

/// What the calls made since `since` cost, in USD (failed calls included:
/// they were billed too). Served by `llm_calls_created_idx`.
pub async fn spent_usd_since(db: impl PgExecutor<'_>, since: DateTime<Utc>) -> sqlx::Result<f64> {
    sqlx::query_scalar(
        "SELECT COALESCE(SUM(cost_usd), 0)::float8 FROM llm_calls WHERE created_at >= $1",
    )
    .bind(since)
    .fetch_one(db)
    .await
}
