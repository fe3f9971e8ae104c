//! `maxy calibrate playbooks`: embeds the labelled set's actions (queries,
//! query lane) and the candidates (passages, cached) with the memory
//! pipeline's model, as the offline scorer does; fits the mapping on the
//! tuning half; prints its constants, the held-out report per band for the
//! fresh fit and for the constants in use ([`FITTED`]), and the latency per
//! action with the candidates cached.
use super::calibration::{fit, Mapping, FITTED};
use super::cases::{self, Case, Half, DEFAULT_CASES};
use super::metrics::{measure, samples, Evidence};
use super::{candidates, Described, OfflineScorer, ScoreError};
use anyhow::Context as _;
use std::time::{Duration, Instant};

/// Each case's raw cosines with `candidates`, and the time each action took
/// (its embedding and the cosines; candidates cached after the first).
pub async fn gather(
    cases: &[Case],
    candidates: &[Described],
    scorer: &OfflineScorer,
) -> Result<(Vec<Evidence>, Vec<Duration>), ScoreError> {
    // Warm the cache, so the latencies are those of a running server.
    scorer.cosines("préchauffage", candidates).await?;
    let mut evidence = Vec::with_capacity(cases.len());
    let mut latencies = Vec::with_capacity(cases.len());
    for case in cases {
        let started = Instant::now();
        let cosines = scorer.cosines(&case.action, candidates).await?;
        latencies.push(started.elapsed());
        let right = case
            .right
            .as_ref()
            .and_then(|name| candidates.iter().position(|c| &c.name == name));
        evidence.push(Evidence {
            half: case.half,
            right,
            cosines,
        });
    }
    Ok((evidence, latencies))
}

/// The `q` quantile (0–1) of `durations`, nearest rank.
pub fn quantile(durations: &[Duration], q: f64) -> Duration {
    let mut sorted = durations.to_vec();
    sorted.sort_unstable();
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn print_mapping(label: &str, m: &Mapping) {
    println!(
        "{label}: bias {:.4}, cosine {:.4}, lead {:.4}",
        m.bias, m.cosine, m.lead
    );
}

pub async fn command(
    config: &crate::config::Config,
    args: &crate::cli::CalibratePlaybooksArgs,
) -> anyhow::Result<()> {
    let (text, origin) = match &args.cases {
        Some(path) => (
            std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?,
            path.display().to_string(),
        ),
        None => (
            DEFAULT_CASES.to_string(),
            "server/data/playbook_actions.yaml".to_string(),
        ),
    };
    let cases = cases::parse(&text)?;
    let candidates = candidates::all()?;
    cases::check_names(&cases, |n| candidates.iter().any(|c| c.name == n))?;
    let embedder = crate::embeddings::Embedders::from_settings(&config.embeddings)?.memory;
    println!(
        "model {} ({} dims), set {origin}: {} actions, {} candidates",
        embedder.model(),
        embedder.dimensions(),
        cases.len(),
        candidates.len()
    );
    let scorer = OfflineScorer::new(embedder);
    let (evidence, latencies) = gather(&cases, &candidates, &scorer)
        .await
        .context("cannot embed the labelled set")?;
    let fresh = fit(&samples(&evidence, Half::Tuning));
    print_mapping("fitted on the tuning half", &fresh);
    print_mapping("in use (scoring::calibration::FITTED)", &FITTED);
    println!("\nheld-out half, fresh fit:");
    print!("{}", measure(&evidence, Half::HeldOut, &fresh).render());
    println!("held-out half, constants in use:");
    print!("{}", measure(&evidence, Half::HeldOut, &FITTED).render());
    println!("tuning half, constants in use:");
    print!("{}", measure(&evidence, Half::Tuning, &FITTED).render());
    println!(
        "\nlatency per action (action embedded on the query lane, {} candidates cached): \
         p50 {:?}, p95 {:?}, max {:?}",
        candidates.len(),
        quantile(&latencies, 0.5),
        quantile(&latencies, 0.95),
        quantile(&latencies, 1.0)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::quantile;
    use std::time::Duration;

    #[test]
    fn quantiles_are_nearest_rank() {
        let d: Vec<Duration> = (1..=10).map(Duration::from_millis).collect();
        assert_eq!(quantile(&d, 0.5), Duration::from_millis(5));
        assert_eq!(quantile(&d, 0.95), Duration::from_millis(10));
        assert_eq!(quantile(&d, 0.0), Duration::from_millis(1));
        assert_eq!(quantile(&[], 0.5), Duration::ZERO);
    }
}
