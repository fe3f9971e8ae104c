//! What a conversation's messages are made of: content blocks (text, a tool
//! call, a tool's answer), as `ai_messages.content` stores them and as a
//! chat call sends them to a model.
//!
//! Below both the tables (`db`) and the provider layer (`llm`), so neither
//! imports the other for it (ADR 0030). `llm::Block` re-exports it.
use serde::{Deserialize, Serialize};

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
