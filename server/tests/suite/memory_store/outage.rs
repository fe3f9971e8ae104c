//! The embedding service failing in every way: writes still save (NULL
//! vector, one warning each), searches answer by full text or recency.
use super::fake::{Fake, Reply};
use super::support;
use super::{count, memory, store, task, user};
use server::config::{EmbeddingPipeline, InputTypeStyle, PipelineSettings};
use server::embeddings::OpenAiEmbeddings;
use server::memory::SearchSource;
use sqlx::PgPool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::logs::capture_logs;

fn settings(addr: std::net::SocketAddr) -> PipelineSettings {
    PipelineSettings {
        base_url: format!("http://{addr}/v1"),
        query_url: format!("http://{addr}/v1"),
        query_timeout: Duration::from_secs(2),
        api_key: None,
        model: "e5-test".into(),
        dimensions: 384,
        input_type_style: InputTypeStyle::InputType,
        send_dimensions: false,
        batch_size: 48,
    }
}

fn client(settings: &PipelineSettings) -> Arc<OpenAiEmbeddings> {
    // The document lane as `run.sh` configures it (60 s): the store's own
    // bound is what keeps a person from waiting.
    Arc::new(
        OpenAiEmbeddings::new(EmbeddingPipeline::Memory, settings, Duration::from_secs(60))
            .unwrap(),
    )
}

/// A store whose embedding server is down (nothing listens).
pub async fn down_store(db: &PgPool) -> server::memory::MemoryStore {
    store(db, client(&settings(support::closed_port().await)), 0.8)
}

#[sqlx::test(migrations = "../migrations")]
async fn with_the_server_down_writes_save_and_search_falls_back(db: PgPool) {
    let me = user(&db, "Camille").await;
    let s = store(&db, client(&settings(support::closed_port().await)), 0.8);
    let started = Instant::now();
    let logs = capture_logs(async {
        let m = s
            .save_memory(
                me,
                memory("Santé", "paracétamol 1g matin et soir pour migraine"),
            )
            .await
            .unwrap();
        assert!(!m.embedded);
        let t = s
            .create_task(me, task("Relancer le Perchoir"))
            .await
            .unwrap();
        assert!(!t.embedded);
    })
    .await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        logs.matches("saved without embedding").count(),
        2,
        "one warning per failed write:\n{logs}"
    );
    assert!(
        !logs.contains("paracétamol"),
        "the text never reaches the logs"
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM ai_memories WHERE embedding IS NULL AND embedding_model IS NULL"
        )
        .await,
        1
    );
    assert_eq!(
        count(&db, "SELECT count(*) FROM tasks WHERE embedding IS NULL").await,
        1
    );

    let logs = capture_logs(async {
        let literal = s.search(me, "paracétamol", 5).await.unwrap();
        assert_eq!(literal.source, SearchSource::Fts);
        assert_eq!(literal.hits.len(), 1);
        assert_eq!(literal.best_similarity, None);
        let nothing = s.search(me, "xylophone", 5).await.unwrap();
        assert_eq!(nothing.source, SearchSource::Recency);
        assert_eq!(nothing.hits.len(), 2, "memory then task");
        assert!(!nothing.hits.is_empty());
    })
    .await;
    assert!(
        logs.contains("source=\"fts\"") || logs.contains("source=fts"),
        "{logs}"
    );
    assert!(
        !logs.contains("xylophone"),
        "never the query at info:\n{logs}"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_hanging_server_costs_a_write_about_two_seconds(db: PgPool) {
    let me = user(&db, "Camille").await;
    let fake = Fake::start(384, vec![Reply::Hang(Duration::from_secs(30))]).await;
    let s = store(&db, client(&settings(fake.addr)), 0.8);
    let started = Instant::now();
    let m = s.save_memory(me, memory("Note", "un fait")).await.unwrap();
    let took = started.elapsed();
    assert!(!m.embedded);
    assert!(took < Duration::from_secs(3), "{took:?}");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_wrong_dimension_saves_null_with_one_canary_warning(db: PgPool) {
    let me = user(&db, "Camille").await;
    let fake = Fake::start(512, vec![]).await;
    let s = store(&db, client(&settings(fake.addr)), 0.8);
    let logs = capture_logs(async {
        for i in 0..3 {
            let m = s
                .save_memory(me, memory("Note", &format!("fait numéro {i}")))
                .await
                .unwrap();
            assert!(!m.embedded);
        }
        let t = s.create_task(me, task("Relancer")).await.unwrap();
        assert!(!t.embedded);
    })
    .await;
    assert_eq!(fake.bodies().len(), 4, "each write asked once");
    assert_eq!(
        logs.matches("embedding dimension mismatch:").count(),
        1,
        "one canary warning:\n{logs}"
    );
    assert_eq!(logs.matches("saved without embedding").count(), 4);
    assert_eq!(
        count(&db, "SELECT (SELECT count(*) FROM ai_memories WHERE embedding IS NOT NULL) + (SELECT count(*) FROM tasks WHERE embedding IS NOT NULL)").await,
        0,
        "no poisoned row"
    );
    let answer = s.search(me, "fait", 5).await.unwrap();
    assert_eq!(answer.source, SearchSource::Fts);
    assert_eq!(answer.hits.len(), 3);
}
