//! Memory, reminder and lesson writes against embedding servers at the
//! network edge (issue 27, ADR 0033): a write is embedded through the query
//! lane as a passage; past the bound, or with the server down or answering
//! another dimension, the row is saved without a vector with a
//! `memory.embed` job (in the writing transaction) that a worker runs as
//! soon as the server answers; a save whose caller leaves still lands; a
//! recurring reminder's next occurrence copies its parent's vector or gets
//! a job of its own.
//!
//! The same under a real venue backlog and the real local model:
//! `memory_writes_backlog.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

#[path = "memory_writes/edge.rs"]
mod edge;
#[path = "memory_writes/left.rs"]
mod left;

use edge::Edge;
use server::config::{Config, Env};
use server::embeddings::{Embedders, EmbeddingProvider};
use server::jobs::{Registry, WorkerOptions, Workers};
use server::memory::{floor, MemoryOrigin, MemoryStore, NewMemory, NewTask};
use sqlx::PgPool;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The three pipelines' clients, documents on `documents` and queries on
/// `queries`, as `maxy serve` builds them from its settings.
pub fn embedders(documents: SocketAddr, queries: SocketAddr) -> Embedders {
    let (documents, queries) = (
        format!("http://{documents}/v1"),
        format!("http://{queries}/v1"),
    );
    let config = Config::from_source(&Env::from_pairs([
        ("MAXY_EMBEDDING_URL", documents.as_str()),
        ("MAXY_EMBEDDING_QUERY_URL", queries.as_str()),
        // The document lane as `run.sh` has it: only the store's bound keeps
        // a person from waiting.
        ("MAXY_EMBEDDING_TIMEOUT_MS", "60000"),
    ]))
    .unwrap();
    Embedders::from_settings(&config.embeddings).unwrap()
}

pub fn store(db: &PgPool, embedder: Arc<dyn EmbeddingProvider>) -> MemoryStore {
    let model = embedder.model().to_string();
    MemoryStore::new(db.clone(), embedder, floor::for_model(&model, None))
}

pub async fn user(db: &PgPool, name: &str) -> i64 {
    sqlx::query_scalar("INSERT INTO users (email, display_name) VALUES ($1, $2) RETURNING id")
        .bind(format!("{}@reciprok.fr", name.to_lowercase()))
        .bind(name)
        .fetch_one(db)
        .await
        .unwrap()
}

pub fn memory(title: &str, content: &str) -> NewMemory {
    NewMemory {
        title: title.into(),
        content: content.into(),
        origin: MemoryOrigin::Manual,
        conversation_id: None,
    }
}

pub fn task(title: &str, recurrence: Option<&str>) -> NewTask {
    NewTask {
        title: title.into(),
        description: String::new(),
        due_at: recurrence.map(|_| chrono::Utc::now() + chrono::Duration::days(1)),
        recurrence: recurrence.map(str::to_string),
        request_id: None,
    }
}

/// Whether row `id` of `table` has a vector.
pub async fn embedded(db: &PgPool, table: &str, id: i64) -> bool {
    sqlx::query_scalar(&format!(
        "SELECT embedding IS NOT NULL FROM {table} WHERE id = $1"
    ))
    .bind(id)
    .fetch_one(db)
    .await
    .unwrap()
}

/// (status, dedupe key) of the embedding jobs, oldest first.
pub async fn jobs(db: &PgPool) -> Vec<(String, String)> {
    sqlx::query_as("SELECT status, dedupe_key FROM jobs WHERE kind = 'memory.embed' ORDER BY id")
        .fetch_all(db)
        .await
        .unwrap()
}

/// The production registry and one worker (`MAXY_JOB_WORKERS` = 1), so
/// also the interactive worker; stop with the returned sender.
pub fn start_workers(
    db: &PgPool,
    embedders: &Embedders,
) -> (Workers, tokio::sync::watch::Sender<bool>, Registry) {
    let registry = server::serve::job_registry(db, embedders);
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let options = WorkerOptions::default();
    let workers = server::jobs::start(db, &registry, 1, &options, &shutdown);
    (workers, stop, registry)
}

