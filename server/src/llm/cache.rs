//! Where a chat request's prompt-cache breakpoints go (seed 000, "Prompt
//! caching, 2 breakpoints"), provider-neutral: the plan names blocks, each
//! backend writes its own marker there (Anthropic: `cache_control:
//! {"type":"ephemeral"}`).
//!
//! The prompt is read as one prefix: tools, then system, then messages. A
//! breakpoint caches everything before it and lets the next call, whose
//! prompt starts the same, read that prefix at a tenth of the price.
//!
//! 1. **System**: on the (last) system block, so tools and system are cached
//!    together; they change least.
//! 2. **History**: on the last block of the last kept message *before* the
//!    newest one. The next turn's history starts with the same messages, so
//!    only the newest message pays full price.
//! 3. **Rolling**: on the last block of the newest message when it carries
//!    tool results. In a tool-heavy turn the agent calls the model several
//!    times, each call adding a tool call and its results; the provider only
//!    looks back 20 blocks from a breakpoint for an earlier cache entry, so
//!    without this one a long chain of tool calls would miss the cache.
//!
//! Never more than [`MAX_BREAKPOINTS`] (the provider's limit), never on an
//! empty text block (providers drop those: "last block" means the last
//! non-empty one), and never where the cached prefix would be shorter than
//! the model's minimum cacheable length: the provider would ignore it, and
//! a marker that does nothing only makes the request harder to read. The
//! prefix is estimated at four characters per token, tools' JSON included.
use super::chat::{Block, ChatMessage, ChatRequest};

/// Anthropic accepts at most four `cache_control` markers per request.
pub const MAX_BREAKPOINTS: usize = 4;

/// A block of the request's messages: `messages[message].content[block]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BlockRef {
    pub message: usize,
    pub block: usize,
}

/// Which blocks carry a breakpoint.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CachePlan {
    /// On the (last) system block, covering tools and system.
    pub system: bool,
    /// Message blocks, in prompt order.
    pub messages: Vec<BlockRef>,
}

impl CachePlan {
    pub fn count(&self) -> usize {
        usize::from(self.system) + self.messages.len()
    }

    /// Whether `messages[message].content[block]` carries a breakpoint.
    pub fn marks(&self, message: usize, block: usize) -> bool {
        self.messages.contains(&BlockRef { message, block })
    }
}

/// The breakpoints of `request` for a model that caches prefixes of at
/// least `minimum_tokens` tokens.
pub fn plan(request: &ChatRequest, minimum_tokens: u32) -> CachePlan {
    let minimum = u64::from(minimum_tokens);
    // Counted once, when the tool list was built.
    let system_prefix = request.tools.chars() + chars(&request.system);
    let mut plan = CachePlan {
        system: !request.system.is_empty() && tokens(system_prefix) >= minimum,
        messages: Vec::new(),
    };

    let messages = &request.messages;
    let Some(newest) = messages.len().checked_sub(1) else {
        return plan;
    };
    // Prefix length (in characters) up to and including each message.
    let mut through = Vec::with_capacity(messages.len());
    let mut total = system_prefix;
    for message in messages {
        total += message.content.iter().map(block_chars).sum::<u64>();
        through.push(total);
    }
    let mut candidates = Vec::new();
    if newest >= 1 {
        candidates.push(newest - 1);
    }
    if carries_tool_results(&messages[newest]) {
        candidates.push(newest);
    }
    for index in candidates {
        let Some(block) = last_marked_block(&messages[index]) else {
            continue;
        };
        // Blocks after the marked one (empty texts) add nothing.
        if tokens(through[index]) >= minimum && plan.count() < MAX_BREAKPOINTS {
            plan.messages.push(BlockRef {
                message: index,
                block,
            });
        }
    }
    plan
}

/// The last block that can carry a marker: not an empty text.
fn last_marked_block(message: &ChatMessage) -> Option<usize> {
    message.content.iter().rposition(|b| !is_empty_text(b))
}

pub fn is_empty_text(block: &Block) -> bool {
    matches!(block, Block::Text { text } if text.is_empty())
}

fn carries_tool_results(message: &ChatMessage) -> bool {
    message
        .content
        .iter()
        .any(|b| matches!(b, Block::ToolResult { .. }))
}

/// A block's size as the estimate counts it.
fn block_chars(block: &Block) -> u64 {
    match block {
        Block::Text { text } => chars(text),
        Block::ToolUse { id, name, input } => chars(id) + chars(name) + chars(&input.to_string()),
        Block::ToolResult {
            tool_use_id,
            content,
            ..
        } => chars(tool_use_id) + chars(content),
    }
}

fn chars(text: &str) -> u64 {
    text.chars().count() as u64
}

/// Four characters per token, the usual estimate for prose and JSON.
fn tokens(chars: u64) -> u64 {
    chars / 4
}

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
