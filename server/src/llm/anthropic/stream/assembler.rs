//! Folds the events of a streamed answer into the final message, as the
//! non-streaming API would have answered it: the chat shows deltas as they
//! come and keeps the assembled message for the conversation's history.
use super::wire::stop_reason;
use super::{StreamError, StreamEvent};
use crate::llm::{StopReason, Usage};
use std::collections::BTreeMap;

/// A streamed answer, complete.
#[derive(Clone, Debug, PartialEq)]
pub struct AssembledMessage {
    /// As the provider names it (often dated).
    pub model: String,
    /// Text and tool calls, in the order the model wrote them.
    pub content: Vec<ContentBlock>,
    /// Final counts: the prompt's from `message_start`, the output's from
    /// the last `message_delta`.
    pub usage: Usage,
    pub stop_reason: StopReason,
}

impl AssembledMessage {
    /// The text blocks, joined (what the non-streaming client returns).
    pub fn text(&self) -> String {
        self.content
            .iter()
            .filter_map(|block| match block {
                ContentBlock::Text(text) => Some(text.as_str()),
                ContentBlock::ToolUse { .. } => None,
            })
            .collect()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ContentBlock {
    Text(String),
    /// A call the model asks the application to run.
    ToolUse {
        id: String,
        name: String,
        input: serde_json::Value,
    },
}

/// Feed it every event with [`push`](Self::push), then
/// [`finish`](Self::finish).
#[derive(Debug, Default)]
pub struct MessageAssembler {
    model: Option<String>,
    usage: Usage,
    stop_reason: Option<StopReason>,
    blocks: BTreeMap<usize, Block>,
    stopped: bool,
}

#[derive(Debug)]
enum Block {
    Text(String),
    /// A tool call whose input is still arriving as JSON fragments.
    OpenToolUse {
        id: String,
        name: String,
        input_json: String,
    },
    Done(ContentBlock),
}

impl MessageAssembler {
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes one event into account. A tool call's input is parsed when its
    /// block stops: invalid JSON is an error naming the block.
    pub fn push(&mut self, event: StreamEvent) -> Result<(), StreamError> {
        if self.model.is_none() && !matches!(event, StreamEvent::MessageStart { .. }) {
            return Err(inconsistent("an event came before message_start"));
        }
        match event {
            StreamEvent::MessageStart { model, usage } => {
                if self.model.is_some() {
                    return Err(inconsistent("a second message_start"));
                }
                self.model = Some(model);
                self.usage = usage;
            }
            StreamEvent::TextStart { index } => self.open(index, Block::Text(String::new()))?,
            StreamEvent::ToolUseStart { index, id, name } => self.open(
                index,
                Block::OpenToolUse {
                    id,
                    name,
                    input_json: String::new(),
                },
            )?,
            StreamEvent::TextDelta { index, text } => match self.blocks.get_mut(&index) {
                Some(Block::Text(so_far)) => so_far.push_str(&text),
                _ => return Err(no_open_block("text", index)),
            },
            StreamEvent::ToolInputDelta {
                index,
                partial_json,
            } => match self.blocks.get_mut(&index) {
                Some(Block::OpenToolUse { input_json, .. }) => input_json.push_str(&partial_json),
                _ => return Err(no_open_block("tool input", index)),
            },
            StreamEvent::BlockStop { index } => self.close(index)?,
            StreamEvent::MessageDelta { stop_reason, usage } => {
                if stop_reason.is_some() {
                    self.stop_reason = stop_reason;
                }
                // Cumulative: replace, never add.
                self.usage.output_tokens = usage.output_tokens;
                if let Some(tokens) = usage.input_tokens {
                    self.usage.input_tokens = tokens;
                }
                if let Some(tokens) = usage.cache_write_tokens {
                    self.usage.cache_write_tokens = tokens;
                }
                if let Some(tokens) = usage.cache_read_tokens {
                    self.usage.cache_read_tokens = tokens;
                }
            }
            StreamEvent::MessageStop => self.stopped = true,
        }
        Ok(())
    }

    /// The message, once `message_stop` came and every tool call is closed.
    pub fn finish(self) -> Result<AssembledMessage, StreamError> {
        let (Some(model), true) = (self.model, self.stopped) else {
            return Err(StreamError::Incomplete);
        };
        let content = self
            .blocks
            .into_values()
            .map(|block| match block {
                Block::Text(text) => Ok(ContentBlock::Text(text)),
                Block::Done(block) => Ok(block),
                Block::OpenToolUse { .. } => Err(StreamError::Incomplete),
            })
            .collect::<Result<_, _>>()?;
        Ok(AssembledMessage {
            model,
            content,
            usage: self.usage,
            stop_reason: self.stop_reason.unwrap_or_else(|| stop_reason(None)),
        })
    }

    fn open(&mut self, index: usize, block: Block) -> Result<(), StreamError> {
        if self.blocks.contains_key(&index) {
            return Err(inconsistent(format!("block {index} started twice")));
        }
        self.blocks.insert(index, block);
        Ok(())
    }

    /// Blocks of kinds this module skips were never opened: their stop is
    /// ignored.
    fn close(&mut self, index: usize) -> Result<(), StreamError> {
        let Some(block) = self.blocks.get_mut(&index) else {
            return Ok(());
        };
        if let Block::OpenToolUse {
            id,
            name,
            input_json,
        } = block
        {
            let input = if input_json.trim().is_empty() {
                // A call without arguments sends no fragment at all.
                serde_json::Value::Object(serde_json::Map::new())
            } else {
                serde_json::from_str(input_json).map_err(|e| StreamError::InvalidToolInput {
                    index,
                    name: name.clone(),
                    reason: e.to_string(),
                })?
            };
            *block = Block::Done(ContentBlock::ToolUse {
                id: std::mem::take(id),
                name: std::mem::take(name),
                input,
            });
        }
        Ok(())
    }
}

fn inconsistent(reason: impl Into<String>) -> StreamError {
    StreamError::Inconsistent(reason.into())
}

fn no_open_block(what: &str, index: usize) -> StreamError {
    inconsistent(format!("{what} for block {index}, which is not open"))
}
