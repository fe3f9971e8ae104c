//! What every language-model backend offers: one non-streaming completion.
//! Vendor wire types stay inside each implementation; callers see a system
//! prompt and messages in, text plus usage out.
//!
//! "No model configured" is a backend too ([`super::OfflineLlm`]), and
//! recording a call is a wrapper around any backend ([`super::Recording`]),
//! so callers hold one `dyn LlmProvider` and never branch on either.
//!
//! The chat's streamed calls with tools use the types of [`super::chat`]
//! through [`LlmProvider::stream`].
use super::chat::{ChatRequest, ChatStream};
use std::time::Duration;

/// Shared with the tables (ADR 0030): see [`crate::call_record`].
pub use crate::call_record::{Task, Usage};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    pub role: Role,
    pub text: String,
}

impl Message {
    pub fn user(text: impl Into<String>) -> Self {
        Message {
            role: Role::User,
            text: text.into(),
        }
    }

    /// A turn the model gave, replayed so a correction can refer to it.
    pub fn assistant(text: impl Into<String>) -> Self {
        Message {
            role: Role::Assistant,
            text: text.into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct CompletionRequest {
    pub task: Task,
    pub system: String,
    /// Alternating, starting with the user.
    pub messages: Vec<Message>,
    pub max_tokens: u32,
    /// `None`: the provider's default.
    pub temperature: Option<f32>,
    /// The longest the caller waits for this call, retries included; past
    /// it the provider gives up and the call fails as unavailable (and is
    /// recorded so). `None`: the provider's own retry policy bounds it.
    pub time_limit: Option<Duration>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The model finished on its own.
    EndTurn,
    /// Cut at `max_tokens`: the text is probably incomplete.
    MaxTokens,
    StopSequence,
    /// The model called tools and waits for their results.
    ToolUse,
    /// Anything else the provider reports (e.g. a refusal), as it says it.
    Other(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Completion {
    pub text: String,
    /// The model that answered, as the provider names it (often dated).
    pub model: String,
    pub usage: Usage,
    /// From the first attempt to the answer, retries included.
    pub latency: Duration,
    pub stop_reason: StopReason,
}

#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// Network failure, timeout, or a 429/5xx that outlived the retries.
    #[error("the language model is unavailable: {0}")]
    Unavailable(String),
    /// The provider refused the request (4xx other than 429): retrying the
    /// same request cannot help.
    #[error("the language model refused the request: {0}")]
    Rejected(String),
    /// A 2xx answer that is not a completion.
    #[error("the language model answered something unusable: {0}")]
    InvalidResponse(String),
    /// A completion the caller's check refused (invalid JSON, unknown
    /// codes…): see [`LlmProvider::complete_checked`].
    #[error("unusable answer: {0}")]
    Unusable(String),
    /// No language model is configured (`MAXY_LLM_PROVIDER=none`): nothing
    /// was called, the caller takes its deterministic path. Not a failure:
    /// it is neither recorded nor shown as one.
    #[error("no language model is configured")]
    Offline,
}

/// What a caller accepts as an answer: `Err(reason)` for one it cannot use.
pub type Check<'a> = &'a (dyn Fn(&Completion) -> Result<(), String> + Send + Sync);

/// A language-model backend picked by configuration (`MAXY_LLM_PROVIDER`).
#[async_trait::async_trait]
pub trait LlmProvider: Send + Sync {
    /// `anthropic`, …: recorded with each call (`llm_calls.provider`).
    fn name(&self) -> &'static str;
    /// The configured model.
    fn model(&self) -> &str;
    async fn complete(&self, request: &CompletionRequest) -> Result<Completion, LlmError>;

    /// [`complete`](Self::complete), then `check` on the answer: one the
    /// caller cannot use comes back as [`LlmError::Unusable`]. Through this
    /// method a wrapper sees the verdict, so the recording wrapper stores an
    /// unusable answer as a failed call with its tokens and cost.
    async fn complete_checked(
        &self,
        request: &CompletionRequest,
        check: Check<'_>,
    ) -> Result<Completion, LlmError> {
        let completion = self.complete(request).await?;
        check(&completion).map_err(LlmError::Unusable)?;
        Ok(completion)
    }

    /// A chat call with tools, streamed. Backends without one answer
    /// [`LlmError::Offline`] and the agent uses its offline planner.
    async fn stream(&self, _request: &ChatRequest) -> Result<ChatStream, LlmError> {
        Err(LlmError::Offline)
    }

    /// Calls for `task` answer [`LlmError::Offline`] without reaching any
    /// model (none is configured, or the month's cap sends the task to
    /// none): the recording wrapper then opens no `model_call` span, so an
    /// operator's traces hold only calls that were made.
    async fn is_offline_for(&self, _task: Task) -> bool {
        false
    }
}
