//! Request bodies of OpenAI's chat completions (`POST …/chat/completions`),
//! from the crate's neutral types. The system prompt is the first message;
//! tool calls travel in `tool_calls` of assistant messages, with their
//! arguments as a JSON string; each tool result is a message of its own
//! (`role: tool`) right after the assistant message that called it.
use crate::llm::chat::{Block, ChatMessage, ChatRequest, ChatRole, ToolSpec};
use crate::llm::{CompletionRequest, Role};
use serde::Serialize;

#[derive(Serialize)]
pub(super) struct WireRequest<'a> {
    model: &'a str,
    messages: Vec<WireMessage<'a>>,
    max_tokens: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<WireTool<'a>>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    stream_options: Option<StreamOptions>,
}

/// Asks for a last chunk with the usage: without it a streamed call would
/// have no token counts, hence no cost.
#[derive(Serialize)]
struct StreamOptions {
    include_usage: bool,
}

#[derive(Debug, PartialEq, Serialize)]
#[serde(tag = "role", rename_all = "snake_case")]
enum WireMessage<'a> {
    System {
        content: &'a str,
    },
    User {
        content: String,
    },
    Assistant {
        /// `null` when the turn is only tool calls (servers want the field).
        content: Option<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<WireToolCall<'a>>,
    },
    Tool {
        tool_call_id: &'a str,
        content: String,
    },
}

#[derive(Debug, PartialEq, Serialize)]
struct WireToolCall<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    function: WireFunctionCall<'a>,
}

#[derive(Debug, PartialEq, Serialize)]
struct WireFunctionCall<'a> {
    name: &'a str,
    /// A JSON document as a string, as the API wants it.
    arguments: String,
}

#[derive(Serialize)]
struct WireTool<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    function: WireFunction<'a>,
}

#[derive(Serialize)]
struct WireFunction<'a> {
    name: &'a str,
    description: &'a str,
    parameters: &'a serde_json::Value,
}

/// Tool results have no error flag on this wire: the model reads it from
/// the text.
const ERROR_PREFIX: &str = "ERROR: ";

impl<'a> WireRequest<'a> {
    /// A whole (non-streamed) completion of plain text turns.
    pub(super) fn completion(model: &'a str, request: &'a CompletionRequest) -> Self {
        let mut messages = system(&request.system);
        messages.extend(request.messages.iter().map(|m| match m.role {
            Role::User => WireMessage::User {
                content: m.text.clone(),
            },
            Role::Assistant => WireMessage::Assistant {
                content: Some(m.text.clone()),
                tool_calls: Vec::new(),
            },
        }));
        WireRequest {
            model,
            messages,
            max_tokens: request.max_tokens,
            temperature: request.temperature,
            tools: Vec::new(),
            stream: false,
            stream_options: None,
        }
    }

    /// A streamed chat turn with tools.
    pub(super) fn chat(model: &'a str, request: &'a ChatRequest) -> Self {
        let mut messages = system(&request.system);
        for message in &request.messages {
            translate(message, &mut messages);
        }
        WireRequest {
            model,
            messages,
            max_tokens: request.max_tokens,
            temperature: None,
            tools: request.tools.iter().map(tool).collect(),
            stream: true,
            stream_options: Some(StreamOptions {
                include_usage: true,
            }),
        }
    }
}

fn system(prompt: &str) -> Vec<WireMessage<'_>> {
    if prompt.is_empty() {
        Vec::new()
    } else {
        vec![WireMessage::System { content: prompt }]
    }
}

fn tool(spec: &ToolSpec) -> WireTool<'_> {
    WireTool {
        kind: "function",
        function: WireFunction {
            name: &spec.name,
            description: &spec.description,
            parameters: &spec.input_schema,
        },
    }
}

/// One neutral message as one or more wire messages: a user message's tool
/// results come first (they answer the assistant message just before),
/// then its text, if any.
fn translate<'a>(message: &'a ChatMessage, out: &mut Vec<WireMessage<'a>>) {
    let text = message.text();
    match message.role {
        ChatRole::User => {
            for block in &message.content {
                if let Block::ToolResult {
                    tool_use_id,
                    content,
                    is_error,
                } = block
                {
                    out.push(WireMessage::Tool {
                        tool_call_id: tool_use_id,
                        content: if *is_error {
                            format!("{ERROR_PREFIX}{content}")
                        } else {
                            content.clone()
                        },
                    });
                }
            }
            if !text.is_empty() {
                out.push(WireMessage::User { content: text });
            }
        }
        ChatRole::Assistant => {
            let tool_calls: Vec<_> = message
                .content
                .iter()
                .filter_map(|block| match block {
                    Block::ToolUse { id, name, input } => Some(WireToolCall {
                        id,
                        kind: "function",
                        function: WireFunctionCall {
                            name,
                            arguments: input.to_string(),
                        },
                    }),
                    _ => None,
                })
                .collect();
            let content = if text.is_empty() && !tool_calls.is_empty() {
                None
            } else {
                Some(text)
            };
            out.push(WireMessage::Assistant {
                content,
                tool_calls,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::Task;
    use serde_json::json;

    #[test]
    fn tool_calls_and_results_take_the_shape_of_the_wire() {
        let request = ChatRequest {
            task: Task::Chat,
            system: "Tu es Maxy.".into(),
            tools: vec![ToolSpec {
                name: "count_members".into(),
                description: "Compte les lieux.".into(),
                input_schema: json!({"type": "object", "properties": {}}),
            }]
            .into(),
            messages: vec![
                ChatMessage::user_text("Combien ?"),
                ChatMessage {
                    role: ChatRole::Assistant,
                    content: vec![Block::ToolUse {
                        id: "call_1".into(),
                        name: "count_members".into(),
                        input: json!({"pool": "paris"}),
                    }],
                },
                ChatMessage {
                    role: ChatRole::User,
                    content: vec![
                        Block::ToolResult {
                            tool_use_id: "call_1".into(),
                            content: "{\"count\": 3}".into(),
                            is_error: false,
                        },
                        Block::Text {
                            text: "Et à Lyon ?".into(),
                        },
                    ],
                },
            ],
            max_tokens: 100,
            time_limit: None,
        };
        let body = serde_json::to_value(WireRequest::chat("m", &request)).unwrap_or_default();
        assert_eq!(
            body["messages"],
            json!([
                {"role": "system", "content": "Tu es Maxy."},
                {"role": "user", "content": "Combien ?"},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "call_1", "type": "function",
                     "function": {"name": "count_members", "arguments": "{\"pool\":\"paris\"}"}}
                ]},
                {"role": "tool", "tool_call_id": "call_1", "content": "{\"count\": 3}"},
                {"role": "user", "content": "Et à Lyon ?"}
            ])
        );
        assert_eq!(body["stream"], json!(true));
        assert_eq!(body["stream_options"], json!({"include_usage": true}));
        assert_eq!(body["tools"][0]["type"], json!("function"));
    }

    #[test]
    fn a_failed_tool_says_so_in_its_text() {
        let message = ChatMessage {
            role: ChatRole::User,
            content: vec![Block::ToolResult {
                tool_use_id: "c".into(),
                content: "Demande introuvable.".into(),
                is_error: true,
            }],
        };
        let mut out = Vec::new();
        translate(&message, &mut out);
        assert_eq!(
            out,
            vec![WireMessage::Tool {
                tool_call_id: "c",
                content: "ERROR: Demande introuvable.".into()
            }]
        );
    }
}
