//! Language models: the provider trait, the Anthropic Messages client, the
//! price table, the wrapping of third-party text, and the per-call record
//! the metrics keep.
pub mod anthropic;
pub mod external;
pub mod pricing;
pub mod provider;
pub mod record;

pub use anthropic::{AnthropicClient, ClientBuildError};
pub use provider::{
    Completion, CompletionRequest, LlmError, LlmProvider, Message, Role, StopReason, Task, Usage,
};
pub use record::CallRecord;

use crate::config::{LlmBackend, LlmSettings};
use std::sync::Arc;

/// The configured provider; `None` when `MAXY_LLM_PROVIDER=none`. Build once
/// per process and share.
pub fn from_settings(
    settings: &LlmSettings,
) -> Result<Option<Arc<dyn LlmProvider>>, ClientBuildError> {
    Ok(match &settings.backend {
        LlmBackend::Offline => None,
        LlmBackend::Anthropic(a) => Some(Arc::new(AnthropicClient::new(
            a,
            &settings.model,
            settings.timeout,
        )?)),
    })
}
