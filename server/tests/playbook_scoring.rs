//! Playbook scoring (issue 28): the offline scorer embeds each candidate
//! text once and the action every time, as a query; the model scorer makes
//! one `guidance` call for all candidates and falls back to the offline
//! scores when the model answers garbage, leaves a candidate out or stalls;
//! and with the real local model (multilingual e5-small), the fitted
//! mapping keeps its held-out precision per band.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
#[path = "playbook_scoring/fakes.rs"]
mod fakes;
#[path = "playbook_scoring/real_model.rs"]
mod real_model;
mod support;

use fakes::{DownEmbedder, WordsEmbedder};
use server::embeddings::InputType;
use server::llm::{LlmProvider, OfflineLlm};
use server::playbooks::scoring::{
    cases, scorer, Described, Kind, ModelScorer, OfflineScorer, Score, ScoreError, Source,
};
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::anthropic::{prompt, FakeAnthropic, Reply};

fn candidates() -> Vec<Described> {
    vec![
        Described {
            name: "groupe-plus-de-200".into(),
            kind: Kind::Playbook,
            text: "traiter une demande pour un groupe de plus de 200 personnes".into(),
        },
        Described {
            name: "request_availability_check".into(),
            kind: Kind::Skill,
            text: "demander à un lieu s'il est disponible aux dates de l'événement".into(),
        },
        Described {
            name: "save_memory".into(),
            kind: Kind::Skill,
            text: "retenir durablement une préférence de l'utilisateur".into(),
        },
    ]
}

const ACTION: &str = "demander à un lieu s'il est libre le 12 mars";

#[tokio::test]
async fn candidates_are_embedded_once_as_passages_and_the_action_each_time_as_a_query() {
    let embedder = Arc::new(WordsEmbedder::default());
    let offline = OfflineScorer::new(embedder.clone());
    let first = offline.score(ACTION, &candidates()).await.unwrap();
    let second = offline
        .score("retenir ma préférence", &candidates())
        .await
        .unwrap();
    assert_eq!(first.source, Source::Embedding);
    assert_eq!(first.scores.len(), 3);
    assert!(first
        .scores
        .iter()
        .chain(&second.scores)
        .all(|s| (0.0..=1.0).contains(s)));
    // The availability skill shares the action's words: it leads.
    let best = |s: &[f64]| (0..s.len()).max_by(|a, b| s[*a].total_cmp(&s[*b])).unwrap();
    assert_eq!(best(&first.scores), 1, "{:?}", first.scores);
    assert_eq!(best(&second.scores), 2, "{:?}", second.scores);

    let seen = embedder.seen();
    let documents: Vec<_> = seen
        .iter()
        .filter(|(_, t)| *t == InputType::Document)
        .collect();
    // The reference actions of the baselines are embedded once, as queries.
    let references = cases::reference_actions();
    let (baselines, queries): (Vec<_>, Vec<_>) = seen
        .iter()
        .filter(|(_, t)| *t == InputType::Query)
        .partition(|(text, _)| references.contains(text));
    assert_eq!(documents.len(), 3, "each candidate once: {seen:?}");
    assert_eq!(queries.len(), 2, "the action each time: {seen:?}");
    assert_eq!(baselines.len(), references.len(), "the references once");
    assert_eq!(offline.cached(), 3);

    // An edited text is a new text; the others stay cached.
    let mut edited = candidates();
    edited[0].text.push_str(" ou plus");
    offline.score(ACTION, &edited).await.unwrap();
    let documents = embedder
        .seen()
        .iter()
        .filter(|(_, t)| *t == InputType::Document)
        .count();
    assert_eq!(documents, 4);
}

#[tokio::test]
async fn no_candidates_no_call_and_a_down_embedder_is_a_french_error() {
    let embedder = Arc::new(WordsEmbedder::default());
    let scored = OfflineScorer::new(embedder.clone())
        .score(ACTION, &[])
        .await
        .unwrap();
    assert!(scored.scores.is_empty());
    assert!(embedder.seen().is_empty());

    let err = OfflineScorer::new(Arc::new(DownEmbedder))
        .score(ACTION, &candidates())
        .await
        .unwrap_err();
    assert!(matches!(err, ScoreError::Unavailable));
    assert_eq!(err.to_string(), "service d'embeddings indisponible");
}

