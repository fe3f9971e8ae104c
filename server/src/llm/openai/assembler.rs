//! Folds the chunks of a streamed chat completion into the neutral
//! [`ChatEvent`]s as they come, and into the whole answer at `[DONE]`.
//!
//! Tool calls arrive as fragments keyed by their `index`: the first names
//! the call, the next ones carry pieces of its arguments. A call is
//! announced ([`ChatEvent::ToolUseStart`]) once its name is known; its
//! arguments are parsed only at the end, when all pieces are in.
use super::chunk::{Chunk, ToolCallDelta};
use super::response::finish_reason;
use crate::llm::chat::{Block, ChatAnswer, ChatEvent};
use crate::llm::{LlmError, StopReason, Usage};
use std::collections::BTreeMap;
use std::time::Duration;

#[derive(Debug)]
pub(super) struct Assembler {
    /// The configured model, for servers that do not name theirs.
    fallback_model: String,
    model: Option<String>,
    /// Text and tool calls, in the order written.
    parts: Vec<Part>,
    /// A tool call's `index` → its place in `parts`.
    calls: BTreeMap<usize, usize>,
    stop_reason: Option<StopReason>,
    usage: Usage,
}

#[derive(Debug)]
enum Part {
    Text(String),
    Call {
        id: String,
        name: String,
        arguments: String,
        /// `ToolUseStart` was sent (the name is known).
        announced: bool,
    },
}

impl Assembler {
    pub(super) fn new(fallback_model: &str) -> Self {
        Assembler {
            fallback_model: fallback_model.to_string(),
            model: None,
            parts: Vec::new(),
            calls: BTreeMap::new(),
            stop_reason: None,
            usage: Usage::default(),
        }
    }

    /// The events one chunk's data carries (`Started` before the first).
    pub(super) fn push(&mut self, data: &str) -> Result<Vec<ChatEvent>, LlmError> {
        let chunk: Chunk = serde_json::from_str(data).map_err(|e| {
            LlmError::InvalidResponse(format!("a streamed chunk is not JSON as expected: {e}"))
        })?;
        if let Some(error) = chunk.error {
            // The server gave up after its 200: as if it had answered 5xx.
            let message = error["message"]
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| error.to_string());
            return Err(LlmError::Unavailable(format!(
                "the server stopped the answer: {}",
                crate::outbound::quote(&message)
            )));
        }
        let mut events = Vec::new();
        if self.model.is_none() {
            let model = chunk
                .model
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| self.fallback_model.clone());
            // OpenAI-compatible servers report usage in the last chunk only.
            events.push(ChatEvent::Started {
                model: model.clone(),
                usage: Usage::default(),
            });
            self.model = Some(model);
        }
        if let Some(usage) = chunk.usage {
            self.usage = usage.usage();
        }
        // The chat asks for one choice (no `n`).
        let Some(choice) = chunk.choices.into_iter().next() else {
            return Ok(events);
        };
        if let Some(delta) = choice.delta {
            if let Some(text) = delta.content.filter(|t| !t.is_empty()) {
                match self.parts.last_mut() {
                    Some(Part::Text(so_far)) => so_far.push_str(&text),
                    _ => self.parts.push(Part::Text(text.clone())),
                }
                events.push(ChatEvent::TextDelta { text });
            }
            for (position, fragment) in delta.tool_calls.into_iter().enumerate() {
                self.tool_fragment(position, fragment, &mut events);
            }
        }
        if let Some(reason) = choice.finish_reason {
            self.stop_reason = Some(finish_reason(Some(&reason)));
        }
        Ok(events)
    }

    fn tool_fragment(
        &mut self,
        position: usize,
        fragment: ToolCallDelta,
        events: &mut Vec<ChatEvent>,
    ) {
        let index = fragment.index.unwrap_or(position);
        let (name, arguments) = fragment
            .function
            .map(|f| (f.name, f.arguments))
            .unwrap_or_default();
        let at = *self.calls.entry(index).or_insert_with(|| {
            self.parts.push(Part::Call {
                id: String::new(),
                name: String::new(),
                arguments: String::new(),
                announced: false,
            });
            self.parts.len() - 1
        });
        let Some(Part::Call {
            id: call_id,
            name: call_name,
            arguments: call_arguments,
            announced,
        }) = self.parts.get_mut(at)
        else {
            return;
        };
        if call_id.is_empty() {
            if let Some(id) = fragment.id.filter(|id| !id.is_empty()) {
                *call_id = id;
            }
        }
        let arguments = arguments.unwrap_or_default();
        if *announced {
            if !arguments.is_empty() {
                call_arguments.push_str(&arguments);
                events.push(ChatEvent::ToolInputDelta {
                    id: call_id.clone(),
                    partial_json: arguments,
                });
            }
            return;
        }
        // Not announced yet: keep what came until the name is known.
        if let Some(name) = name {
            call_name.push_str(&name);
        }
        call_arguments.push_str(&arguments);
        if call_name.is_empty() {
            return;
        }
        if call_id.is_empty() {
            // Some local servers send no id; the history needs one to pair
            // the call with its result.
            *call_id = format!("call_{index}");
        }
        *announced = true;
        events.push(ChatEvent::ToolUseStart {
            id: call_id.clone(),
            name: call_name.clone(),
        });
        if !call_arguments.is_empty() {
            events.push(ChatEvent::ToolInputDelta {
                id: call_id.clone(),
                partial_json: call_arguments.clone(),
            });
        }
    }

    /// The whole answer, at `[DONE]`. Each tool call's arguments must be a
    /// JSON document by now.
    pub(super) fn finish(self, latency: Duration) -> Result<ChatAnswer, LlmError> {
        let Some(model) = self.model else {
            return Err(LlmError::InvalidResponse(
                "the answer stream ended before any chunk".into(),
            ));
        };
        let mut content = Vec::with_capacity(self.parts.len());
        for part in self.parts {
            match part {
                Part::Text(text) => content.push(Block::Text { text }),
                Part::Call {
                    id,
                    name,
                    arguments,
                    announced,
                } => {
                    if !announced {
                        return Err(LlmError::InvalidResponse(
                            "a streamed tool call never said its name".into(),
                        ));
                    }
                    let input = if arguments.trim().is_empty() {
                        // A call without arguments may send no fragment.
                        serde_json::Value::Object(serde_json::Map::new())
                    } else {
                        serde_json::from_str(&arguments).map_err(|e| {
                            LlmError::InvalidResponse(format!(
                                "tool call {name} ({id}) has invalid arguments JSON: {e}"
                            ))
                        })?
                    };
                    content.push(Block::ToolUse { id, name, input });
                }
            }
        }
        let has_calls = content.iter().any(|b| matches!(b, Block::ToolUse { .. }));
        let stop_reason = match self.stop_reason {
            // Some servers say `stop` after tool calls; the caller must run
            // them either way.
            Some(StopReason::EndTurn) if has_calls => StopReason::ToolUse,
            Some(reason) => reason,
            None => finish_reason(None),
        };
        Ok(ChatAnswer {
            model,
            content,
            usage: self.usage,
            stop_reason,
            latency,
        })
    }
}
