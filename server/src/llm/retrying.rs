//! The retry loop every model client runs its HTTP attempts in:
//! `outbound::RetryPolicy` (backoff, `Retry-After`), each retry logged with
//! the task, the whole bounded by the caller's `time_limit` when it set one.
use super::{LlmError, Task};
use crate::outbound::{Failure, RetryPolicy};
use std::future::Future;
use std::time::Duration;

/// `attempt` under `policy`, within `time_limit`. `place` names where the
/// call goes (already redacted) in the errors.
pub(super) async fn with_retries<T, Fut>(
    policy: &RetryPolicy,
    place: &str,
    task: Task,
    time_limit: Option<Duration>,
    attempt: impl FnMut() -> Fut,
) -> Result<T, LlmError>
where
    Fut: Future<Output = Result<T, Failure<LlmError>>>,
{
    let call = policy.run(
        place,
        LlmError::Unavailable,
        attempt,
        |attempt, wait, reason| {
            tracing::info!(
                task = task.label(),
                attempt,
                wait_ms = wait.as_millis() as u64,
                "LLM call failed, retrying: {reason}"
            );
        },
    );
    match time_limit {
        None => call.await,
        Some(limit) => tokio::time::timeout(limit, call).await.map_err(|_| {
            LlmError::Unavailable(format!(
                "{place} gave no answer within the caller's limit of {} ms",
                limit.as_millis()
            ))
        })?,
    }
}
