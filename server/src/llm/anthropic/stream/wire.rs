//! The data of each server-sent event of a streamed answer, as Anthropic
//! documents it, and its translation into [`StreamEvent`]s. Only what the
//! chat needs is read; unknown event, block and delta types are skipped so
//! that new API features do not break running streams.
use super::{StreamError, StreamEvent, UsageUpdate};
use crate::llm::Usage;
use serde::de::DeserializeOwned;
use serde::Deserialize;

#[derive(Deserialize)]
struct MessageStart {
    message: StartedMessage,
}

#[derive(Deserialize)]
struct StartedMessage {
    model: String,
    usage: StartUsage,
}

#[derive(Deserialize)]
struct StartUsage {
    input_tokens: u32,
    #[serde(default)]
    output_tokens: u32,
    #[serde(default)]
    cache_creation_input_tokens: Option<u32>,
    #[serde(default)]
    cache_read_input_tokens: Option<u32>,
}

#[derive(Deserialize)]
struct ContentBlockStart {
    index: usize,
    content_block: StartedBlock,
}

/// The block's initial content: text is usually empty, a tool's input `{}`
/// (its real input follows as fragments, so it is not read here).
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum StartedBlock {
    Text {
        text: String,
    },
    ToolUse {
        id: String,
        name: String,
    },
    /// Thinking, server tools…: not shown in the chat.
    #[serde(other)]
    Other,
}

#[derive(Deserialize)]
struct ContentBlockDelta {
    index: usize,
    delta: BlockDelta,
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum BlockDelta {
    TextDelta {
        text: String,
    },
    InputJsonDelta {
        partial_json: String,
    },
    /// Thinking, signatures, citations…
    #[serde(other)]
    Other,
}

#[derive(Deserialize)]
struct ContentBlockStop {
    index: usize,
}

#[derive(Deserialize)]
struct MessageDelta {
    delta: MessageChanges,
    usage: DeltaUsage,
}

#[derive(Deserialize)]
struct MessageChanges {
    #[serde(default)]
    stop_reason: Option<String>,
}

#[derive(Deserialize)]
struct DeltaUsage {
    output_tokens: u32,
    #[serde(default)]
    input_tokens: Option<u32>,
    #[serde(default)]
    cache_creation_input_tokens: Option<u32>,
    #[serde(default)]
    cache_read_input_tokens: Option<u32>,
}

#[derive(Deserialize)]
struct ErrorEvent {
    error: ErrorDetail,
}

#[derive(Deserialize)]
struct ErrorDetail {
    #[serde(rename = "type")]
    kind: String,
    message: String,
}

/// Just the `type` field, to name events sent without an `event:` line.
#[derive(Deserialize)]
struct Tagged {
    #[serde(rename = "type")]
    kind: String,
}

/// The one mapping of Anthropic's stop reasons, shared with the
/// non-streaming client so both paths report the same.
pub(super) use crate::llm::anthropic::wire::stop_reason;

/// One server-sent event (its `event:` name and `data:`) as the events it
/// carries: none for `ping` and unknown types, two for a text block that
/// starts with text.
pub(super) fn decode_event(name: &str, data: &str) -> Result<Vec<StreamEvent>, StreamError> {
    let name = if name.is_empty() || name == "message" {
        // No `event:` line: the data says what it is.
        serde_json::from_str::<Tagged>(data)
            .map(|t| t.kind)
            .unwrap_or_default()
    } else {
        name.to_string()
    };
    let events = match name.as_str() {
        "message_start" => {
            let MessageStart { message } = parse(&name, data)?;
            vec![StreamEvent::MessageStart {
                model: message.model,
                usage: Usage {
                    input_tokens: message.usage.input_tokens,
                    output_tokens: message.usage.output_tokens,
                    cache_write_tokens: message.usage.cache_creation_input_tokens.unwrap_or(0),
                    cache_read_tokens: message.usage.cache_read_input_tokens.unwrap_or(0),
                },
            }]
        }
        "content_block_start" => {
            let ContentBlockStart {
                index,
                content_block,
            } = parse(&name, data)?;
            match content_block {
                StartedBlock::Text { text } if text.is_empty() => {
                    vec![StreamEvent::TextStart { index }]
                }
                StartedBlock::Text { text } => vec![
                    StreamEvent::TextStart { index },
                    StreamEvent::TextDelta { index, text },
                ],
                StartedBlock::ToolUse { id, name } => {
                    vec![StreamEvent::ToolUseStart { index, id, name }]
                }
                StartedBlock::Other => vec![],
            }
        }
        "content_block_delta" => {
            let ContentBlockDelta { index, delta } = parse(&name, data)?;
            match delta {
                BlockDelta::TextDelta { text } => vec![StreamEvent::TextDelta { index, text }],
                BlockDelta::InputJsonDelta { partial_json } => {
                    vec![StreamEvent::ToolInputDelta {
                        index,
                        partial_json,
                    }]
                }
                BlockDelta::Other => vec![],
            }
        }
        "content_block_stop" => {
            let ContentBlockStop { index } = parse(&name, data)?;
            vec![StreamEvent::BlockStop { index }]
        }
        "message_delta" => {
            let MessageDelta { delta, usage } = parse(&name, data)?;
            vec![StreamEvent::MessageDelta {
                stop_reason: delta.stop_reason.as_deref().map(|s| stop_reason(Some(s))),
                usage: UsageUpdate {
                    output_tokens: usage.output_tokens,
                    input_tokens: usage.input_tokens,
                    cache_write_tokens: usage.cache_creation_input_tokens,
                    cache_read_tokens: usage.cache_read_input_tokens,
                },
            }]
        }
        "message_stop" => vec![StreamEvent::MessageStop],
        "error" => {
            let ErrorEvent { error } = parse(&name, data)?;
            return Err(StreamError::Api {
                kind: error.kind,
                message: error.message,
            });
        }
        // `ping` keeps the connection alive; unknown types are future
        // features this decoder can do without.
        _ => vec![],
    };
    Ok(events)
}

fn parse<T: DeserializeOwned>(event: &str, data: &str) -> Result<T, StreamError> {
    serde_json::from_str(data).map_err(|e| StreamError::Malformed {
        event: event.to_string(),
        reason: e.to_string(),
    })
}
