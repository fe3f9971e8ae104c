//! The offline scorer: cosine between the action and each candidate, less
//! the candidate's baseline, mapped to [0,1] by the fitted
//! [`super::calibration::FITTED`].
//!
//! The baseline: some candidate texts sit close to every action (with e5,
//! « demander à un lieu s'il est disponible… » is the nearest candidate of 22
//! of the 122 labelled actions, most of them not about availability). A
//! candidate's baseline is its mean cosine with fixed reference actions
//! (the labelled set's tuning half, embedded once per process as queries);
//! subtracting it took the
//! held-out share of actions whose best candidate is right from 45 % to
//! 55 % (docs/playbook-scoring.md). A new playbook gets its baseline the
//! same way the first time its text is seen.
//!
//! The action is embedded as a query on the query lane (a person waits for
//! the answer); candidates as passages, also on the query lane when one is
//! missing, since the same person waits. Candidate texts change only when
//! an admin edits a playbook, so their vectors are kept in memory by exact
//! text: each text is embedded once per process, and a steady-state score
//! costs one short query embedding.
use super::calibration::{Mapping, FITTED};
use super::{Described, Score, ScoreError, Scored, Source};
use crate::embeddings::{EmbeddingProvider, InputType};
use crate::memory::calibration::cosine;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Texts kept at most: far above the shipped candidates and every version
/// admins may save in a process's life; past it the cache starts afresh
/// rather than grow without end.
const CACHE_LIMIT: usize = 4_096;

pub struct OfflineScorer {
    embedder: Arc<dyn EmbeddingProvider>,
    mapping: Mapping,
    vectors: Mutex<HashMap<String, Cached>>,
    references: tokio::sync::OnceCell<Arc<Vec<Vec<f32>>>>,
}

/// A candidate text's vector and baseline.
#[derive(Clone)]
struct Cached {
    vector: Arc<Vec<f32>>,
    baseline: f64,
}

impl OfflineScorer {
    pub fn new(embedder: Arc<dyn EmbeddingProvider>) -> Self {
        Self::with_mapping(embedder, FITTED)
    }

    /// With other constants: `maxy calibrate playbooks` measures a fresh
    /// fit through the same path.
    pub fn with_mapping(embedder: Arc<dyn EmbeddingProvider>, mapping: Mapping) -> Self {
        OfflineScorer {
            embedder,
            mapping,
            vectors: Mutex::new(HashMap::new()),
            references: tokio::sync::OnceCell::new(),
        }
    }

    /// The cosines of `action` with each candidate less each candidate's
    /// baseline, in their order (what the mapping is fitted on).
    pub async fn cosines(
        &self,
        action: &str,
        candidates: &[Described],
    ) -> Result<Vec<f64>, ScoreError> {
        if candidates.is_empty() {
            return Ok(Vec::new());
        }
        let vectors = self.candidate_vectors(candidates).await?;
        let query = self
            .embedder
            .embed_interactive(&[action.trim().to_string()], InputType::Query)
            .await?;
        let query = query.first().ok_or(ScoreError::Rejected)?;
        Ok(vectors
            .iter()
            .map(|c| cosine(query, &c.vector) - c.baseline)
            .collect())
    }

    /// Each candidate's vector, embedding (in one request) only the texts
    /// not seen yet.
    async fn candidate_vectors(&self, candidates: &[Described]) -> Result<Vec<Cached>, ScoreError> {
        let mut found: HashMap<&str, Cached> = {
            let cache = self.lock();
            candidates
                .iter()
                .filter_map(|c| Some((c.text.as_str(), cache.get(&c.text)?.clone())))
                .collect()
        };
        let mut missing: Vec<&str> = candidates
            .iter()
            .map(|c| c.text.as_str())
            .filter(|t| !found.contains_key(t))
            .collect();
        missing.sort_unstable();
        missing.dedup();
        if !missing.is_empty() {
            let texts: Vec<String> = missing.iter().map(|t| t.to_string()).collect();
            let vectors = self
                .embedder
                .embed_interactive(&texts, InputType::Document)
                .await?;
            if vectors.len() != missing.len() {
                return Err(ScoreError::Rejected);
            }
            let references = self.references().await?;
            let mut cache = self.lock();
            if cache.len() + missing.len() > CACHE_LIMIT {
                cache.clear();
            }
            for (text, vector) in missing.into_iter().zip(vectors) {
                let cached = Cached {
                    baseline: baseline(&vector, &references),
                    vector: Arc::new(vector),
                };
                cache.insert(text.to_string(), cached.clone());
                found.insert(text, cached);
            }
        }
        candidates
            .iter()
            .map(|c| {
                found
                    .get(c.text.as_str())
                    .cloned()
                    .ok_or(ScoreError::Rejected)
            })
            .collect()
    }

    /// The reference actions' vectors, embedded on first use.
    async fn references(&self) -> Result<Arc<Vec<Vec<f32>>>, ScoreError> {
        let vectors = self
            .references
            .get_or_try_init(|| async {
                let texts = super::cases::reference_actions();
                if texts.is_empty() {
                    return Ok(Arc::new(Vec::new()));
                }
                let vectors = self
                    .embedder
                    .embed_interactive(&texts, InputType::Query)
                    .await?;
                Ok::<_, ScoreError>(Arc::new(vectors))
            })
            .await?;
        Ok(vectors.clone())
    }

    /// The cache's lock; a panic elsewhere while holding it left only
    /// vectors behind, which are still good.
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Cached>> {
        self.vectors
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// How many candidate texts are cached (for tests and the benchmark).
    pub fn cached(&self) -> usize {
        self.lock().len()
    }
}

/// The mean cosine of `vector` with `references` (0 without any).
fn baseline(vector: &[f32], references: &[Vec<f32>]) -> f64 {
    if references.is_empty() {
        return 0.0;
    }
    references.iter().map(|r| cosine(vector, r)).sum::<f64>() / references.len() as f64
}

#[async_trait::async_trait]
impl Score for OfflineScorer {
    async fn score(&self, action: &str, candidates: &[Described]) -> Result<Scored, ScoreError> {
        let cosines = self.cosines(action, candidates).await?;
        Ok(Scored {
            scores: self.mapping.scores(&cosines),
            source: Source::Embedding,
        })
    }
}
