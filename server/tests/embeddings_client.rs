//! The OpenAI-compatible embedding client against a scripted fake server at
//! the network edge (batching, query/document fields, retries, parsing, the
//! dimension canary, the API key), and once against the real local model.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
#[path = "embeddings_client/fake.rs"]
mod fake;
#[path = "embeddings_client/lanes.rs"]
mod lanes;
#[path = "embeddings_client/local_model.rs"]
mod local_model;
mod support;

use fake::{texts, Fake, Reply};
use serde_json::{json, Value};
use server::config::{EmbeddingPipeline, EmbeddingSettings, Env, InputTypeStyle, PipelineSettings};
use server::embeddings::{
    Embedders, EmbeddingError, EmbeddingProvider, InputType, OpenAiEmbeddings,
};
use std::time::{Duration, Instant};
use support::logs::capture_logs;

#[tokio::test]
async fn a_hundred_texts_go_in_batches_of_48_48_4_in_order() {
    let fake = Fake::start(384, vec![]).await;
    let vectors = fake
        .client(&fake.settings())
        .embed(&texts(100), InputType::Document)
        .await
        .unwrap();
    let sizes: Vec<usize> = fake
        .bodies()
        .iter()
        .map(|b| b["input"].as_array().unwrap().len())
        .collect();
    assert_eq!(sizes, [48, 48, 4]);
    let sent: Vec<Value> = fake
        .bodies()
        .iter()
        .flat_map(|b| b["input"].as_array().unwrap().clone())
        .collect();
    assert_eq!(sent, texts(100));
    assert_eq!(vectors.len(), 100);
    assert!(vectors
        .iter()
        .enumerate()
        .all(|(i, v)| v[0] == i as f32 && v.len() == 384));
}

#[tokio::test]
async fn query_and_document_are_sent_the_configured_way() {
    let fake = Fake::start(384, vec![]).await;
    let cases = [
        (InputTypeStyle::InputType, "input_type", "query", "passage"),
        (
            InputTypeStyle::TaskType,
            "task_type",
            "RETRIEVAL_QUERY",
            "RETRIEVAL_DOCUMENT",
        ),
    ];
    for (style, field, query, document) in cases {
        let client = fake.client(&PipelineSettings {
            input_type_style: style,
            ..fake.settings()
        });
        client.embed(&texts(1), InputType::Query).await.unwrap();
        client.embed(&texts(1), InputType::Document).await.unwrap();
        let bodies = fake.bodies();
        let [.., q, d] = bodies.as_slice() else {
            panic!("two requests")
        };
        assert_eq!(
            (q[field].as_str(), d[field].as_str()),
            (Some(query), Some(document))
        );
        let other = if field == "input_type" {
            "task_type"
        } else {
            "input_type"
        };
        assert!(q.get(other).is_none() && d.get(other).is_none(), "{q}");
    }
    let none = fake.client(&PipelineSettings {
        input_type_style: InputTypeStyle::None,
        ..fake.settings()
    });
    none.embed(&texts(1), InputType::Query).await.unwrap();
    let last = fake.bodies().pop().unwrap();
    assert_eq!(
        last,
        json!({"model": "fake-e5", "input": ["texte 0"]}),
        "no type, no dimensions"
    );
    let with_dims = fake.client(&PipelineSettings {
        send_dimensions: true,
        ..fake.settings()
    });
    with_dims.embed(&texts(1), InputType::Query).await.unwrap();
    assert_eq!(fake.bodies().pop().unwrap()["dimensions"], 384);
}

#[tokio::test]
async fn server_errors_are_retried_until_success() {
    let fake = Fake::start(
        384,
        vec![Reply::Status(500, "boom"), Reply::Status(503, "busy")],
    )
    .await;
    let vectors = fake
        .client(&fake.settings())
        .embed(&texts(2), InputType::Document)
        .await
        .unwrap();
    assert_eq!(vectors.len(), 2);
    assert_eq!(fake.bodies().len(), 3);
}

#[tokio::test]
async fn three_failures_make_the_server_unavailable() {
    let fake = Fake::start(384, vec![Reply::Status(502, "down"); 5]).await;
    let err = fake
        .client(&fake.settings())
        .embed(&texts(2), InputType::Document)
        .await
        .unwrap_err();
    assert!(matches!(err, EmbeddingError::Unavailable(_)), "{err}");
    assert!(
        err.to_string()
            .contains("HTTP 502: down (after 3 attempts)"),
        "{err}"
    );
    assert_eq!(fake.bodies().len(), 3);
}

