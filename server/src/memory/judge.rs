//! The judge (issue 27): when a model is configured, the memory search's
//! best candidates go to it with the question, and it says which of them
//! ANSWER the question, best first, or that none does. Similarity finds
//! what is *about* the question; only reading tells « the barge's address »
//! from « a barge we visited ».
//!
//! One call, bounded by the caller's `bound`: no retry, because the search's
//! own order is a good answer already and the team is waiting. Every way of
//! not getting a verdict (no model configured, no candidate, a provider
//! error, the bound passed, an answer [`answer::parse`] refuses) is
//! [`Verdict::Unavailable`] with a short reason, and the caller keeps its
//! order.
//!
//! The call is a `classify` task ([`Task::Classify`]: sorting short items
//! into known categories, a bulk task): it follows the model routing and the
//! monthly budget like every call (ADR 0013). Recording it is the wrapper's
//! business ([`crate::llm::Recording`], built by the caller with whom the
//! call serves), as for the venue ranker.
//!
//! Logged per verdict: user id, candidates shown, verdict kind, how many
//! answers, latency, and the reason when there is none. Never the question,
//! a memory, or the model's text.
pub mod answer;
pub mod prompt;
#[cfg(test)]
mod proptests;

use super::dates::paris_date;
use super::Hit;
use crate::llm::{Completion, CompletionRequest, LlmError, LlmProvider, Message, OfflineLlm, Task};
use std::time::{Duration, Instant};

/// Candidates shown to the model at most; the caller passes its best first.
pub const MAX_CANDIDATES: usize = 8;
/// A bound for interactive searches: past it the fused order stands.
pub const DEFAULT_BOUND: Duration = Duration::from_secs(3);
/// `{"answers": [1, 2, 3, 4, 5, 6, 7, 8]}`, a fence around it, and room.
const MAX_TOKENS: u32 = 100;
/// How much earlier than `bound` the provider itself gives up, so that a
/// call past its time is still recorded as failed (a call whose future is
/// dropped is not recorded at all) before the bound drops it anyway.
const RECORD_MARGIN: Duration = Duration::from_millis(250);

/// What the model said about the candidates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Indices into the candidates given (among the first
    /// [`MAX_CANDIDATES`]) of those that answer, best first, each once;
    /// empty: none answers.
    Answers(Vec<usize>),
    /// No verdict (no model configured, no candidate, timeout, provider
    /// error, unusable answer): the fused order stands. The reason is for
    /// the log; it never quotes a question, a memory or the model's text.
    Unavailable(String),
}

impl Verdict {
    /// `answers`, `none` or `unavailable`: the log's word for it.
    pub fn kind(&self) -> &'static str {
        match self {
            Verdict::Answers(a) if a.is_empty() => "none",
            Verdict::Answers(_) => "answers",
            Verdict::Unavailable(_) => "unavailable",
        }
    }
}

/// Asks `llm` which of the first [`MAX_CANDIDATES`] of `candidates` answer
/// `question` (the user's, asked today in Paris), within `bound`.
///
/// `llm`: the server's provider wrapped for this user, as the venue search
/// does (`Recording::new(llm, db, CallContext { user_id: Some(user_id), .. })`).
/// The offline provider is detected by name, as the agent and the memory
/// summariser do, and never called.
pub async fn judge(
    llm: &dyn LlmProvider,
    user_id: i64,
    question: &str,
    candidates: &[Hit],
    bound: Duration,
) -> Verdict {
    let started = Instant::now();
    let shown = &candidates[..candidates.len().min(MAX_CANDIDATES)];
    let verdict = if llm.name() == OfflineLlm.name() {
        Verdict::Unavailable("offline".into())
    } else if shown.is_empty() {
        Verdict::Unavailable("no candidates".into())
    } else {
        ask(llm, question, shown, bound).await
    };
    log(user_id, shown.len(), &verdict, started.elapsed());
    verdict
}

async fn ask(llm: &dyn LlmProvider, question: &str, shown: &[Hit], bound: Duration) -> Verdict {
    let today = paris_date(chrono::Utc::now());
    let count = shown.len();
    let request = CompletionRequest {
        task: Task::Classify,
        system: prompt::system(),
        messages: vec![Message::user(prompt::user(question, today, shown))],
        max_tokens: MAX_TOKENS,
        // The same candidates should get the same verdict.
        temperature: Some(0.0),
        time_limit: Some(bound.saturating_sub(RECORD_MARGIN.min(bound / 10))),
    };
    // Through the check the recording wrapper stores an unusable answer as
    // a failed call, with its tokens and cost.
    let check = |c: &Completion| answer::parse(&c.text, count).map(drop);
    let call = llm.complete_checked(&request, &check);
    match tokio::time::timeout(bound, call).await {
        Err(_) => Verdict::Unavailable(format!("no answer within {} ms", bound.as_millis())),
        Ok(Err(LlmError::Offline)) => Verdict::Unavailable("offline".into()),
        Ok(Err(LlmError::Unusable(why))) => Verdict::Unavailable(format!("unusable answer: {why}")),
        Ok(Err(e)) => Verdict::Unavailable(e.to_string()),
        // The check accepted this text: parsing it again gives the same.
        Ok(Ok(completion)) => match answer::parse(&completion.text, count) {
            Ok(indices) => Verdict::Answers(indices),
            Err(why) => Verdict::Unavailable(format!("unusable answer: {why}")),
        },
    }
}

fn log(user_id: i64, candidates: usize, verdict: &Verdict, latency: Duration) {
    let latency_ms = latency.as_millis() as u64;
    let kind = verdict.kind();
    match verdict {
        Verdict::Answers(a) => tracing::info!(
            user_id,
            candidates,
            verdict = kind,
            answers = a.len(),
            latency_ms,
            "memory judge"
        ),
        // Expected when no model is configured: not worth a line per search.
        Verdict::Unavailable(reason) if candidates == 0 || reason == "offline" => tracing::debug!(
            user_id,
            candidates,
            verdict = kind,
            reason = reason.as_str(),
            "memory judge"
        ),
        Verdict::Unavailable(reason) => tracing::warn!(
            user_id,
            candidates,
            verdict = kind,
            latency_ms,
            reason = reason.as_str(),
            "memory judge: no verdict, the search's order stands"
        ),
    }
}
