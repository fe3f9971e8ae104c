//! Recovery after an embedding outage (issue #12, "fault tests"): memories
//! and reminders saved while the embedding server is down are kept without
//! a vector and found by full text or recency; once the server is back and
//! `maxy embed memory`'s backfill has run, the same search answers from the
//! vector path.
//!
//! Calls `MemoryStore` (the store's implementation lands with the memory
//! store branch; on a branch where it still returns `Pending` these tests
//! fail by design).
//!
//! Needs DATABASE_URL: each test gets its own database, migrated from ../migrations.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use server::config::{Config, Env};
use server::embeddings::Embedders;
use server::memory::backfill::{backfill, BackfillOptions, Providers};
use server::memory::{floor, MemoryOrigin, MemoryStore, NewMemory, NewTask, SearchSource};
use sqlx::PgPool;
use std::net::SocketAddr;
use std::time::Duration;

const MEDICINE: &str = "paracétamol 1g matin et soir pour migraine";
const QUESTION: &str = "est-ce que j'ai des médicaments à prendre cette semaine ?";

fn embedders(document: &str, query: &str) -> Embedders {
    let config = Config::from_source(&Env::from_pairs([
        ("MAXY_EMBEDDING_URL", document),
        ("MAXY_EMBEDDING_QUERY_URL", query),
    ]))
    .unwrap();
    Embedders::from_settings(&config.embeddings).unwrap()
}

fn url(addr: SocketAddr) -> String {
    format!("http://{addr}/v1")
}

fn store(db: &PgPool, embedders: &Embedders) -> MemoryStore {
    let model = embedders.memory.model().to_string();
    MemoryStore::new(
        db.clone(),
        embedders.memory.clone(),
        floor::for_model(&model, None),
    )
}

async fn user(db: &PgPool) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO users (email, display_name) VALUES ('camille@reciprok.fr', 'Camille') RETURNING id",
    )
    .fetch_one(db)
    .await
    .unwrap()
}

fn memory(content: &str) -> NewMemory {
    NewMemory {
        title: String::new(),
        content: content.into(),
        origin: MemoryOrigin::Manual,
        conversation_id: None,
    }
}

/// Saves the user's memories and a reminder with nothing listening on the
/// embedding port, and checks they are kept without vector and still found.
async fn saved_during_an_outage(db: &PgPool) -> i64 {
    let user = user(db).await;
    let down = url(support::closed_port().await);
    let store = store(db, &embedders(&down, &down));
    for content in [
        MEDICINE,
        "Le Pavillon Royal impose son propre traiteur",
        "la péniche Belle Époque est fermée en août",
        "Mme Dupont veut un devis détaillé avant toute visite",
    ] {
        let saved = store.save_memory(user, memory(content)).await.unwrap();
        assert!(
            !saved.embedded,
            "{content}: no vector while the server is down"
        );
    }
    let task = store
        .create_task(
            user,
            NewTask {
                title: "Relancer le Château de Vaux".into(),
                description: "disponibilité du 12 juin".into(),
                due_at: None,
                recurrence: None,
                request_id: None,
            },
        )
        .await
        .unwrap();
    assert!(!task.embedded);

    // A literal word: full text. No shared word: recency, never nothing.
    let literal = store.search(user, "traiteur", 5).await.unwrap();
    assert_eq!(literal.source, SearchSource::Fts);
    assert!(literal.hits.iter().any(|h| h.content.contains("Pavillon")));
    let meaning = store.search(user, QUESTION, 5).await.unwrap();
    assert_ne!(meaning.source, SearchSource::Vector);
    assert!(
        !meaning.hits.is_empty(),
        "a user with memories never gets an empty answer"
    );
    user
}

async fn run_backfill(db: &PgPool, embedders: &Embedders) {
    let stop = tokio::sync::watch::channel(false).1;
    let options = BackfillOptions {
        batch: 50,
        pause: Duration::from_millis(1),
        progress: false,
        patience: Duration::ZERO,
    };
    let providers = Providers {
        memory: embedders.memory.as_ref(),
        training: embedders.training.as_ref(),
    };
    let (summary, result) = backfill(db, providers, &options, &stop).await;
    result.unwrap();
    assert_eq!(summary.embedded(), 5, "{summary}");
}

#[sqlx::test(migrations = "../migrations")]
async fn after_the_backfill_the_same_search_answers_from_vectors(db: PgPool) {
    let user = saved_during_an_outage(&db).await;

    // The server is back (a fake one: every text gets the same vector, so
    // every embedded row is at similarity 1 of any query).
    let up = url(support::fake_embedding_server().await);
    let embedders = embedders(&up, &up);
    run_backfill(&db, &embedders).await;

    let store = store(&db, &embedders);
    let answer = store.search(user, QUESTION, 5).await.unwrap();
    assert_eq!(answer.source, SearchSource::Vector);
    assert!(answer.best_similarity.unwrap() > 0.99);
    assert!(answer.hits.iter().any(|h| h.content == MEDICINE));
    let listed = store.list_memories(user, 10, 0).await.unwrap();
    assert!(listed.iter().all(|m| m.embedded));
}

/// The same story with the real local model: « médicaments » finds the
/// paracétamol by meaning once the backfill has run.
#[sqlx::test(migrations = "../migrations")]
async fn with_the_local_model_the_medicine_is_found_by_meaning_after_the_backfill(db: PgPool) {
    let document = std::env::var("MAXY_TEST_EMBEDDING_URL")
        .unwrap_or_else(|_| "http://127.0.0.1:8089/v1".into());
    let query = std::env::var("MAXY_TEST_EMBEDDING_QUERY_URL")
        .unwrap_or_else(|_| "http://127.0.0.1:8090/v1".into());
    let embedders = embedders(&document, &query);
    if let Err(e) = embedders
        .memory
        .embed(
            &["ping".to_string()],
            server::embeddings::InputType::Document,
        )
        .await
    {
        eprintln!("SKIPPED: no local embedding server at {document} ({e}); run `scripts/embedder.sh start`");
        return;
    }
    let user = saved_during_an_outage(&db).await;
    run_backfill(&db, &embedders).await;

    let answer = store(&db, &embedders)
        .search(user, QUESTION, 5)
        .await
        .unwrap();
    assert_eq!(answer.source, SearchSource::Vector, "{answer:?}");
    assert!(
        answer.hits.iter().any(|h| h.content == MEDICINE),
        "{:?}",
        answer.hits
    );
}
