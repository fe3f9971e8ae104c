//! The assistant's **offline planner**, beside the agent: domain logic
//! (it reads requests with the criteria extractor), not a model client.
//! It answers the chat when no model is configured
//! (`MAXY_LLM_PROVIDER=none`) and is the last step of the fallback chain
//! when a remote model fails.
//!
//! - [`LlmProvider::complete`] answers [`LlmError::Offline`] at once (no
//!   whole-answer task has an offline version);
//! - [`LlmProvider::stream`] recognises the team's common French intents in the last user message
//!   and answers as a model would — tool calls, then, once the agent loop
//!   appends their results, the next step or a French answer streamed in
//!   small deltas. It keeps no state: everything comes from the request
//!   (the user's words, the tool results since, the system prompt's
//!   `DEMANDE EN COURS` line).
mod answer;
mod catalogue;
mod codes;
mod constraints;
mod count;
mod emails;
mod features;
mod find;
mod help;
mod intent;
mod member;
mod picks;
mod plan;
mod playbooks;
mod pools;
mod qualify;
mod request_facts;
mod requests;
mod results;
mod similar;
mod statuses;
mod step;
mod target;
mod the_request;
mod training;
mod turn;
mod uncounted;
mod when;
mod words;
mod writes;

use crate::llm::{
    Block, ChatAnswer, ChatEvent, ChatRequest, ChatStream, Completion, CompletionRequest, LlmError,
    LlmProvider, StopReason,
};
use futures_util::StreamExt;
use sha2::{Digest, Sha256};
use std::time::Instant;
use step::Next;

/// The model name the planner's answers carry.
pub const PLANNER_MODEL: &str = "offline-planner";

/// The planner as a provider the agent streams from. Its name is the
/// offline backend's ([`crate::llm::OfflineLlm`]): both mean "no remote
/// model", which is how the agent knows it runs offline by configuration.
#[derive(Clone, Copy, Debug, Default)]
pub struct Planner;

#[async_trait::async_trait]
impl LlmProvider for Planner {
    fn name(&self) -> &'static str {
        crate::llm::OfflineLlm.name()
    }

    fn model(&self) -> &str {
        "none"
    }

    async fn complete(&self, _request: &CompletionRequest) -> Result<Completion, LlmError> {
        Err(LlmError::Offline)
    }

    async fn stream(&self, request: &ChatRequest) -> Result<ChatStream, LlmError> {
        Ok(futures_util::stream::iter(events(request).into_iter().map(Ok)).boxed())
    }
}

/// The planner's answer to `request`, as the events a model would stream:
/// `Started`, deltas, then one `Finished`.
pub fn events(request: &ChatRequest) -> Vec<ChatEvent> {
    let started = Instant::now();
    let next = plan::next(&turn::Turn::read(request));
    let (content, stop) = match next {
        Next::Say(text) => (vec![Block::Text { text }], StopReason::EndTurn),
        Next::Call(calls) => {
            let prefix = call_prefix(request);
            let blocks = calls
                .into_iter()
                .enumerate()
                .map(|(i, call)| Block::ToolUse {
                    id: format!("{prefix}_{i}"),
                    name: call.name.to_string(),
                    input: call.input,
                })
                .collect();
            (blocks, StopReason::ToolUse)
        }
    };
    answer::events(content, stop, started.elapsed())
}

/// The planner's whole answer (the `Finished` event's).
pub fn plan(request: &ChatRequest) -> Option<ChatAnswer> {
    events(request).into_iter().find_map(|e| match e {
        ChatEvent::Finished(answer) => Some(answer),
        _ => None,
    })
}

/// Tool call ids, unique per history and the same for the same history
/// (the planner is deterministic): a digest of the messages so far.
fn call_prefix(request: &ChatRequest) -> String {
    let mut digest = Sha256::new();
    for message in &request.messages {
        digest.update(format!("{:?}", message.role).as_bytes());
        digest.update(serde_json::to_vec(&message.content).unwrap_or_default());
    }
    let hex: String = digest
        .finalize()
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("toolu_offline_{hex}")
}
