//! The backend of `MAXY_LLM_PROVIDER=none`: no network, no model. Every
//! call answers [`LlmError::Offline`] at once and callers take their
//! deterministic path without calling it a failure (the venue search ranks
//! with its scorer; the chat's turn streams from the offline planner,
//! `crate::planner`, which lives beside the agent because it is domain
//! logic, not a model client).
use super::{ChatRequest, ChatStream, Completion, CompletionRequest, LlmError, LlmProvider};

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

    async fn stream(&self, _request: &ChatRequest) -> Result<ChatStream, LlmError> {
        Err(LlmError::Offline)
    }

    async fn is_offline_for(&self, _task: super::Task) -> bool {
        true
    }
}
