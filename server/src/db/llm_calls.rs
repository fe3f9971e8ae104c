//! `llm_calls`: one row per language-model call (task, model, tokens, cost,
//! latency, status), the source of the cost and latency metrics.
//!
//! Runtime-checked (`query`, not `query!`) so adding it needed no new
//! offline `.sqlx/` data; the tests insert through it on a real database.
use crate::llm::CallRecord;
use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool};

/// Who the call served, when known.
#[derive(Clone, Copy, Debug, Default)]
pub struct CallContext {
    pub user_id: Option<i64>,
    pub request_id: Option<i64>,
    pub conversation_id: Option<i64>,
    /// The venue search whose finalists the call ranked.
    pub search_run_id: Option<i64>,
}

/// Records one call. The commit is asynchronous (`relaxed_commit_cte!`): a
/// chat turn waits for this write between the model's answer and the next
/// step, and the row reaches the disk with the next durable commit (the
/// turn's closing at the latest) or within the WAL writer's delay. A
/// database crash in between can lose the cost of the calls of its last
/// fraction of a second, never a person's data.
pub async fn insert(db: &PgPool, call: &CallRecord, context: CallContext) -> sqlx::Result<i64> {
    let tokens = |n: u32| i32::try_from(n).unwrap_or(i32::MAX);
    sqlx::query_scalar(concat!(
        "WITH ",
        relaxed_commit_cte!(),
        " INSERT INTO llm_calls (task, provider, model, input_tokens, output_tokens, cache_write_tokens,
                                cache_read_tokens, cost_usd, latency_ms, status, error,
                                conversation_id, user_id, request_id, search_run_id)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8::float8, $9, $10, $11, $12, $13, $14, $15 FROM relaxed
         RETURNING id"
    ))
    .bind(call.task.label())
    .bind(call.provider)
    .bind(&call.model)
    .bind(tokens(call.usage.input_tokens))
    .bind(tokens(call.usage.output_tokens))
    .bind(tokens(call.usage.cache_write_tokens))
    .bind(tokens(call.usage.cache_read_tokens))
    // An unknown price is stored as 0 (the column is NOT NULL); the model
    // name in the row tells such calls apart.
    .bind(call.cost_usd.unwrap_or(0.0).max(0.0))
    .bind(i32::try_from(call.latency.as_millis()).unwrap_or(i32::MAX))
    .bind(if call.error.is_none() { "ok" } else { "error" })
    .bind(call.error.as_deref())
    .bind(context.conversation_id)
    .bind(context.user_id)
    .bind(context.request_id)
    .bind(context.search_run_id)
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
