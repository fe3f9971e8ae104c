//! The provider of `MAXY_LLM_PROVIDER=none`: no network, no model. Every
//! call answers [`LlmError::Offline`] at once, and callers take their
//! deterministic path (the venue search ranks with its scorer) without
//! calling it a failure.
//!
//! The assistant's offline planner will answer its own tasks here; the tasks
//! it cannot do keep answering `Offline`.
use super::{Completion, CompletionRequest, LlmError, LlmProvider};

#[derive(Clone, Copy, Debug, Default)]
pub struct OfflineLlm;

#[async_trait::async_trait]
impl LlmProvider for OfflineLlm {
    fn name(&self) -> &'static str {
        "offline"
    }

    fn model(&self) -> &str {
        "none"
    }

    async fn complete(&self, _request: &CompletionRequest) -> Result<Completion, LlmError> {
        Err(LlmError::Offline)
    }
}
