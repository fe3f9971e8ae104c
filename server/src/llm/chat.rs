//! The chat call, provider-neutral: a system prompt, tool definitions and a
//! history of content blocks in; a stream of deltas out, ending with the
//! whole answer.
//!
//! The agent loop (`crate::agent`) speaks only these types. Each backend
//! translates them to its wire (Anthropic's Messages API with
//! `cache_control`, OpenAI-compatible chat completions, the offline planner)
//! and back; vendor types never leave the backend's module.
use super::{LlmError, StopReason, Task, Usage};
use futures_util::stream::BoxStream;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// One chat call.
#[derive(Clone, Debug, PartialEq)]
pub struct ChatRequest {
    pub task: Task,
    /// The stable instructions (identity, rules, the current request). With
    /// the tools, the prefix the first cache breakpoint covers.
    pub system: String,
    /// Shared: the tool list is built once per mode, not per call.
    pub tools: std::sync::Arc<[ToolSpec]>,
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

/// A content block, as stored in `ai_messages.content` and sent to models.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Block {
    Text {
        text: String,
    },
    /// A call the model asks the application to run.
    ToolUse {
        id: String,
        name: String,
        input: serde_json::Value,
    },
    /// The application's answer to the call `tool_use_id`. `content` is
    /// what the model reads: third-party text inside it is already wrapped
    /// by `llm::external`.
    ToolResult {
        tool_use_id: String,
        content: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        is_error: bool,
    },
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
