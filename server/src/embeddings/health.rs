//! How the embedding pipelines are doing, for start-up and `/readyz`.
//!
//! The probe goes through each pipeline's provider — the same client,
//! lanes, key and dimension canary as real traffic — with one short query,
//! the kind of call a person waits for. A busy document lane therefore does
//! not make the pipelines look down: the query lane answers.
use super::{Embedders, EmbeddingProvider, InputType};
use crate::config::EmbeddingPipeline;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Mutex;

/// How long an answer is reused: `/readyz` is public and polled often.
const CACHE_FOR: Duration = Duration::from_secs(5);
/// Past this the pipeline is called busy, not down.
const PROBE_WITHIN: Duration = Duration::from_secs(3);

/// The state of the embedding pipelines, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum EmbeddingStatus {
    /// Nothing answers, or answers are refused or of the wrong dimension:
    /// searches use keywords, writes are saved without vectors.
    Unavailable,
    /// Answers come too slowly for a person waiting on them.
    Busy,
    Ok,
}

impl EmbeddingStatus {
    /// The word `/readyz` shows (no URL, no cause: it is public).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Busy => "busy",
            Self::Unavailable => "unavailable",
        }
    }
}

/// The status and, when not ok, the cause (with the redacted URL) for logs
/// and the start-up error.
pub type Probe = (EmbeddingStatus, Option<String>);

#[derive(Clone)]
pub struct EmbeddingHealth {
    embedders: Embedders,
    last: Arc<Mutex<Option<(Instant, Probe)>>>,
}

impl EmbeddingHealth {
    pub fn new(embedders: &Embedders) -> Self {
        EmbeddingHealth {
            embedders: embedders.clone(),
            last: Arc::default(),
        }
    }

    /// The worst status of the three pipelines, probed together; cached for
    /// a few seconds.
    pub async fn check(&self) -> Probe {
        let mut last = self.last.lock().await;
        if let Some((at, probe)) = last.as_ref() {
            if at.elapsed() < CACHE_FOR {
                return probe.clone();
            }
        }
        let e = &self.embedders;
        let probes = tokio::join!(
            probe(EmbeddingPipeline::Venues, e.venues.as_ref()),
            probe(EmbeddingPipeline::Memory, e.memory.as_ref()),
            probe(EmbeddingPipeline::Training, e.training.as_ref()),
        );
        let worst = [probes.0, probes.1, probes.2]
            .into_iter()
            .min_by_key(|(status, _)| *status)
            .unwrap_or((EmbeddingStatus::Ok, None));
        *last = Some((Instant::now(), worst.clone()));
        worst
    }
}

async fn probe(pipeline: EmbeddingPipeline, provider: &dyn EmbeddingProvider) -> Probe {
    let ping = ["ping".to_string()];
    match tokio::time::timeout(PROBE_WITHIN, provider.embed(&ping, InputType::Query)).await {
        Ok(Ok(_)) => (EmbeddingStatus::Ok, None),
        Ok(Err(e)) => (
            EmbeddingStatus::Unavailable,
            Some(format!("{} pipeline: {e}", pipeline.label())),
        ),
        Err(_) => (
            EmbeddingStatus::Busy,
            Some(format!(
                "{} pipeline: no answer within {} ms",
                pipeline.label(),
                PROBE_WITHIN.as_millis()
            )),
        ),
    }
}
