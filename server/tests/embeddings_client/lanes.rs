//! The query lane and the document lane: queries never wait behind a batch
//! of documents, a query lane where nothing listens hands its queries to the
//! document lane, a slow one does not.
use super::fake::{texts, Fake, Reply};
use super::support;
use server::config::{EmbeddingPipeline, PipelineSettings};
use server::embeddings::{EmbeddingError, EmbeddingProvider, InputType, OpenAiEmbeddings};
use std::sync::Arc;
use std::time::Duration;

/// A client whose documents go to `documents` and queries to `queries_url`.
fn two_lanes(documents: &Fake, queries_url: String, query_timeout: Duration) -> OpenAiEmbeddings {
    let settings = PipelineSettings {
        query_url: queries_url,
        query_timeout,
        ..documents.settings()
    };
    OpenAiEmbeddings::new(
        EmbeddingPipeline::Venues,
        &settings,
        Duration::from_secs(10),
    )
    .unwrap()
}

fn url(fake: &Fake) -> String {
    format!("http://{}/v1", fake.addr)
}

#[tokio::test]
async fn queries_and_documents_go_to_their_own_servers() {
    let (documents, queries) = (
        Fake::start(384, vec![]).await,
        Fake::start(384, vec![]).await,
    );
    let client = two_lanes(&documents, url(&queries), Duration::from_secs(2));
    client.embed(&texts(3), InputType::Document).await.unwrap();
    client.embed(&texts(1), InputType::Query).await.unwrap();
    let kinds = |fake: &Fake| -> Vec<String> {
        fake.bodies()
            .iter()
            .map(|b| b["input_type"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    assert_eq!(kinds(&documents), ["passage"]);
    assert_eq!(kinds(&queries), ["query"]);
}

#[tokio::test]
async fn a_query_does_not_wait_for_a_document_batch_in_flight() {
    // Even on one server: the lanes have their own request slots, so this
    // process never queues a query behind its own bulk work.
    let shared = Fake::start(384, vec![Reply::Hang(Duration::from_secs(3))]).await;
    let client = Arc::new(two_lanes(&shared, url(&shared), Duration::from_secs(2)));
    let bulk = {
        let client = client.clone();
        tokio::spawn(async move { client.embed(&texts(48), InputType::Document).await })
    };
    // The document request has reached the server and hangs there.
    while shared.bodies().is_empty() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let vectors = client.embed(&texts(1), InputType::Query).await.unwrap();
    assert_eq!(vectors.len(), 1);
    assert!(
        !bulk.is_finished(),
        "the query was answered while the batch was still in flight"
    );
    assert_eq!(bulk.await.unwrap().unwrap().len(), 48);
}

#[tokio::test]
async fn a_query_lane_where_nothing_listens_falls_back_to_the_document_lane() {
    let documents = Fake::start(384, vec![]).await;
    let closed = format!("http://{}/v1", support::closed_port().await);
    let client = two_lanes(&documents, closed, Duration::from_secs(2));
    let vectors = client.embed(&texts(1), InputType::Query).await.unwrap();
    assert_eq!(vectors.len(), 1);
    let bodies = documents.bodies();
    assert_eq!(bodies.len(), 1);
    assert_eq!(
        bodies[0]["input_type"], "query",
        "still embedded as a query"
    );
}

#[tokio::test]
async fn a_slow_query_lane_gives_up_quickly_without_loading_the_document_lane() {
    let documents = Fake::start(384, vec![]).await;
    let slow = Fake::start(384, vec![Reply::Hang(Duration::from_secs(5)); 2]).await;
    let client = two_lanes(&documents, url(&slow), Duration::from_millis(150));
    let err = client.embed(&texts(1), InputType::Query).await.unwrap_err();
    assert!(matches!(err, EmbeddingError::Unavailable(_)), "{err}");
    assert!(
        err.to_string()
            .contains("did not answer within 150 ms (after 2 attempts)"),
        "{err}"
    );
    assert_eq!(slow.bodies().len(), 2);
    assert!(
        documents.bodies().is_empty(),
        "no fall-back for a slow lane"
    );
}
