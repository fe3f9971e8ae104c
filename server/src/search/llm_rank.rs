//! Stage 3 through a language model (seed 001, "Ranking LLM"): at most 50
//! finalists summarised in French, the model picks up to 4 recommended and
//! 4 compatible venues with one sentence each and may reject others.
//!
//! An answer is used only once [`answer::parse`] has validated it. A provider
//! error or an unusable answer gets exactly one more call; after that (or
//! past [`DEADLINE`]) the caller falls back to the deterministic scorer. A
//! refused request (4xx) is not repeated: the same request would be refused
//! again. The offline provider is not asked twice either: it never answers.
//! Recording the calls is the provider's wrapper's business
//! ([`crate::llm::Recording`]), not this module's.
pub mod answer;
pub mod prompt;
#[cfg(test)]
mod proptests;

use super::finalist::{Finalist, Similarity};
use super::request::SearchRequest;
use crate::db::venue_facts::VenueFacts;
use crate::llm::{Completion, CompletionRequest, LlmError, LlmProvider, Message, StopReason, Task};
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
    /// The team's training for this kind of event (`search::lessons`).
    pub lessons: &'a super::lessons::Lessons,
}

/// The ranking when one call produced a valid answer.
pub struct Report {
    pub ranking: Option<Ranking>,
    /// False when no model is configured (the offline provider): the
    /// deterministic ranking is then the expected one, not a fallback.
    pub asked: bool,
    /// Finalists shown to the model.
    pub shown: usize,
}

pub async fn rank(provider: &dyn LlmProvider, input: &Input<'_>) -> Report {
    let shown = &input.finalists[..input.finalists.len().min(prompt::MAX_FINALISTS)];
    let known: Vec<(&str, i64)> = shown
        .iter()
        .map(|f| (f.candidate.code.as_str(), f.candidate.id))
        .collect();
    let mut request = CompletionRequest {
        task: Task::Rank,
        system: prompt::system(),
        messages: vec![Message::user(prompt::user(input, shown))],
        max_tokens: MAX_TOKENS,
        // The same finalists should give the same catalogue.
        temperature: Some(0.0),
        time_limit: None,
    };
    // Recorded with the call when it fails; a cut answer says so.
    let check = |c: &Completion| match answer::parse(&c.text, &known) {
        Ok(_) => Ok(()),
        Err(reason) if c.stop_reason == StopReason::EndTurn => Err(reason),
        Err(reason) => Err(format!("{reason} (stop reason {:?})", c.stop_reason)),
    };
    let started = Instant::now();
    for attempt in 1..=MAX_CALLS {
        request.time_limit = Some(DEADLINE.saturating_sub(started.elapsed()));
        let retry = match provider.complete_checked(&request, &check).await {
            Ok(completion) => match answer::parse(&completion.text, &known) {
                Ok(parsed) => {
                    for note in &parsed.dropped {
                        tracing::warn!(attempt, "LLM ranking: {note}");
                    }
                    return Report {
                        ranking: Some(parsed.ranking),
                        asked: true,
                        shown: shown.len(),
                    };
                }
                // The check accepted this text: parsing it again gives the same.
                Err(_) => true,
            },
            Err(LlmError::Offline) => {
                return Report {
                    ranking: None,
                    asked: false,
                    shown: shown.len(),
                }
            }
            Err(e) => {
                tracing::warn!(attempt, error = %e, "LLM ranking call failed");
                !matches!(e, LlmError::Rejected(_))
            }
        };
        if !retry || started.elapsed() >= DEADLINE {
            break;
        }
    }
    Report {
        ranking: None,
        asked: true,
        shown: shown.len(),
    }
}