#[tokio::test]
async fn rate_limits_wait_for_retry_after_up_to_a_bound() {
    let fake = Fake::start(384, vec![Reply::RateLimited("1")]).await;
    let started = Instant::now();
    fake.client(&fake.settings())
        .embed(&texts(1), InputType::Query)
        .await
        .unwrap();
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "waited {:?}",
        started.elapsed()
    );
    assert_eq!(fake.bodies().len(), 2);

    let fake = Fake::start(384, vec![Reply::RateLimited("3600")]).await;
    let err = fake
        .client(&fake.settings())
        .embed(&texts(1), InputType::Query)
        .await
        .unwrap_err();
    assert!(matches!(err, EmbeddingError::Unavailable(_)), "{err}");
    assert!(err.to_string().contains("retry after 3600 s"), "{err}");
    assert_eq!(fake.bodies().len(), 1, "an hour is not worth waiting for");
}

#[tokio::test]
async fn client_errors_are_not_retried() {
    let body =
        r#"{"error":{"message":"'input' must not be empty","type":"invalid_request_error"}}"#;
    let fake = Fake::start(384, vec![Reply::Status(400, body)]).await;
    let err = fake
        .client(&fake.settings())
        .embed(&texts(1), InputType::Query)
        .await
        .unwrap_err();
    assert!(matches!(err, EmbeddingError::Rejected(_)), "{err}");
    assert!(
        err.to_string()
            .contains("HTTP 400: 'input' must not be empty"),
        "{err}"
    );
    assert_eq!(fake.bodies().len(), 1);
}

#[tokio::test]
async fn timeouts_and_closed_ports_are_retried_then_unavailable() {
    let fake = Fake::start(384, vec![Reply::Hang(Duration::from_secs(2)); 3]).await;
    let client = OpenAiEmbeddings::new(
        EmbeddingPipeline::Venues,
        &fake.settings(),
        Duration::from_millis(200),
    )
    .unwrap();
    let err = client
        .embed(&texts(1), InputType::Document)
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("did not answer within 200 ms (after 3 attempts)"),
        "{err}"
    );
    assert_eq!(fake.bodies().len(), 3);

    let closed_url = format!("http://{}/v1", support::closed_port().await);
    let closed = PipelineSettings {
        base_url: closed_url.clone(),
        query_url: closed_url,
        ..fake.settings()
    };
    let err = fake
        .client(&closed)
        .embed(&texts(1), InputType::Document)
        .await
        .unwrap_err();
    assert!(matches!(err, EmbeddingError::Unavailable(_)), "{err}");
    assert!(
        err.to_string()
            .contains("is unreachable (after 3 attempts)"),
        "{err}"
    );
}

#[tokio::test]
async fn responses_are_put_back_in_input_order() {
    let fake = Fake::start(384, vec![Reply::Reversed]).await;
    let vectors = fake
        .client(&fake.settings())
        .embed(&texts(5), InputType::Query)
        .await
        .unwrap();
    let firsts: Vec<f32> = vectors.iter().map(|v| v[0]).collect();
    assert_eq!(firsts, [0.0, 1.0, 2.0, 3.0, 4.0]);
}