/// The model scorer against the fake answering `reply` once.
async fn model(reply: Reply) -> (FakeAnthropic, ModelScorer, Arc<WordsEmbedder>) {
    let fake = FakeAnthropic::start(vec![reply]).await;
    let embedder = Arc::new(WordsEmbedder::default());
    let scorer = ModelScorer::new(fake.provider("5000"), OfflineScorer::new(embedder.clone()))
        .with_bound(Duration::from_millis(1500));
    (fake, scorer, embedder)
}

#[tokio::test]
async fn one_call_scores_every_candidate_in_their_order() {
    let answer = r#"{"scores": {"save_memory": 0.05, "request_availability_check": 0.93, "groupe-plus-de-200": 0.1}}"#;
    let (fake, scorer, embedder) = model(Reply::Text(answer.into())).await;
    let scored = scorer.score(ACTION, &candidates()).await.unwrap();
    assert_eq!(scored.source, Source::Model);
    assert_eq!(scored.scores, vec![0.1, 0.93, 0.05]);
    assert!(
        embedder.seen().is_empty(),
        "no embedding when the model answers"
    );

    let seen = fake.seen();
    assert_eq!(seen.len(), 1, "one call, no retry");
    let body = &seen[0].body;
    let text = prompt(body);
    assert!(
        text.contains(&format!(
            "<external_content type=\"action\">\n{ACTION}\n</external_content>"
        )),
        "{text}"
    );
    for c in candidates() {
        assert!(text.contains(&format!("`{}`", c.name)), "{text}");
    }
    assert!(body["system"].to_string().contains("scores"));
    assert_eq!(body["temperature"], 0.0);
}

#[tokio::test]
async fn garbage_a_missing_candidate_or_a_bad_score_falls_back_to_the_offline_scores() {
    let offline = OfflineScorer::new(Arc::new(WordsEmbedder::default()))
        .score(ACTION, &candidates())
        .await
        .unwrap();
    for answer in [
        "Je pense que c'est la vérification de disponibilité.",
        r#"{"scores": {"request_availability_check": 0.93}}"#,
        r#"{"scores": {"save_memory": 0.05, "request_availability_check": 93, "groupe-plus-de-200": 0.1}}"#,
        r#"{"answers": [2]}"#,
    ] {
        let (fake, scorer, _) = model(Reply::Text(answer.into())).await;
        let scored = scorer.score(ACTION, &candidates()).await.unwrap();
        assert_eq!(scored.source, Source::Embedding, "{answer}");
        assert_eq!(scored.scores, offline.scores, "{answer}");
        assert_eq!(fake.seen().len(), 1, "{answer}: no second call");
    }
}

#[tokio::test]
async fn a_stalled_model_falls_back_within_the_bound() {
    let (_fake, scorer, _) = model(Reply::Hang(Duration::from_secs(10))).await;
    let started = Instant::now();
    let scored = scorer.score(ACTION, &candidates()).await.unwrap();
    assert_eq!(scored.source, Source::Embedding);
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "{:?}",
        started.elapsed()
    );

    let (_fake, scorer, _) = model(Reply::Status(500, "api_error")).await;
    let scored = scorer.score(ACTION, &candidates()).await.unwrap();
    assert_eq!(scored.source, Source::Embedding);
}

#[tokio::test]
async fn the_factory_picks_the_model_only_when_one_is_given() {
    let embedder = Arc::new(WordsEmbedder::default());
    let offline = scorer(None, embedder.clone());
    assert_eq!(
        offline.score(ACTION, &candidates()).await.unwrap().source,
        Source::Embedding
    );
    // The offline provider is never called: the embeddings answer.
    let llm: Arc<dyn LlmProvider> = Arc::new(OfflineLlm);
    let with_offline_llm = scorer(Some(llm), embedder.clone());
    assert_eq!(
        with_offline_llm
            .score(ACTION, &candidates())
            .await
            .unwrap()
            .source,
        Source::Embedding
    );
    let answer = r#"{"scores": {"save_memory": 0, "request_availability_check": 1, "groupe-plus-de-200": 0}}"#;
    let fake = FakeAnthropic::start(vec![Reply::Text(answer.into())]).await;
    let with_model = scorer(Some(fake.provider("5000")), embedder);
    let scored = with_model.score(ACTION, &candidates()).await.unwrap();
    assert_eq!(
        (scored.source, scored.scores),
        (Source::Model, vec![0.0, 1.0, 0.0])
    );
}
