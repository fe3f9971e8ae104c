//! Stage 3 through a language model (seed 001, "Ranking LLM"): at most 50
//! finalists summarised in French, the model picks up to 4 recommended and
//! 4 compatible venues with one sentence each and may reject others.
//!
//! An answer is used only once [`answer::parse`] has validated it. A provider
//! error or an unusable answer gets exactly one more call; after that (or
//! past [`DEADLINE`]) the caller falls back to the deterministic scorer. A
//! refused request (4xx) is not repeated: the same request would be refused
//! again. Every call, served or not, is returned for the cost metrics.
pub mod answer;
pub mod prompt;
#[cfg(test)]
mod proptests;

use super::request::SearchRequest;
use super::scoring::{Finalist, Similarity};
use crate::db::venue_facts::VenueFacts;
use crate::llm::{CallRecord, CompletionRequest, LlmError, LlmProvider, Message, Task};
pub use answer::{Choice, Ranking};
use std::time::{Duration, Instant};

/// Calls per search, the first included.
const MAX_CALLS: usize = 2;
/// The whole LLM stage, retries included: past it the team gets the
/// deterministic ranking rather than a longer wait (seed 001 aims at < 5 s
/// end to end; this only bounds the worst case).
pub const DEADLINE: Duration = Duration::from_secs(30);
/// Eight one-sentence explanations, up to ten rejections and the JSON around them.
const MAX_TOKENS: u32 = 2048;

/// What the ranker knows about the search.
pub struct Input<'a> {
    pub request: &'a SearchRequest,
    /// Best first (stage 2's order); at most [`prompt::MAX_FINALISTS`] are shown.
    pub finalists: &'a [Finalist<'a>],
    pub similarity: Similarity,
    pub facts: &'a [VenueFacts],
}

/// The ranking when one call produced a valid answer, and every call made.
pub struct Report {
    pub ranking: Option<Ranking>,
    pub calls: Vec<CallRecord>,
    /// Finalists shown to the model.
    pub shown: usize,
}

pub async fn rank(provider: &dyn LlmProvider, input: &Input<'_>) -> Report {
    let shown = &input.finalists[..input.finalists.len().min(prompt::MAX_FINALISTS)];
    let known: Vec<(&str, i64)> = shown
        .iter()
        .map(|f| (f.candidate.code.as_str(), f.candidate.id))
        .collect();
    let request = CompletionRequest {
        task: Task::Rank,
        system: prompt::system(),
        messages: vec![Message::user(prompt::user(input, shown))],
        max_tokens: MAX_TOKENS,
        // The same finalists should give the same catalogue.
        temperature: Some(0.0),
    };
    let started = Instant::now();
    let mut calls = Vec::new();
    for attempt in 1..=MAX_CALLS {
        let t = Instant::now();
        let remaining = DEADLINE.saturating_sub(started.elapsed());
        let result = match tokio::time::timeout(remaining, provider.complete(&request)).await {
            Ok(result) => result,
            Err(_) => Err(LlmError::Unavailable(format!(
                "no answer within the ranking deadline of {} s",
                DEADLINE.as_secs()
            ))),
        };
        let mut record = CallRecord::of(provider, Task::Rank, &result, t.elapsed());
        let retry = match result {
            Ok(completion) => match answer::parse(&completion.text, &known) {
                Ok(parsed) => {
                    for note in &parsed.dropped {
                        tracing::warn!(attempt, "LLM ranking: {note}");
                    }
                    calls.push(record);
                    return Report {
                        ranking: Some(parsed.ranking),
                        calls,
                        shown: shown.len(),
                    };
                }
                Err(reason) => {
                    tracing::warn!(
                        attempt,
                        stop_reason = ?completion.stop_reason,
                        "LLM ranking answer unusable: {reason}"
                    );
                    record.error = Some(format!("unusable ranking answer: {reason}"));
                    true
                }
            },
            Err(e) => {
                tracing::warn!(attempt, error = %e, "LLM ranking call failed");
                !matches!(e, LlmError::Rejected(_))
            }
        };
        calls.push(record);
        if !retry || started.elapsed() >= DEADLINE {
            break;
        }
    }
    Report {
        ranking: None,
        calls,
        shown: shown.len(),
    }
}