/// Polls `check` every 20 ms until it holds or `limit` passes; how long it took.
pub async fn within<F, Fut>(limit: Duration, what: &str, mut check: F) -> Duration
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let started = Instant::now();
    loop {
        if check().await {
            return started.elapsed();
        }
        assert!(started.elapsed() < limit, "{what}: not within {limit:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_write_goes_to_the_query_lane_as_a_passage(db: PgPool) {
    let documents = Edge::start(384, Duration::ZERO).await;
    let queries = Edge::start(384, Duration::ZERO).await;
    let e = embedders(documents.addr, queries.addr);
    let s = store(&db, e.memory.clone());
    let me = user(&db, "Camille").await;
    let m = s
        .save_memory(me, memory("Pavillon", "fermé en août"))
        .await
        .unwrap();
    let t = s.create_task(me, task("Relancer", None)).await.unwrap();
    let edited = s
        .update_memory(
            me,
            m.id,
            "Pavillon".into(),
            "rouvre le 1er septembre".into(),
        )
        .await
        .unwrap();
    assert!(m.embedded && t.embedded && edited.embedded);
    assert_eq!(
        queries.seen(),
        vec![("passage".to_string(), 1); 3],
        "three writes, each one text embedded as a passage on the query lane"
    );
    assert!(documents.seen().is_empty(), "the document lane got nothing");
    assert!(jobs(&db).await.is_empty(), "embedded rows need no job");
}

#[sqlx::test(migrations = "../migrations")]
async fn with_the_server_down_a_job_embeds_the_rows_once_it_is_back(db: PgPool) {
    let (documents, queries) = (support::closed_port().await, support::closed_port().await);
    let e = embedders(documents, queries);
    let s = store(&db, e.memory.clone());
    let me = user(&db, "Camille").await;

    let started = Instant::now();
    let m = s
        .save_memory(me, memory("Santé", "paracétamol 1g matin et soir"))
        .await
        .unwrap();
    let saved_in = started.elapsed();
    let t = s
        .create_task(me, task("Relancer le Perchoir", None))
        .await
        .unwrap();
    let lesson = server::training::TrainingService { db: db.clone() }
        .create(me, &left::lesson())
        .await
        .unwrap();
    assert!(saved_in < Duration::from_millis(2_500), "{saved_in:?}");
    assert!(!m.embedded && !t.embedded && !embedded(&db, "training_sessions", lesson).await);
    let keys: Vec<String> = jobs(&db).await.into_iter().map(|(_, k)| k).collect();
    assert_eq!(
        keys,
        [
            format!("memory.embed:ai_memories:{}", m.id),
            format!("memory.embed:tasks:{}", t.id),
            format!("memory.embed:training_sessions:{lesson}"),
        ]
    );

    // Workers try while the server is down: the jobs go back to the queue
    // within seconds, never `failed`.
    let (workers, stop, _) = start_workers(&db, &e);
    tokio::time::sleep(Duration::from_secs(4)).await;
    let statuses: Vec<String> = jobs(&db).await.into_iter().map(|(s, _)| s).collect();
    assert!(
        statuses.iter().all(|s| s == "queued" || s == "running"),
        "{statuses:?}"
    );
    let attempts: i32 = sqlx::query_scalar("SELECT min(attempts) FROM jobs")
        .fetch_one(&db)
        .await
        .unwrap();
    assert!(attempts >= 2, "retried while down: {attempts} attempts");

    // Back up, both lanes: every row is embedded, through the query lane.
    let queries = Edge::start_at(queries, 384).await;
    let documents = Edge::start_at(documents, 384).await;
    let back = within(
        Duration::from_secs(40),
        "embedded after the outage",
        || async {
            embedded(&db, "ai_memories", m.id).await
                && embedded(&db, "tasks", t.id).await
                && embedded(&db, "training_sessions", lesson).await
        },
    )
    .await;
    println!("saved without vector in {saved_in:?}; embedded {back:?} after the server came back");
    // A job is marked done by its own statement after its handler wrote the
    // vector: every job ends done, moments after the rows are embedded.
    within(Duration::from_secs(10), "every job done", || async {
        jobs(&db).await.iter().all(|(s, _)| s == "done")
    })
    .await;
    // Through the query lane; a job that tried while only the query lane
    // was still unreachable may have fallen back to the document lane, as
    // designed (ADR 0007), so that lane is not asserted empty.
    assert!(!queries.seen().is_empty(), "the jobs used the query lane");
    let _ = documents;
    stop.send(true).unwrap();
    workers.join().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_job_is_queued_in_the_writing_transaction(db: PgPool) {
    // An approval writes on its own transaction (ADR 0028): a rolled-back
    // approval leaves neither the row nor its job.
    let down = support::closed_port().await;
    let e = embedders(down, down);
    let s = store(&db, e.memory.clone());
    let me = user(&db, "Camille").await;
    let prepared = s
        .prepare_memory(me, memory("Note", "un fait"))
        .await
        .unwrap();
    let mut tx = db.begin().await.unwrap();
    let m = s.insert_memory(&mut tx, me, &prepared).await.unwrap();
    assert!(!m.embedded);
    tx.rollback().await.unwrap();
    assert!(jobs(&db).await.is_empty());

    let mut tx = db.begin().await.unwrap();
    let m = s.insert_memory(&mut tx, me, &prepared).await.unwrap();
    tx.commit().await.unwrap();
    let keys: Vec<String> = jobs(&db).await.into_iter().map(|(_, k)| k).collect();
    assert_eq!(keys, [format!("memory.embed:ai_memories:{}", m.id)]);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_wrong_dimension_saves_without_vector_and_its_job_says_why(db: PgPool) {
    let wrong = Edge::start(512, Duration::ZERO).await;
    let e = embedders(wrong.addr, wrong.addr);
    let s = store(&db, e.memory.clone());
    let me = user(&db, "Camille").await;
    let m = s.save_memory(me, memory("Note", "un fait")).await.unwrap();
    assert!(!m.embedded);
    assert_eq!(
        jobs(&db).await.len(),
        1,
        "the canary's refusal queues a job"
    );
    let registry = server::serve::job_registry(&db, &e);
    server::jobs::worker::run_once(&db, &registry, "w", &WorkerOptions::default())
        .await
        .unwrap();
    let (status, error): (String, String) =
        sqlx::query_as("SELECT status, last_error FROM jobs WHERE kind = 'memory.embed'")
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(status, "failed", "retrying cannot help: {error}");
    assert!(error.contains("maxy embed memory"), "{error}");
    assert!(!embedded(&db, "ai_memories", m.id).await, "no poisoned row");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_recurring_occurrence_copies_its_parents_vector_or_gets_a_job(db: PgPool) {
    let me = user(&db, "Camille").await;
    let up = Edge::start(384, Duration::ZERO).await;
    let e = embedders(up.addr, up.addr);
    let with_vector = store(&db, e.memory.clone())
        .create_task(me, task("Point hebdo", Some("FREQ=WEEKLY")))
        .await
        .unwrap();
    let down = support::closed_port().await;
    let e_down = embedders(down, down);
    let s = store(&db, e_down.memory.clone());
    let without = s
        .create_task(me, task("Relance mensuelle", Some("FREQ=MONTHLY")))
        .await
        .unwrap();
    assert!(with_vector.embedded && !without.embedded);
    let calls = up.seen().len();

    let next = s.complete_task(me, with_vector.id).await.unwrap().unwrap();
    assert!(next.embedded, "copied from its parent");
    assert_eq!(up.seen().len(), calls, "no embedding call");
    let next_without = s.complete_task(me, without.id).await.unwrap().unwrap();
    assert!(!next_without.embedded);
    let keys: Vec<String> = jobs(&db).await.into_iter().map(|(_, k)| k).collect();
    assert_eq!(
        keys,
        [
            format!("memory.embed:tasks:{}", without.id),
            format!("memory.embed:tasks:{}", next_without.id),
        ],
        "the occurrence of a parent without vector has a job of its own"
    );
    // Completing again changes nothing and queues nothing more.
    s.complete_task(me, without.id).await.unwrap();
    assert_eq!(jobs(&db).await.len(), 2);
}
