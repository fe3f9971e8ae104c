//! The chat call, provider-neutral: a system prompt, tool definitions and a
//! history of content blocks in; a stream of deltas out, ending with the
//! whole answer.
//!
//! The agent loop (`crate::agent`) speaks only these types. Each backend
//! translates them to its wire (Anthropic's Messages API with
//! `cache_control`, OpenAI-compatible chat completions, the offline planner)
//! and back; vendor types never leave the backend's module.
use super::{LlmError, StopReason, Task, Usage};
/// Shared with the tables (ADR 0030): see [`crate::conversation_content`].
pub use crate::conversation_content::Block;
use futures_util::stream::BoxStream;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::sync::Arc;
use std::time::Duration;

/// One chat call.
#[derive(Clone, Debug, PartialEq)]
pub struct ChatRequest {
    pub task: Task,
    /// The stable instructions (identity, rules, the current request). With
    /// the tools, the prefix the first cache breakpoint covers.
    pub system: String,
    /// Shared: the tool list is built once per mode, not per call.
    pub tools: ToolList,
    /// Alternating user / assistant, starting with the user; tool results
    /// travel in user messages right after the assistant message that
    /// called them (the history bound never separates the two).
    pub messages: Vec<ChatMessage>,
    pub max_tokens: u32,
    /// The longest the caller waits for the answer to START (retries
    /// included); once deltas flow, the provider's per-read timeout applies.
    pub time_limit: Option<Duration>,
}

/// A tool the model may call: its name, what it is for, and the JSON Schema
/// of its input (generated from the Rust argument type).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub input_schema: serde_json::Value,
}

/// The tools of a chat call, with what every call would otherwise compute
/// again from them: their size as the cache plan counts it, and their JSON
/// (`[{name, description, input_schema}]`, Anthropic's wire form), written
/// once when the list is built. Cloning shares all three.
#[derive(Clone, Debug)]
pub struct ToolList {
    specs: Arc<[ToolSpec]>,
    chars: u64,
    /// `None` only if serialising failed, which strings and JSON values
    /// never do; the body then writes the specs itself.
    json: Option<Arc<RawValue>>,
}

impl ToolList {
    /// Characters of every tool's name, description and schema JSON: the
    /// cache plan's estimate of the prompt prefix the tools take.
    pub fn chars(&self) -> u64 {
        self.chars
    }

    /// The list as a JSON array of `{name, description, input_schema}`.
    pub fn json(&self) -> Option<&RawValue> {
        self.json.as_deref()
    }
}

impl From<Vec<ToolSpec>> for ToolList {
    fn from(specs: Vec<ToolSpec>) -> Self {
        let count = |text: &str| text.chars().count() as u64;
        let chars = specs
            .iter()
            .map(|t| count(&t.name) + count(&t.description) + count(&t.input_schema.to_string()))
            .sum();
        let json = serde_json::value::to_raw_value(&specs).ok().map(Arc::from);
        ToolList {
            specs: specs.into(),
            chars,
            json,
        }
    }
}

impl FromIterator<ToolSpec> for ToolList {
    fn from_iter<I: IntoIterator<Item = ToolSpec>>(specs: I) -> Self {
        specs.into_iter().collect::<Vec<_>>().into()
    }
}

impl std::ops::Deref for ToolList {
    type Target = [ToolSpec];
    fn deref(&self) -> &[ToolSpec] {
        &self.specs
    }
}

impl PartialEq for ToolList {
    fn eq(&self, other: &Self) -> bool {
        self.specs == other.specs
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatRole {
    User,
    Assistant,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ChatMessage {
    pub role: ChatRole,
    pub content: Vec<Block>,
}

impl ChatMessage {
    pub fn user_text(text: impl Into<String>) -> Self {
        ChatMessage {
            role: ChatRole::User,
            content: vec![Block::Text { text: text.into() }],
        }
    }

    pub fn assistant_text(text: impl Into<String>) -> Self {
        ChatMessage {
            role: ChatRole::Assistant,
            content: vec![Block::Text { text: text.into() }],
        }
    }

    /// The message's text blocks, joined.
    pub fn text(&self) -> String {
        self.content
            .iter()
            .filter_map(|b| match b {
                Block::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }
}

/// What a chat stream yields, in order: `Started`, then any number of
/// deltas, then exactly one `Finished` (or an error, after which nothing).
#[derive(Clone, Debug, PartialEq)]
pub enum ChatEvent {
    /// The model answered; `model` as the provider names it. `usage` is
    /// what is known at the start (Anthropic reports the input and cache
    /// tokens here; others only at the end, then it is zero): a stream cut
    /// before `Finished` was still billed for it.
    Started {
        model: String,
        usage: Usage,
    },
    TextDelta {
        text: String,
    },
    /// A tool call opens; its input follows as JSON fragments.
    ToolUseStart {
        id: String,
        name: String,
    },
    /// A fragment of the input of the tool call `id` (only all fragments
    /// together are JSON).
    ToolInputDelta {
        id: String,
        partial_json: String,
    },
    /// The whole answer, as the non-streaming API would have given it.
    Finished(ChatAnswer),
}

#[derive(Clone, Debug, PartialEq)]
pub struct ChatAnswer {
    pub model: String,
    /// Text and tool calls (`Block::ToolUse`), in the order written.
    pub content: Vec<Block>,
    pub usage: Usage,
    pub stop_reason: StopReason,
    /// From the request to the last event, retries included.
    pub latency: Duration,
}

impl ChatAnswer {
    /// The tool calls of the answer: (id, name, input).
    pub fn tool_calls(&self) -> impl Iterator<Item = (&str, &str, &serde_json::Value)> {
        self.content.iter().filter_map(|b| match b {
            Block::ToolUse { id, name, input } => Some((id.as_str(), name.as_str(), input)),
            _ => None,
        })
    }
}

/// A streamed answer. Dropping it cancels the call (the user pressed stop).
pub type ChatStream = BoxStream<'static, Result<ChatEvent, LlmError>>;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_tool_list_keeps_its_json_and_its_size_as_the_specs_give_them() {
        let specs = vec![
            ToolSpec {
                name: "get_member".into(),
                description: "Fiche d'un lieu « par code »".into(),
                input_schema: json!({"type": "object", "properties": {"code": {"type": "string"}}}),
            },
            ToolSpec {
                name: "count_members".into(),
                description: String::new(),
                input_schema: json!({"type": "object"}),
            },
        ];
        let list = ToolList::from(specs.clone());
        let json: serde_json::Value = serde_json::from_str(list.json().unwrap().get()).unwrap();
        assert_eq!(json, serde_json::to_value(&specs).unwrap());
        assert_eq!(json[0]["name"], "get_member");
        let chars = |t: &ToolSpec| {
            (t.name.chars().count()
                + t.description.chars().count()
                + t.input_schema.to_string().chars().count()) as u64
        };
        assert_eq!(list.chars(), specs.iter().map(chars).sum::<u64>());
        assert_eq!(&list[..], &specs[..]);
        let empty = ToolList::from(Vec::new());
        assert_eq!(
            (empty.len(), empty.chars(), empty.json().map(RawValue::get)),
            (0, 0, Some("[]"))
        );
    }
}
