//! The wire format of Anthropic's Messages API (`POST /v1/messages`):
//! request and response bodies, error bodies and `Retry-After`. Nothing here
//! leaves the `anthropic` module.
use crate::llm::{Completion, CompletionRequest, Role, StopReason, Usage};
use serde::{Deserialize, Serialize};
use std::time::Duration;

#[derive(Serialize)]
pub(super) struct WireRequest<'a> {
    model: &'a str,
    max_tokens: u32,
    #[serde(skip_serializing_if = "str::is_empty")]
    system: &'a str,
    messages: Vec<WireMessage<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f32>,
}

#[derive(Serialize)]
struct WireMessage<'a> {
    role: &'static str,
    content: &'a str,
}

impl<'a> WireRequest<'a> {
    pub(super) fn new(model: &'a str, request: &'a CompletionRequest) -> Self {
        WireRequest {
            model,
            max_tokens: request.max_tokens,
            system: &request.system,
            messages: request
                .messages
                .iter()
                .map(|m| WireMessage {
                    role: match m.role {
                        Role::User => "user",
                        Role::Assistant => "assistant",
                    },
                    content: &m.text,
                })
                .collect(),
            temperature: request.temperature,
        }
    }
}

#[derive(Deserialize)]
struct WireResponse {
    #[serde(rename = "type")]
    kind: String,
    model: String,
    content: Vec<WireBlock>,
    stop_reason: Option<String>,
    usage: WireUsage,
}

/// Only text blocks are read today; tool calls and thinking come with the chat.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum WireBlock {
    Text {
        text: String,
    },
    #[serde(other)]
    Other,
}

#[derive(Deserialize)]
struct WireUsage {
    input_tokens: u32,
    output_tokens: u32,
    #[serde(default)]
    cache_creation_input_tokens: Option<u32>,
    #[serde(default)]
    cache_read_input_tokens: Option<u32>,
}

/// A 2xx body as a completion (latency set by the caller), or why it is unusable.
pub(super) fn parse_message(body: &[u8], latency: Duration) -> Result<Completion, String> {
    let response: WireResponse = serde_json::from_slice(body)
        .map_err(|e| format!("answered a body that is not a Messages response ({e})"))?;
    if response.kind != "message" {
        return Err(format!(
            "answered an object of type {:?}, not a message",
            response.kind
        ));
    }
    let text: String = response
        .content
        .into_iter()
        .filter_map(|b| match b {
            WireBlock::Text { text } => Some(text),
            WireBlock::Other => None,
        })
        .collect();
    let stop_reason = stop_reason(response.stop_reason.as_deref());
    Ok(Completion {
        text,
        model: response.model,
        usage: Usage {
            input_tokens: response.usage.input_tokens,
            output_tokens: response.usage.output_tokens,
            cache_write_tokens: response.usage.cache_creation_input_tokens.unwrap_or(0),
            cache_read_tokens: response.usage.cache_read_input_tokens.unwrap_or(0),
        },
        latency,
        stop_reason,
    })
}

/// `{"type":"error","error":{"type":"…","message":"…"}}` as "type: message",
/// else the start of the body.
pub(super) fn error_message(body: &[u8]) -> String {
    let text = match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(json) => {
            let error = &json["error"];
            match (error["type"].as_str(), error["message"].as_str()) {
                (Some(kind), Some(message)) => format!("{kind}: {message}"),
                (None, Some(message)) => message.to_string(),
                _ => json.to_string(),
            }
        }
        Err(_) => String::from_utf8_lossy(body).into_owned(),
    };
    crate::outbound::quote(&text)
}

/// Anthropic's stop reason as ours; streamed answers use the same mapping.
pub(super) fn stop_reason(wire: Option<&str>) -> StopReason {
    match wire {
        Some("end_turn") => StopReason::EndTurn,
        Some("max_tokens") => StopReason::MaxTokens,
        Some("stop_sequence") => StopReason::StopSequence,
        Some("tool_use") => StopReason::ToolUse,
        Some(other) => StopReason::Other(other.to_string()),
        None => StopReason::Other("none".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::{Message, Task};

    #[test]
    fn the_request_has_the_messages_api_shape() {
        let request = CompletionRequest {
            task: Task::Rank,
            system: "sys".into(),
            messages: vec![Message::user("bonjour")],
            max_tokens: 100,
            temperature: Some(0.0),
            time_limit: None,
        };
        let json = serde_json::to_value(WireRequest::new("claude-haiku-4-5", &request))
            .unwrap_or_default();
        assert_eq!(
            json,
            serde_json::json!({
                "model": "claude-haiku-4-5", "max_tokens": 100, "system": "sys",
                "messages": [{"role": "user", "content": "bonjour"}], "temperature": 0.0
            })
        );
    }

    #[test]
    fn text_blocks_are_joined_and_others_skipped() {
        let body = br#"{"id":"msg_1","type":"message","role":"assistant","model":"claude-haiku-4-5-20251001",
            "content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"a"},{"type":"text","text":"b"}],
            "stop_reason":"max_tokens","stop_sequence":null,
            "usage":{"input_tokens":10,"output_tokens":2,"cache_read_input_tokens":5}}"#;
        let c = parse_message(body, Duration::ZERO).map_err(|e| e.to_string());
        let c = c.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.text, "ab");
        assert_eq!(c.stop_reason, StopReason::MaxTokens);
        assert_eq!(c.usage.cache_read_tokens, 5);
        assert_eq!(c.usage.cache_write_tokens, 0);
    }

    #[test]
    fn error_bodies_give_type_and_message() {
        let body =
            br#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
        assert_eq!(error_message(body), "overloaded_error: Overloaded");
        assert_eq!(error_message(b""), "(empty body)");
    }
}
