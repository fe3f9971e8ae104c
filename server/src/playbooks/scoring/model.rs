//! The model scorer: one call scores every candidate for the action
//! ([`super::prompt`], read by [`super::answer::parse`]), as a `guidance`
//! task ([`Task::Guidance`], the main model: the team relies on it).
//!
//! Bounded in time, no retry: the offline scores are a good answer and the
//! team is waiting. Every way of not getting usable scores (the offline
//! provider, an error, the bound passed, an answer the parser refuses) falls
//! back to the offline scorer, logged with its reason; only when that fails
//! too is there no score. Logged: the number of candidates, the source, the
//! latency and the reason; never the action, a description or the model's
//! text.
use super::{answer, prompt, Described, OfflineScorer, Score, ScoreError, Scored, Source};
use crate::llm::{Completion, CompletionRequest, LlmError, LlmProvider, Message, OfflineLlm, Task};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Past it the offline scores stand: the first write waits on this call.
pub const DEFAULT_BOUND: Duration = Duration::from_secs(5);
/// How much earlier than the bound the provider gives up, so the call is
/// still recorded as failed before the bound drops it (as the memory judge).
const RECORD_MARGIN: Duration = Duration::from_millis(250);
/// Per candidate: its name, quotes, a score and a comma.
const TOKENS_PER_CANDIDATE: u32 = 24;

pub struct ModelScorer {
    llm: Arc<dyn LlmProvider>,
    offline: OfflineScorer,
    bound: Duration,
}

impl ModelScorer {
    pub fn new(llm: Arc<dyn LlmProvider>, offline: OfflineScorer) -> Self {
        ModelScorer {
            llm,
            offline,
            bound: DEFAULT_BOUND,
        }
    }

    /// Another bound for the call (tests, a slower gateway).
    pub fn with_bound(mut self, bound: Duration) -> Self {
        self.bound = bound;
        self
    }

    /// The model's scores, or why there are none.
    async fn ask(&self, action: &str, candidates: &[Described]) -> Result<Vec<f64>, String> {
        if self.llm.name() == OfflineLlm.name() {
            return Err("offline".into());
        }
        let names: Vec<&str> = candidates.iter().map(|c| c.name.as_str()).collect();
        let count = u32::try_from(candidates.len()).unwrap_or(u32::MAX);
        let request = CompletionRequest {
            task: Task::Guidance,
            system: prompt::system(),
            messages: vec![Message::user(prompt::user(action, candidates))],
            max_tokens: 40u32.saturating_add(count.saturating_mul(TOKENS_PER_CANDIDATE)),
            // The same action should get the same scores.
            temperature: Some(0.0),
            time_limit: Some(
                self.bound
                    .saturating_sub(RECORD_MARGIN.min(self.bound / 10)),
            ),
        };
        let check = |c: &Completion| answer::parse(&c.text, &names).map(drop);
        let call = self.llm.complete_checked(&request, &check);
        match tokio::time::timeout(self.bound, call).await {
            Err(_) => Err(format!("no answer within {} ms", self.bound.as_millis())),
            Ok(Err(LlmError::Offline)) => Err("offline".into()),
            Ok(Err(LlmError::Unusable(why))) => Err(format!("unusable answer: {why}")),
            Ok(Err(e)) => Err(e.to_string()),
            Ok(Ok(completion)) => answer::parse(&completion.text, &names)
                .map_err(|why| format!("unusable answer: {why}")),
        }
    }
}

#[async_trait::async_trait]
impl Score for ModelScorer {
    async fn score(&self, action: &str, candidates: &[Described]) -> Result<Scored, ScoreError> {
        if candidates.is_empty() {
            return Ok(Scored {
                scores: Vec::new(),
                source: Source::Model,
            });
        }
        let started = Instant::now();
        let latency_ms = || started.elapsed().as_millis() as u64;
        match self.ask(action, candidates).await {
            Ok(scores) => {
                tracing::info!(
                    candidates = candidates.len(),
                    source = "model",
                    latency_ms = latency_ms(),
                    "playbook scoring"
                );
                Ok(Scored {
                    scores,
                    source: Source::Model,
                })
            }
            Err(reason) => {
                let scored = self.offline.score(action, candidates).await;
                // Expected when no model is configured: not worth a warning.
                if reason == "offline" {
                    tracing::debug!(candidates = candidates.len(), "playbook scoring: offline");
                } else {
                    tracing::warn!(
                        candidates = candidates.len(),
                        source = "embedding",
                        latency_ms = latency_ms(),
                        reason = reason.as_str(),
                        fallback_ok = scored.is_ok(),
                        "playbook scoring: no usable model scores, the offline scores stand"
                    );
                }
                scored
            }
        }
    }
}
