//! Scores in [0,1] for a described action (« je veux demander à un lieu
//! s'il est libre le 12 mars ») against the candidates the decision
//! function weighs: playbooks, described by their goal and intent, and
//! skills, described by their `cognitive.objective`.
//!
//! Two scorers behind one trait ([`Score`]):
//! - [`OfflineScorer`] (the default, no model): cosine similarity between
//!   the action's embedding and each candidate's, mapped to [0,1] by the
//!   fitted [`calibration`]. Raw cosines of the local model crowd between
//!   0.78 and 0.90, so uncalibrated every candidate would fall in one band.
//! - [`ModelScorer`] (a model configured): one call scores every candidate
//!   ([`model`]); any failure falls back to the offline scores, logged.
//!
//! The labelled set and `maxy calibrate playbooks` live in [`cases`] and
//! [`command`]; `docs/playbook-scoring.md` reports the mapping's precision.
pub mod answer;
pub mod calibration;
pub mod candidates;
pub mod cases;
pub mod command;
pub mod metrics;
pub mod model;
pub mod offline;
pub mod prompt;
#[cfg(test)]
mod proptests;

pub use model::ModelScorer;
pub use offline::OfflineScorer;

use std::sync::Arc;

/// What a candidate is: the decision function treats both alike, the
/// console and the logs tell them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Kind {
    Playbook,
    Skill,
}

/// A candidate as the scorer sees it: its name and the text it is matched
/// by (a playbook's goal and intent, a skill's objective).
#[derive(Clone, Debug, PartialEq)]
pub struct Described {
    pub name: String,
    pub kind: Kind,
    pub text: String,
}

/// Who gave the scores: the configured model, or the calibrated embedding
/// similarity (offline, or the model's fallback).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Model,
    Embedding,
}

/// One score per candidate, in [0,1], in the candidates' order.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored {
    pub scores: Vec<f64>,
    pub source: Source,
}

/// Why no score could be given at all (the model's failures are not here:
/// they fall back to the embeddings).
#[derive(Debug, thiserror::Error)]
pub enum ScoreError {
    /// The embedding server did not answer (down, timeout, overloaded).
    #[error("service d'embeddings indisponible")]
    Unavailable,
    /// It answered something unusable (refused request, wrong dimension).
    #[error("le service d'embeddings a refusé la demande")]
    Rejected,
}

impl From<crate::embeddings::EmbeddingError> for ScoreError {
    fn from(e: crate::embeddings::EmbeddingError) -> Self {
        use crate::embeddings::EmbeddingError;
        match e {
            EmbeddingError::Unavailable(_) => ScoreError::Unavailable,
            EmbeddingError::Rejected(_) | EmbeddingError::DimensionMismatch { .. } => {
                ScoreError::Rejected
            }
        }
    }
}

/// Scores a described action against candidates.
#[async_trait::async_trait]
pub trait Score: Send + Sync {
    /// One score in [0,1] per candidate, in their order; no candidates give
    /// no scores (and no call).
    async fn score(&self, action: &str, candidates: &[Described]) -> Result<Scored, ScoreError>;
}

/// The scorer of this process: the model's when one is given, the
/// calibrated embedding similarity otherwise.
pub fn scorer(
    llm: Option<Arc<dyn crate::llm::LlmProvider>>,
    embedder: Arc<dyn crate::embeddings::EmbeddingProvider>,
) -> Arc<dyn Score> {
    let offline = OfflineScorer::new(embedder);
    match llm {
        Some(llm) => Arc::new(ModelScorer::new(llm, offline)),
        None => Arc::new(offline),
    }
}
