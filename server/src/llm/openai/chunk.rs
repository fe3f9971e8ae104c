//! One chunk of a streamed chat completion (`data: {…}`), as OpenAI
//! documents it and llama.cpp, vLLM, Ollama and OpenRouter send it. Fields
//! the chat does not need (logprobs, reasoning…) are not read; absent and
//! `null` fields are the same.
use super::response::WireUsage;
use serde::{Deserialize, Deserializer};

#[derive(Debug, Default, Deserialize)]
pub(super) struct Chunk {
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub choices: Vec<ChunkChoice>,
    /// Only in the last chunk (with `include_usage`), whose `choices` is
    /// empty; some servers also put it on the chunk with the finish reason.
    #[serde(default)]
    pub usage: Option<WireUsage>,
    /// A failure after the HTTP 200 (OpenRouter, vLLM).
    #[serde(default)]
    pub error: Option<serde_json::Value>,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct ChunkChoice {
    #[serde(default)]
    pub delta: Option<Delta>,
    #[serde(default)]
    pub finish_reason: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct Delta {
    #[serde(default)]
    pub content: Option<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub tool_calls: Vec<ToolCallDelta>,
}

/// A fragment of one tool call: the first carries its id and name, the
/// next ones pieces of its arguments (a JSON document cut anywhere).
#[derive(Debug, Default, Deserialize)]
pub(super) struct ToolCallDelta {
    /// Which call of the answer; some servers leave it out when there is
    /// one (the position in the list stands in).
    #[serde(default)]
    pub index: Option<usize>,
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub function: Option<FunctionDelta>,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct FunctionDelta {
    #[serde(default)]
    pub name: Option<String>,
    /// A fragment of the JSON text; a server that sends the arguments as an
    /// object at once is read as that object's text.
    #[serde(default, deserialize_with = "json_text")]
    pub arguments: Option<String>,
}

fn null_as_empty<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(deserializer)?.unwrap_or_default())
}

fn json_text<'de, D>(deserializer: D) -> Result<Option<String>, D::Error>
where
    D: Deserializer<'de>,
{
    Ok(
        match Option::<serde_json::Value>::deserialize(deserializer)? {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::String(text)) => Some(text),
            Some(other) => Some(other.to_string()),
        },
    )
}
