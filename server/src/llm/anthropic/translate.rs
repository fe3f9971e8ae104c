//! Anthropic's stream events in the chat's neutral terms: each
//! [`StreamEvent`] becomes the [`ChatEvent`]s the agent and the browser see,
//! and the events fold (through [`MessageAssembler`]) into the final
//! [`ChatAnswer`] that ends the stream.
use super::stream::{AssembledMessage, ContentBlock, MessageAssembler, StreamError, StreamEvent};
use crate::llm::chat::{Block, ChatAnswer, ChatEvent};
use std::collections::HashMap;
use std::time::Instant;

impl From<ContentBlock> for Block {
    fn from(block: ContentBlock) -> Self {
        match block {
            ContentBlock::Text(text) => Block::Text { text },
            ContentBlock::ToolUse { id, name, input } => Block::ToolUse { id, name, input },
        }
    }
}

/// The whole answer; `started` is when the first attempt was sent.
pub(super) fn answer(message: AssembledMessage, started: Instant) -> ChatAnswer {
    ChatAnswer {
        model: message.model,
        content: message
            .content
            .into_iter()
            // An empty text block (the model opened one and wrote nothing)
            // would be refused when the answer is sent back as history.
            .filter(|b| !matches!(b, ContentBlock::Text(t) if t.is_empty()))
            .map(Block::from)
            .collect(),
        usage: message.usage,
        stop_reason: message.stop_reason,
        latency: started.elapsed(),
    }
}

/// One answer's translation, event by event.
pub(super) struct Translator {
    assembler: MessageAssembler,
    /// Tool call ids by block index: input fragments name only the index.
    tool_ids: HashMap<usize, String>,
    started: Instant,
    /// Whether a delta (text, tool call) or the end has been produced: from
    /// then on the caller has seen part of the answer and a failure can no
    /// longer be retried silently.
    visible: bool,
}

impl Translator {
    pub(super) fn new(started: Instant) -> Self {
        Translator {
            assembler: MessageAssembler::new(),
            tool_ids: HashMap::new(),
            started,
            visible: false,
        }
    }

    pub(super) fn visible(&self) -> bool {
        self.visible
    }

    /// The chat events `event` gives (none, one, or the final answer).
    pub(super) fn push(&mut self, event: StreamEvent) -> Result<Vec<ChatEvent>, StreamError> {
        self.assembler.push(event.clone())?;
        let out = match event {
            StreamEvent::MessageStart { model, usage } => {
                vec![ChatEvent::Started { model, usage }]
            }
            StreamEvent::TextDelta { text, .. } if text.is_empty() => vec![],
            StreamEvent::TextDelta { text, .. } => vec![ChatEvent::TextDelta { text }],
            StreamEvent::ToolUseStart { index, id, name } => {
                self.tool_ids.insert(index, id.clone());
                vec![ChatEvent::ToolUseStart { id, name }]
            }
            StreamEvent::ToolInputDelta { partial_json, .. } if partial_json.is_empty() => {
                vec![]
            }
            StreamEvent::ToolInputDelta {
                index,
                partial_json,
            } => {
                // The assembler checked that this block is an open tool call.
                let id = self.tool_ids.get(&index).cloned().unwrap_or_default();
                vec![ChatEvent::ToolInputDelta { id, partial_json }]
            }
            StreamEvent::MessageStop => {
                let message = std::mem::take(&mut self.assembler).finish()?;
                vec![ChatEvent::Finished(answer(message, self.started))]
            }
            StreamEvent::TextStart { .. }
            | StreamEvent::BlockStop { .. }
            | StreamEvent::MessageDelta { .. } => vec![],
        };
        self.visible |= out.iter().any(|e| !matches!(e, ChatEvent::Started { .. }));
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::{StopReason, Usage};

    fn start() -> StreamEvent {
        StreamEvent::MessageStart {
            model: "claude-sonnet-4-5-20250929".into(),
            usage: Usage {
                input_tokens: 10,
                output_tokens: 1,
                cache_write_tokens: 3,
                cache_read_tokens: 4,
            },
        }
    }

    #[test]
    fn events_become_chat_events_and_the_answer() {
        let mut t = Translator::new(Instant::now());
        let mut out = vec![];
        for event in [
            start(),
            StreamEvent::TextStart { index: 0 },
            StreamEvent::BlockStop { index: 0 },
            StreamEvent::ToolUseStart {
                index: 1,
                id: "toolu_9".into(),
                name: "count_members".into(),
            },
            StreamEvent::ToolInputDelta {
                index: 1,
                partial_json: String::new(),
            },
            StreamEvent::ToolInputDelta {
                index: 1,
                partial_json: "{\"pool\":1}".into(),
            },
            StreamEvent::BlockStop { index: 1 },
            StreamEvent::MessageDelta {
                stop_reason: Some(StopReason::ToolUse),
                usage: Default::default(),
            },
        ] {
            out.extend(t.push(event).unwrap_or_default());
            assert_eq!(t.visible(), out.len() > 1);
        }
        assert_eq!(
            out,
            vec![
                ChatEvent::Started {
                    model: "claude-sonnet-4-5-20250929".into(),
                    usage: Usage {
                        input_tokens: 10,
                        output_tokens: 1,
                        cache_write_tokens: 3,
                        cache_read_tokens: 4,
                    },
                },
                ChatEvent::ToolUseStart {
                    id: "toolu_9".into(),
                    name: "count_members".into()
                },
                ChatEvent::ToolInputDelta {
                    id: "toolu_9".into(),
                    partial_json: "{\"pool\":1}".into()
                },
            ]
        );
        let end = t.push(StreamEvent::MessageStop).unwrap_or_default();
        let [ChatEvent::Finished(answer)] = end.as_slice() else {
            panic!("{end:?}");
        };
        assert_eq!(
            answer.content,
            vec![Block::ToolUse {
                id: "toolu_9".into(),
                name: "count_members".into(),
                input: serde_json::json!({"pool": 1}),
            }],
            "the empty text block is dropped"
        );
        assert_eq!(answer.stop_reason, StopReason::ToolUse);
        assert_eq!(answer.usage.cache_read_tokens, 4);
    }

    #[test]
    fn inconsistent_events_are_errors() {
        let mut t = Translator::new(Instant::now());
        assert!(t.push(StreamEvent::TextStart { index: 0 }).is_err());
        let mut t = Translator::new(Instant::now());
        assert!(t.push(start()).is_ok());
        let delta = StreamEvent::ToolInputDelta {
            index: 3,
            partial_json: "{".into(),
        };
        assert!(t.push(delta).is_err());
    }
}
