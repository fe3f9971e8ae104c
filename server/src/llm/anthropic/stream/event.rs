//! What a streamed answer says, event by event, in the crate's own types.
use crate::llm::{StopReason, Usage};

/// One meaningful event of a streamed answer. `ping`s and event types this
/// module does not know are not events: they never reach the caller.
#[derive(Clone, Debug, PartialEq)]
pub enum StreamEvent {
    /// The answer starts. `usage` counts the prompt (input and cache tokens)
    /// and the output so far (usually 1).
    MessageStart { model: String, usage: Usage },
    /// A text block opens at `index` (its text follows as deltas).
    TextStart { index: usize },
    /// More text for the text block at `index`.
    TextDelta { index: usize, text: String },
    /// The model calls tool `name`; the call's id is `id`, its input follows
    /// as JSON fragments.
    ToolUseStart {
        index: usize,
        id: String,
        name: String,
    },
    /// A fragment of the tool call's input JSON: only the concatenation of
    /// all fragments of a block is JSON.
    ToolInputDelta { index: usize, partial_json: String },
    /// The block at `index` is complete. Also sent for blocks of kinds this
    /// module skips (thinking…), which never had a start event.
    BlockStop { index: usize },
    /// Top-level changes near the end: why the model stopped and the usage
    /// so far.
    MessageDelta {
        /// `None` when the provider has not said yet.
        stop_reason: Option<StopReason>,
        usage: UsageUpdate,
    },
    /// The answer is complete: nothing follows.
    MessageStop,
}

/// Usage as `message_delta` reports it: counts are CUMULATIVE for the whole
/// answer, so each update replaces the previous one (never add them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UsageUpdate {
    pub output_tokens: u32,
    /// Only present when the provider restates them; `None` keeps the
    /// value from `message_start`.
    pub input_tokens: Option<u32>,
    pub cache_write_tokens: Option<u32>,
    pub cache_read_tokens: Option<u32>,
}
