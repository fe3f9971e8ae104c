//! The body of a streamed chat call (`POST /v1/messages` with `"stream":
//! true`): tools, the system prompt as text blocks, and messages of content
//! blocks (text, tool_use, tool_result), with the cache breakpoints of
//! [`crate::llm::cache::plan`] written as `cache_control` markers.
//!
//! The API refuses empty text blocks, messages without content, and two
//! messages of the same role in a row: empty texts are dropped, then
//! consecutive messages of one role are merged into one (their blocks kept
//! in order), so a history stored turn by turn is always accepted.
use crate::llm::cache::{self, CachePlan};
use crate::llm::chat::{Block, ChatRequest, ChatRole, ToolSpec};
use serde::Serialize;

/// Smallest prefix, in tokens, the model caches (Anthropic's documented
/// minimums: 2048 for Haiku models, 1024 for Sonnet and Opus; models we do
/// not know get the smaller one, so no breakpoint is lost).
pub(super) fn minimum_cacheable_tokens(model: &str) -> u32 {
    if model.contains("haiku") {
        2048
    } else {
        1024
    }
}

#[derive(Serialize)]
pub(super) struct ChatWireRequest<'a> {
    model: &'a str,
    max_tokens: u32,
    stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    tools: Option<WireTools<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    system: Vec<WireBlock<'a>>,
    messages: Vec<WireMessage<'a>>,
}

/// `[{name, description, input_schema}]`: as the list wrote it once
/// (`ToolList::json`), or written now if it could not.
#[derive(Serialize)]
#[serde(untagged)]
enum WireTools<'a> {
    Written(&'a serde_json::value::RawValue),
    Specs(&'a [ToolSpec]),
}

#[derive(Serialize)]
struct WireMessage<'a> {
    role: &'static str,
    content: Vec<WireBlock<'a>>,
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum WireBlock<'a> {
    Text {
        text: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        cache_control: Option<CacheControl>,
    },
    ToolUse {
        id: &'a str,
        name: &'a str,
        input: &'a serde_json::Value,
        #[serde(skip_serializing_if = "Option::is_none")]
        cache_control: Option<CacheControl>,
    },
    ToolResult {
        tool_use_id: &'a str,
        content: &'a str,
        is_error: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        cache_control: Option<CacheControl>,
    },
}

/// `{"type": "ephemeral"}`: the 5-minute cache.
#[derive(Clone, Copy, Serialize)]
struct CacheControl {
    #[serde(rename = "type")]
    kind: &'static str,
}

const EPHEMERAL: CacheControl = CacheControl { kind: "ephemeral" };

impl<'a> ChatWireRequest<'a> {
    pub(super) fn new(model: &'a str, request: &'a ChatRequest) -> Self {
        let plan = cache::plan(request, minimum_cacheable_tokens(model));
        ChatWireRequest {
            model,
            max_tokens: request.max_tokens,
            stream: true,
            tools: (!request.tools.is_empty()).then(|| match request.tools.json() {
                Some(json) => WireTools::Written(json),
                None => WireTools::Specs(&request.tools),
            }),
            system: if request.system.is_empty() {
                vec![]
            } else {
                vec![WireBlock::Text {
                    text: &request.system,
                    cache_control: plan.system.then_some(EPHEMERAL),
                }]
            },
            messages: messages(request, &plan),
        }
    }
}

/// The history as the API accepts it, breakpoints marked.
fn messages<'a>(request: &'a ChatRequest, plan: &CachePlan) -> Vec<WireMessage<'a>> {
    let mut out: Vec<WireMessage<'a>> = Vec::with_capacity(request.messages.len());
    for (m, message) in request.messages.iter().enumerate() {
        let blocks: Vec<WireBlock<'a>> = message
            .content
            .iter()
            .enumerate()
            .filter(|(_, block)| !cache::is_empty_text(block))
            .map(|(b, block)| wire_block(block, plan.marks(m, b)))
            .collect();
        if blocks.is_empty() {
            continue;
        }
        let role = match message.role {
            ChatRole::User => "user",
            ChatRole::Assistant => "assistant",
        };
        match out.last_mut() {
            Some(last) if last.role == role => last.content.extend(blocks),
            _ => out.push(WireMessage {
                role,
                content: blocks,
            }),
        }
    }
    out
}

fn wire_block(block: &Block, marked: bool) -> WireBlock<'_> {
    let cache_control = marked.then_some(EPHEMERAL);
    match block {
        Block::Text { text } => WireBlock::Text {
            text,
            cache_control,
        },
        Block::ToolUse { id, name, input } => WireBlock::ToolUse {
            id,
            name,
            input,
            cache_control,
        },
        Block::ToolResult {
            tool_use_id,
            content,
            is_error,
        } => WireBlock::ToolResult {
            tool_use_id,
            content,
            is_error: *is_error,
            cache_control,
        },
    }
}

#[cfg(test)]
mod tests;