#[tokio::test]
async fn malformed_responses_are_rejected_without_retry() {
    let nan = r#"{"data":[{"index":0,"embedding":[NaN]}]}"#;
    let huge = r#"{"data":[{"index":0,"embedding":[1e39]}]}"#;
    let twice = r#"{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]}]}"#;
    let cases = [
        (Reply::Short, 2, "answered 1 embeddings for 2 texts"),
        (Reply::Raw(nan), 1, "non-finite"),
        (Reply::Raw(huge), 1, "non-finite"),
        (Reply::Raw(twice), 2, "indexes"),
        (
            Reply::Raw(r#"{"object":"list"}"#),
            1,
            "not an embeddings response",
        ),
    ];
    for (reply, n, expected) in cases {
        let fake = Fake::start(384, vec![reply]).await;
        let err = fake
            .client(&fake.settings())
            .embed(&texts(n), InputType::Query)
            .await
            .unwrap_err();
        assert!(matches!(err, EmbeddingError::Rejected(_)), "{err}");
        assert!(err.to_string().contains(expected), "{expected}: {err}");
        assert_eq!(fake.bodies().len(), 1);
    }
}
#[tokio::test]
async fn the_canary_refuses_other_dimensions_and_says_so_once() {
    let fake = Fake::start(768, vec![]).await;
    let client = fake.client(&fake.settings());
    let logs = capture_logs(async {
        for _ in 0..2 {
            let err = client
                .embed(&texts(100), InputType::Document)
                .await
                .unwrap_err();
            assert!(
                matches!(
                    err,
                    EmbeddingError::DimensionMismatch {
                        expected: 384,
                        got: 768
                    }
                ),
                "{err}"
            );
        }
    })
    .await;
    assert_eq!(fake.bodies().len(), 2, "the first batch stops the others");
    let warnings: Vec<&str> = logs.lines().filter(|l| l.contains("WARN")).collect();
    assert_eq!(warnings.len(), 1, "{logs}");
    for part in [
        "pipeline=memory",
        "model=fake-e5",
        "expected=384",
        "got=768",
        "without embedding",
    ] {
        assert!(warnings[0].contains(part), "{part} missing: {logs}");
    }

    let fake = Fake::start(384, vec![]).await;
    let client = fake.client(&fake.settings());
    let logs = capture_logs(async {
        client.embed(&texts(3), InputType::Query).await.unwrap();
        client.embed(&texts(3), InputType::Query).await.unwrap();
    })
    .await;
    let ok: Vec<&str> = logs
        .lines()
        .filter(|l| l.contains("embedding canary OK"))
        .collect();
    assert_eq!(ok.len(), 1, "{logs}");
    assert!(
        ok[0].contains("WARN") && ok[0].contains("pipeline=memory model=fake-e5 dim=384"),
        "{logs}"
    );
}

#[tokio::test]
async fn the_api_key_is_sent_as_bearer_and_never_shown() {
    const KEY: &str = "sk-test-0123456789-secret";
    let echo = r#"{"error":{"message":"Incorrect API key provided: sk-test-0123456789-secret"}}"#;
    let fake = Fake::start(384, vec![Reply::Status(401, echo)]).await;
    let settings = PipelineSettings {
        api_key: Some(KEY.into()),
        ..fake.settings()
    };
    let client = fake.client(&settings);
    let err = client.embed(&texts(1), InputType::Query).await.unwrap_err();
    client.embed(&texts(1), InputType::Query).await.unwrap();
    let auths: Vec<Option<String>> = fake
        .seen
        .lock()
        .unwrap()
        .iter()
        .map(|(a, _)| a.clone())
        .collect();
    assert_eq!(auths, vec![Some(format!("Bearer {KEY}")); 2]);
    assert!(
        err.to_string().contains("Incorrect API key provided: ***"),
        "{err}"
    );
    for shown in [format!("{client:?}"), format!("{err:?}"), err.to_string()] {
        assert!(
            !shown.contains(KEY) && !shown.contains("0123456789"),
            "{shown}"
        );
    }
}

#[tokio::test]
async fn each_pipeline_has_its_own_client_model_and_canary() {
    let shared = Fake::start(384, vec![]).await;
    let memory = Fake::start(768, vec![]).await;
    let (shared_url, memory_url) = (
        format!("http://{}/v1", shared.addr),
        format!("http://{}/v1", memory.addr),
    );
    let env = Env::from_pairs([
        ("MAXY_EMBEDDING_URL", shared_url.as_str()),
        ("MAXY_EMBEDDING_API_KEY", "sk-shared-secret-key"),
        ("MAXY_MEMORY_EMBEDDING_URL", memory_url.as_str()),
        ("MAXY_MEMORY_EMBEDDING_MODEL", "gemini-embedding-2"),
        ("MAXY_MEMORY_EMBEDDING_DIMENSIONS", "768"),
        ("MAXY_MEMORY_EMBEDDING_INPUT_TYPE", "task_type"),
        ("MAXY_MEMORY_EMBEDDING_SEND_DIMENSIONS", "true"),
    ]);
    let settings = EmbeddingSettings::from_source(&env).unwrap();
    let embedders = Embedders::from_settings(&settings).unwrap();
    assert_eq!(
        (embedders.memory.model(), embedders.memory.dimensions()),
        ("gemini-embedding-2", 768)
    );
    assert_eq!(embedders.venues.dimensions(), 384);
    assert!(!format!("{embedders:?}").contains("sk-shared"));
    let doc = embedders
        .memory
        .embed(&texts(1), InputType::Document)
        .await
        .unwrap();
    assert_eq!(doc[0].len(), 768);
    let body = memory.bodies().pop().unwrap();
    assert_eq!(
        (body["task_type"].as_str(), body["dimensions"].as_u64()),
        (Some("RETRIEVAL_DOCUMENT"), Some(768))
    );
    for p in [EmbeddingPipeline::Venues, EmbeddingPipeline::Training] {
        assert_eq!(
            embedders
                .pipeline(p)
                .embed(&texts(1), InputType::Query)
                .await
                .unwrap()[0]
                .len(),
            384
        );
    }
    assert_eq!(shared.bodies().len(), 2);
}

/// The batch sizes of every request the fake received, in order.
fn batch_sizes(fake: &Fake) -> Vec<usize> {
    fake.bodies()
        .iter()
        .map(|b| b["input"].as_array().unwrap().len())
        .collect()
}

#[tokio::test]
async fn a_slow_server_slows_a_backfill_down_without_failing_it() {
    // 40 ms per text: a batch of 48 takes 1.9 s against a 1 s timeout, as
    // the busy local model did (3.6 texts/s, 13 s per 48 against 10 s).
    let fake = Fake::throttled(384, Duration::from_millis(40)).await;
    let client = OpenAiEmbeddings::new(
        EmbeddingPipeline::Venues,
        &fake.settings(),
        Duration::from_secs(1),
    )
    .unwrap();
    let vectors = client
        .embed(&texts(100), InputType::Document)
        .await
        .unwrap();
    let order: Vec<f32> = vectors.iter().map(|v| v[0]).collect();
    assert_eq!(order, (0..100).map(|i| i as f32).collect::<Vec<_>>());

    let sizes = batch_sizes(&fake);
    // The whole batch once (it timed out), then a quarter, then batches
    // sized to half the timeout at the measured 40 ms per text.
    assert_eq!(sizes[0], 48, "{sizes:?}");
    assert_eq!(sizes[1], 12, "{sizes:?}");
    assert!(sizes[2..].iter().all(|&n| n <= 12), "{sizes:?}");
    assert_eq!(sizes[1..].iter().sum::<usize>(), 100, "{sizes:?}");

    // The next call (the next backfill batch) starts at the measured speed:
    // no timeout, nothing sent twice.
    let before = sizes.len();
    client.embed(&texts(48), InputType::Document).await.unwrap();
    let next = &batch_sizes(&fake)[before..];
    assert!(next.iter().all(|&n| n <= 12), "{next:?}");
    assert_eq!(next.iter().sum::<usize>(), 48, "{next:?}");
}

#[tokio::test]
async fn a_server_that_hangs_still_fails_after_a_few_smaller_batches() {
    let fake = Fake::start(384, vec![Reply::Hang(Duration::from_secs(5)); 8]).await;
    let client = OpenAiEmbeddings::new(
        EmbeddingPipeline::Venues,
        &fake.settings(),
        Duration::from_millis(200),
    )
    .unwrap();
    let err = client
        .embed(&texts(48), InputType::Document)
        .await
        .unwrap_err();
    assert!(matches!(err, EmbeddingError::Unavailable(_)), "{err}");
    // 48, 12, 3, then one text with its three attempts.
    assert_eq!(batch_sizes(&fake), vec![48, 12, 3, 1, 1, 1]);
}

#[tokio::test]
async fn a_query_asked_again_is_answered_without_a_request_documents_always_go_out() {
    let fake = Fake::start(384, vec![]).await;
    let client = fake.client(&fake.settings());
    let first = client
        .embed(&["salle   pour 80 personnes".into()], InputType::Query)
        .await
        .unwrap();
    let again = client
        .embed(&[" salle pour 80 personnes ".into()], InputType::Query)
        .await
        .unwrap();
    assert_eq!(first, again);
    assert_eq!(fake.bodies().len(), 1);

    // The same text as a document is another embedding (prefix, lane): sent.
    client
        .embed(&["salle pour 80 personnes".into()], InputType::Document)
        .await
        .unwrap();
    client
        .embed(&["salle pour 80 personnes".into()], InputType::Document)
        .await
        .unwrap();
    assert_eq!(fake.bodies().len(), 3);

    // A failed query is not kept: the next one asks again.
    let down = Fake::start(384, vec![Reply::Status(400, "{}")]).await;
    let client = down.client(&down.settings());
    assert!(client
        .embed(&["rooftop 1".into()], InputType::Query)
        .await
        .is_err());
    client
        .embed(&["rooftop 1".into()], InputType::Query)
        .await
        .unwrap();
    assert_eq!(down.bodies().len(), 2);
}
