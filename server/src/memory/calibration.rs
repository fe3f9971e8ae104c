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
pub mod cases;
pub mod metrics;
pub mod set;
pub mod tuning;

pub use metrics::{Calibration, Distribution, ThresholdRow};
pub use set::{CalibrationSet, LabelledMemory, LabelledQuery, SetError};

use super::backfill::{memory_text, task_text};
use crate::embeddings::{EmbeddingProvider, InputType};
use anyhow::Context as _;

/// The committed set, compiled into the binary so the command needs no path.
pub const DEFAULT_SET: &str = include_str!("../../data/memory_calibration.json");
/// The labelled search cases ([`cases`]), compiled in likewise.
pub const DEFAULT_CASES: &str = include_str!("../../data/memory_cases.yaml");

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
    let (doc_vectors, query_vectors) = embed_both(provider, &documents, &queries).await?;
    let scores: Vec<Vec<f64>> = query_vectors
        .iter()
        .map(|q| doc_vectors.iter().map(|d| cosine(q, d)).collect())
        .collect();
    Ok(Calibration::new(scores, set.relation_matrix()).named(
        set.queries.iter().map(|q| q.id.clone()).collect(),
        set.memories.iter().map(|m| m.id.clone()).collect(),
    ))
}

/// Memories embedded as documents, questions as queries. The query lane is
/// bounded to what a person waits for (2 s by default): a few questions per
/// request, as a search sends them.
async fn embed_both(
    provider: &dyn EmbeddingProvider,
    documents: &[String],
    queries: &[String],
) -> anyhow::Result<(Vec<Vec<f32>>, Vec<Vec<f32>>)> {
    let doc_vectors = provider
        .embed(documents, InputType::Document)
        .await
        .context("cannot embed the memories")?;
    let mut query_vectors = Vec::with_capacity(queries.len());
    for chunk in queries.chunks(QUERY_CHUNK) {
        query_vectors.extend(
            provider
                .embed(chunk, InputType::Query)
                .await
                .context("cannot embed the questions")?,
        );
    }
    Ok((doc_vectors, query_vectors))
}

/// Gathers every case's evidence as the search would: memories embedded as
/// documents and questions as queries by `provider`, full-text ranks from
/// PostgreSQL (`db`), date windows read from the question.
pub async fn gather_cases(
    cases: &[cases::Case],
    provider: &dyn EmbeddingProvider,
    db: &sqlx::PgPool,
) -> anyhow::Result<Vec<tuning::CaseEvidence>> {
    let texts = |c: &cases::Case| -> Vec<String> {
        c.memories
            .iter()
            .map(|m| match m.reminder {
                true => task_text(&m.title, &m.content),
                false => memory_text(&m.title, &m.content),
            })
            .collect()
    };
    let documents: Vec<String> = cases.iter().flat_map(texts).collect();
    let queries: Vec<String> = cases.iter().map(|c| c.query.clone()).collect();
    let (doc_vectors, query_vectors) = embed_both(provider, &documents, &queries).await?;
    let mut out = Vec::with_capacity(cases.len());
    let mut docs = doc_vectors.iter();
    for (case, query) in cases.iter().zip(&query_vectors) {
        let cosines: Vec<f64> = docs
            .by_ref()
            .take(case.memories.len())
            .map(|d| cosine(query, d))
            .collect();
        let titles: Vec<String> = case.memories.iter().map(|m| m.title.clone()).collect();
        let bodies: Vec<String> = case.memories.iter().map(|m| m.content.clone()).collect();
        let ranks = crate::db::memory_words::ranks(db, &case.query, &titles, &bodies).await?;
        out.push(tuning::case_evidence(case, &cosines, &ranks));
    }
    Ok(out)
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
    let cases = match &args.cases {
        Some(path) => cases::parse(
            &std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?,
        )?,
        None => cases::parse(DEFAULT_CASES)?,
    };
    let db = crate::db::connect(&config.database).await?;
    let evidence = gather_cases(&cases, provider.as_ref(), &db).await?;
    let tuned = tuning::tune(&evidence);
    println!(
        "\nsearch cases: {} ({} to tune, {} held out)",
        evidence.len(),
        evidence
            .iter()
            .filter(|c| c.half == cases::Half::Tuning)
            .count(),
        evidence
            .iter()
            .filter(|c| c.half == cases::Half::HeldOut)
            .count(),
    );
    println!("tuned on the tuning half:");
    print!("{}", tuning::report(&evidence, &tuned));
    if let Some(current) = super::floor::tuning_for(provider.model()) {
        println!("in use for this model (memory::floor):");
        print!("{}", tuning::report(&evidence, &current));
    }
    let current = super::floor::for_model(provider.model(), None);
    println!(
        "floor::for_model({:?}) keep floor today: {:.3}{}",
        provider.model(),
        current.keep_floor,
        match config.memory.similarity_floor {
            Some(f) => format!(" (overridden by MAXY_MEMORY_SIMILARITY_FLOOR={f})"),
            None => String::new(),
        }
    );
    Ok(())
}
