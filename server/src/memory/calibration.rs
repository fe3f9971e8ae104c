//! `maxy calibrate memory`: how well the memory pipeline's model separates
//! related from unrelated (query, memory) pairs, per similarity floor.
//!
//! The labelled set (`server/data/memory_calibration.json`, compiled in) has
//! memories and reminders of this product and queries labelled with the
//! memories they relate to. The command embeds memories as documents and
//! queries as queries, exactly as the store and the search do, scores every
//! pair by cosine, and prints precision / recall / F1 per floor, the score
//! distributions of both classes, top-1 accuracy and the suggested floor
//! ([`metrics::suggest`]). The chosen value goes into [`super::floor`].
pub mod metrics;
pub mod set;

pub use metrics::{Calibration, Distribution, ThresholdRow};
pub use set::{CalibrationSet, LabelledMemory, LabelledQuery, SetError};

use super::backfill::{memory_text, task_text};
use crate::embeddings::{EmbeddingProvider, InputType};
use anyhow::Context as _;

/// The committed set, compiled into the binary so the command needs no path.
pub const DEFAULT_SET: &str = include_str!("../../data/memory_calibration.json");

/// Queries per request on the query lane.
const QUERY_CHUNK: usize = 4;

/// The text each labelled memory is embedded from: the write path's.
pub fn document_text(m: &LabelledMemory) -> String {
    match m.kind {
        set::Kind::Memory => memory_text(&m.title, &m.content),
        set::Kind::Task => task_text(&m.title, &m.content),
    }
}

/// Embeds the set with `provider` and scores every (query, memory) pair.
pub async fn run(
    set: &CalibrationSet,
    provider: &dyn EmbeddingProvider,
) -> anyhow::Result<Calibration> {
    let documents: Vec<String> = set.memories.iter().map(document_text).collect();
    let queries: Vec<String> = set.queries.iter().map(|q| q.text.clone()).collect();
    let doc_vectors = provider
        .embed(&documents, InputType::Document)
        .await
        .context("cannot embed the calibration memories")?;
    // The query lane is bounded to what a person waits for (2 s by
    // default): a few queries per request, as a search sends them.
    let mut query_vectors = Vec::with_capacity(queries.len());
    for chunk in queries.chunks(QUERY_CHUNK) {
        query_vectors.extend(
            provider
                .embed(chunk, InputType::Query)
                .await
                .context("cannot embed the calibration queries")?,
        );
    }
    let scores: Vec<Vec<f64>> = query_vectors
        .iter()
        .map(|q| doc_vectors.iter().map(|d| cosine(q, d)).collect())
        .collect();
    Ok(Calibration::new(scores, set.relation_matrix()).named(
        set.queries.iter().map(|q| q.id.clone()).collect(),
        set.memories.iter().map(|m| m.id.clone()).collect(),
    ))
}

/// Cosine similarity (0 when a vector is all zeros).
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| f64::from(*x) * f64::from(*y))
        .sum();
    let norm = |v: &[f32]| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    let n = norm(a) * norm(b);
    if n == 0.0 {
        0.0
    } else {
        dot / n
    }
}

/// `maxy calibrate memory`: runs the set against the configured memory
/// pipeline and prints the report.
pub async fn command(
    config: &crate::config::Config,
    args: &crate::cli::CalibrateMemoryArgs,
) -> anyhow::Result<()> {
    let (set, origin) = match &args.set {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            (CalibrationSet::parse(&text)?, path.display().to_string())
        }
        None => (
            CalibrationSet::parse(DEFAULT_SET)?,
            "server/data/memory_calibration.json".to_string(),
        ),
    };
    let provider = crate::embeddings::Embedders::from_settings(&config.embeddings)?.memory;
    let calibration = run(&set, provider.as_ref()).await?;
    println!(
        "model {} ({} dims), set {origin}: {} memories, {} queries, {} related / {} unrelated pairs",
        provider.model(),
        provider.dimensions(),
        set.memories.len(),
        set.queries.len(),
        calibration.related_pairs(),
        calibration.unrelated_pairs(),
    );
    print!("{}", calibration.report(metrics::MIN_RECALL));
    let current = super::floor::for_model(provider.model(), None);
    println!(
        "floor::for_model({:?}) today: {current:.2}{}",
        provider.model(),
        match config.memory.similarity_floor {
            Some(f) => format!(" (overridden by MAXY_MEMORY_SIMILARITY_FLOOR={f})"),
            None => String::new(),
        }
    );
    Ok(())
}
