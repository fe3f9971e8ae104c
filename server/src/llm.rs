//! Language models: the provider trait, its backends (the Anthropic
//! Messages client, whole or streamed, the offline provider), the recording
//! wrapper, the price table, the prompt-cache plan of chat calls, the
//! wrapping of third-party text, and the per-call record the metrics keep.
pub mod anthropic;
pub mod cache;
pub mod chat;
pub mod external;
mod fenced;
pub mod offline;
pub mod pricing;
pub mod provider;
pub mod record;
pub mod recording;

pub use anthropic::{AnthropicClient, ClientBuildError};
pub use chat::{
    Block, ChatAnswer, ChatEvent, ChatMessage, ChatRequest, ChatRole, ChatStream, ToolSpec,
};
pub use fenced::unfenced;
pub use offline::OfflineLlm;
pub use provider::{
    Check, Completion, CompletionRequest, LlmError, LlmProvider, Message, Role, StopReason, Task,
    Usage,
};
pub use record::CallRecord;
pub use recording::{RecordedCall, Recording};

use crate::config::{LlmBackend, LlmSettings};
use std::sync::Arc;

/// The configured provider: [`OfflineLlm`] when `MAXY_LLM_PROVIDER=none`.
/// Build once per process and share; wrap it in a [`Recording`] per unit of
/// work.
pub fn from_settings(settings: &LlmSettings) -> Result<Arc<dyn LlmProvider>, ClientBuildError> {
    Ok(match &settings.backend {
        LlmBackend::Offline => Arc::new(OfflineLlm),
        LlmBackend::Anthropic(a) => {
            Arc::new(AnthropicClient::new(a, &settings.model, settings.timeout)?)
        }
    })
}
