//! The dimension canary (seed 003, part 6).
//!
//! A gateway may silently drop the `dimensions` parameter, or an operator may
//! point a pipeline at another model: the vectors then no longer fit the
//! `vector(N)` column. The canary checks every response before any vector
//! leaves the client, so a mismatch becomes [`EmbeddingError::DimensionMismatch`]
//! and callers store the row without an embedding instead of failing the write.
//!
//! It is an inner piece of the client rather than a wrapper around
//! [`EmbeddingProvider`](super::EmbeddingProvider): it runs on each HTTP
//! response, so a mismatch on the first batch stops the remaining batches.
//!
//! The first outcome is logged at `warn`, the level production keeps, so the
//! one line that answers "does the upstream honour our dimension?" is always
//! there. Later responses are checked too, but each outcome is logged once per
//! process and endpoint, so a backfill of 70,000 rows does not flood the logs.
use super::EmbeddingError;
use crate::config::{redact_url, EmbeddingPipeline, PipelineSettings};
use std::collections::HashSet;
use std::sync::{Mutex, PoisonError};

/// What the canary saw; each is logged once per endpoint key.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Outcome {
    Match,
    Mismatch,
}

/// Outcomes already logged in this process. Process-wide rather than
/// per client so rebuilding a client (a job, a CLI command) never repeats
/// the line; keyed by endpoint too, so tests with separate fake servers stay
/// independent while production (one endpoint per pipeline) logs once per pipeline.
static LOGGED: Mutex<Option<HashSet<(Outcome, String)>>> = Mutex::new(None);

/// Checks one pipeline's vectors against its configured dimension.
#[derive(Clone, Debug)]
pub struct DimensionCanary {
    pipeline: EmbeddingPipeline,
    model: String,
    expected: u32,
    key: String,
}

impl DimensionCanary {
    pub fn new(pipeline: EmbeddingPipeline, settings: &PipelineSettings) -> Self {
        let key = format!(
            "{}|{}|{}|{}",
            pipeline.label(),
            settings.model,
            settings.dimensions,
            redact_url(&settings.base_url)
        );
        DimensionCanary {
            pipeline,
            model: settings.model.clone(),
            expected: settings.dimensions,
            key,
        }
    }

    /// `Ok` when every vector has the configured dimension; logs the first
    /// outcome of each kind (see the module docs).
    pub fn check(&self, vectors: &[Vec<f32>]) -> Result<(), EmbeddingError> {
        let expected = self.expected as usize;
        let Some(got) = vectors.iter().map(Vec::len).find(|&n| n != expected) else {
            if let Some(first) = vectors.first() {
                if self.first_time(Outcome::Match) {
                    tracing::warn!(
                        pipeline = %self.pipeline.label(),
                        model = %self.model,
                        dim = first.len(),
                        batch = vectors.len(),
                        "embedding canary OK"
                    );
                }
            }
            return Ok(());
        };
        if self.first_time(Outcome::Mismatch) {
            tracing::warn!(
                pipeline = %self.pipeline.label(),
                model = %self.model,
                expected,
                got,
                "embedding dimension mismatch: the model answered {got} dimensions, \
                 MAXY_{infix}_EMBEDDING_DIMENSIONS is {expected}; rows will be stored without \
                 embedding until the model or the setting is fixed (or set \
                 MAXY_{infix}_EMBEDDING_SEND_DIMENSIONS=true if the server can shorten vectors)",
                infix = self.pipeline.env_infix(),
            );
        } else {
            tracing::debug!(
                pipeline = %self.pipeline.label(),
                expected,
                got,
                "embedding dimension mismatch (already reported)"
            );
        }
        Err(EmbeddingError::DimensionMismatch {
            expected: self.expected,
            got,
        })
    }

    /// True the first time this outcome is seen for this endpoint in the process.
    fn first_time(&self, outcome: Outcome) -> bool {
        // A panic elsewhere while holding the lock leaves a valid set: keep using it.
        let mut logged = LOGGED.lock().unwrap_or_else(PoisonError::into_inner);
        logged
            .get_or_insert_with(HashSet::new)
            .insert((outcome, self.key.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::InputTypeStyle;

    fn canary(model: &str, dimensions: u32) -> DimensionCanary {
        let settings = PipelineSettings {
            base_url: "http://canary.test/v1".into(),
            query_url: "http://canary.test/v1".into(),
            query_timeout: std::time::Duration::from_secs(1),
            api_key: None,
            model: model.into(),
            dimensions,
            input_type_style: InputTypeStyle::None,
            send_dimensions: false,
            batch_size: 8,
        };
        DimensionCanary::new(EmbeddingPipeline::Memory, &settings)
    }

    #[test]
    fn every_vector_must_have_the_configured_size() {
        let c = canary("unit-a", 3);
        assert!(c.check(&[vec![0.0; 3], vec![1.0; 3]]).is_ok());
        assert!(c.check(&[]).is_ok());
        match c.check(&[vec![0.0; 3], vec![0.0; 5]]) {
            Err(EmbeddingError::DimensionMismatch { expected, got }) => {
                assert_eq!((expected, got), (3, 5));
            }
            other => panic!("expected a mismatch, got {other:?}"),
        }
    }

    #[test]
    fn each_outcome_is_first_only_once_per_endpoint() {
        let a = canary("unit-b", 4);
        assert!(a.first_time(Outcome::Match));
        assert!(!a.first_time(Outcome::Match));
        assert!(!canary("unit-b", 4).first_time(Outcome::Match), "same key");
        assert!(a.first_time(Outcome::Mismatch));
        assert!(
            canary("unit-c", 4).first_time(Outcome::Match),
            "other model"
        );
    }
}
