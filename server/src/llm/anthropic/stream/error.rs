//! Why a streamed answer cannot be used, and whether asking again may help.
use crate::llm::LlmError;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StreamError {
    /// The connection failed while the answer was arriving.
    #[error("the answer stream broke: {0}")]
    Transport(String),
    /// The bytes are not server-sent events (or not UTF-8).
    #[error("the answer stream is not valid server-sent events: {0}")]
    Sse(String),
    /// The provider sent an `error` event mid-stream (e.g. it became
    /// overloaded after the HTTP 200).
    #[error("the provider stopped the answer with {kind}: {message}")]
    Api { kind: String, message: String },
    /// A known event whose data is not what the API documents.
    #[error("malformed {event} event: {reason}")]
    Malformed { event: String, reason: String },
    /// The stream ended before `message_stop`: the answer is cut short.
    #[error("incomplete stream: it ended before message_stop")]
    Incomplete,
    /// Events that contradict each other (a delta for a block never
    /// started, a block of the wrong kind, an event before message_start…).
    #[error("inconsistent stream: {0}")]
    Inconsistent(String),
    /// The concatenated input fragments of a tool call are not JSON.
    #[error("tool call {name} (block {index}) has invalid input JSON: {reason}")]
    InvalidToolInput {
        index: usize,
        name: String,
        reason: String,
    },
}

/// Error types Anthropic documents as transient: the same request may
/// succeed later.
const RETRYABLE_API_ERRORS: [&str; 3] = ["overloaded_error", "api_error", "rate_limit_error"];

impl StreamError {
    /// Whether sending the same request again may succeed: transient
    /// provider errors and broken or cut connections, not answers the
    /// model or the decoder got wrong.
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Api { kind, .. } => RETRYABLE_API_ERRORS.contains(&kind.as_str()),
            Self::Transport(_) | Self::Incomplete => true,
            Self::Sse(_)
            | Self::Malformed { .. }
            | Self::Inconsistent(_)
            | Self::InvalidToolInput { .. } => false,
        }
    }
}

/// Retryable failures are the provider being unavailable; the others are an
/// unusable answer, as in the non-streaming client.
impl From<StreamError> for LlmError {
    fn from(error: StreamError) -> Self {
        if error.is_retryable() {
            LlmError::Unavailable(error.to_string())
        } else {
            LlmError::InvalidResponse(error.to_string())
        }
    }
}
