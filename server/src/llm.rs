//! Language models: the provider trait, its backends (the Anthropic
//! Messages client, whole or streamed, the OpenAI-compatible client, the
//! offline planner), the routing of tasks to models, the monthly budget,
//! the recording wrapper and the port it keeps calls through ([`CallLog`]),
//! the price table, the prompt-cache plan of chat calls, and the wrapping of
//! third-party text.
//!
//! This layer knows no table: calls are kept, and the month's spend read,
//! through [`CallLog`], which the server implements on the database (the
//! top-level `call_log` module). The content blocks and the call record it
//! shares with the tables live below both (`crate::conversation_content`,
//! `crate::call_record`) and are re-exported here (ADR 0030).
pub mod anthropic;
pub mod budget;
pub mod cache;
pub mod call_log;
pub mod chat;
pub mod external;
mod fenced;
pub mod offline;
pub mod openai;
pub mod pricing;
pub mod provider;
pub mod record;
pub mod recording;
mod retrying;
pub mod routed;
pub mod routing;

pub use crate::call_record::{CallContext, CallRecord};
pub use anthropic::{AnthropicClient, ClientBuildError};
pub use call_log::{CallLog, CallLogError};
pub use chat::{
    Block, ChatAnswer, ChatEvent, ChatMessage, ChatRequest, ChatRole, ChatStream, ToolList,
    ToolSpec,
};
pub use fenced::unfenced;
pub use offline::OfflineLlm;
pub use openai::{OpenAiBuildError, OpenAiClient};
pub use provider::{
    Check, Completion, CompletionRequest, LlmError, LlmProvider, Message, Role, StopReason, Task,
    Usage,
};
pub use recording::{RecordedCall, Recording};
pub use routed::Routed;
pub use routing::Router;

use crate::config::{LlmBackend, LlmSettings};
use std::sync::Arc;

/// Why a configured provider could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ProviderBuildError {
    #[error(transparent)]
    Anthropic(#[from] ClientBuildError),
    #[error(transparent)]
    OpenAi(#[from] OpenAiBuildError),
}

/// The configured provider: [`OfflineLlm`] when `MAXY_LLM_PROVIDER=none`.
/// Build once per process and share; wrap it in a [`Recording`] per unit of
/// work. [`Router::from_settings`] builds it with the bulk model beside it.
pub fn from_settings(settings: &LlmSettings) -> Result<Arc<dyn LlmProvider>, ProviderBuildError> {
    build(settings, &settings.model)
}

/// What the server's callers share: the configured providers behind the
/// task routing and the month's budget ([`Routed`]), read from `log` (the
/// server passes its pool, the top-level `call_log` module adapting it).
pub fn for_server(
    settings: &LlmSettings,
    log: impl CallLog + 'static,
) -> Result<Arc<dyn LlmProvider>, ProviderBuildError> {
    Ok(Arc::new(Routed::new(
        Router::from_settings(settings)?,
        log,
        budget::BudgetSettings::from(settings),
    )))
}

/// The configured backend asking for `model`.
fn build(settings: &LlmSettings, model: &str) -> Result<Arc<dyn LlmProvider>, ProviderBuildError> {
    Ok(match &settings.backend {
        LlmBackend::Offline => Arc::new(OfflineLlm),
        LlmBackend::Anthropic(a) => Arc::new(AnthropicClient::new(a, model, settings.timeout)?),
        LlmBackend::OpenAi(o) => Arc::new(OpenAiClient::new(o, model, settings.timeout)?),
    })
}
