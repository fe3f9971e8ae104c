//! One language-model call as the metrics keep it (`llm_calls`): what it was
//! for, the model, tokens, cost, latency, why it failed if it did, and whom
//! it served.
//!
//! Below both the tables (`db::llm_calls` stores it) and the provider layer
//! (`llm` makes it, and hands it to its `CallLog` port), so neither imports
//! the other (ADR 0030). `llm` re-exports these types; how a record is made
//! from a provider's answer (`CallRecord::of`) stays in `llm::record`.
use std::time::Duration;

/// What a call is for: recorded with its cost (`llm_calls.task`), and the
/// key of model routing (`llm::routing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// Stage 3 of the venue search.
    Rank,
    /// Reading the organizer's request into search criteria
    /// (`search::reading`), before stage 1.
    Parse,
    /// A turn of the assistant's chat (streamed, with tools).
    Chat,
    /// A short summary of the history cut from a long conversation.
    Summarize,
    /// Writing a text for a human to send (an email to an organizer or a
    /// venue).
    Draft,
    /// Sorting short items into known categories (a bulk task).
    Classify,
    /// Scoring which playbooks apply to a conversation (`seek_guidance`).
    Guidance,
}

impl Task {
    pub fn label(self) -> &'static str {
        match self {
            Self::Rank => "rank",
            Self::Parse => "parse",
            Self::Chat => "chat",
            Self::Summarize => "summarize",
            Self::Draft => "draft",
            Self::Classify => "classify",
            Self::Guidance => "guidance",
        }
    }
}

/// Tokens as the provider counted them; the cost is derived from them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    pub input_tokens: u32,
    pub output_tokens: u32,
    /// Tokens written to the prompt cache (billed above the input price).
    pub cache_write_tokens: u32,
    /// Tokens read from the prompt cache (billed far below it).
    pub cache_read_tokens: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CallRecord {
    pub task: Task,
    pub provider: &'static str,
    pub model: String,
    pub usage: Usage,
    /// `None`: the model is not in the price table.
    pub cost_usd: Option<f64>,
    pub latency: Duration,
    /// Why the call, or what it answered, was unusable; `None` when it served.
    /// Provider errors are already scrubbed of keys.
    pub error: Option<String>,
}

/// Who the call served, when known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CallContext {
    pub user_id: Option<i64>,
    pub request_id: Option<i64>,
    pub conversation_id: Option<i64>,
    /// The venue search whose finalists the call ranked.
    pub search_run_id: Option<i64>,
}
