//! `maxy embed memory` on a real PostgreSQL, through the real embedding
//! clients, against a fake `/v1/embeddings` server at the network edge:
//! what it embeds and leaves alone, interruption and rerun, two backfills at
//! once, a wrong dimension, an outage, the training jobs it takes over.
//!
//! Needs DATABASE_URL: each test gets its own database, migrated from ../migrations.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
#[path = "memory_backfill/fake.rs"]
mod fake;
mod support;

use fake::{embedders, fake_vector, model, Fake};
use server::db::user_data_embeddings::{self, Table};
use server::embeddings::Embedders;
use server::memory::backfill::{
    backfill, memory_text, task_text, BackfillError, BackfillOptions, BackfillSummary, Providers,
};
use sqlx::PgPool;
use std::time::Duration;
use tokio::sync::watch;

const DIMS: usize = 384;

fn options(batch: usize) -> BackfillOptions {
    BackfillOptions {
        batch,
        pause: Duration::from_millis(1),
        progress: false,
        // An outage ends the run at once, unless a test gives patience.
        patience: Duration::ZERO,
    }
}

async fn run(
    db: &PgPool,
    embedders: &Embedders,
    options: &BackfillOptions,
    stop: &watch::Receiver<bool>,
) -> (BackfillSummary, Result<(), BackfillError>) {
    let providers = Providers {
        memory: embedders.memory.as_ref(),
        training: embedders.training.as_ref(),
    };
    backfill(db, providers, options, stop).await
}

fn no_stop() -> watch::Receiver<bool> {
    watch::channel(false).1
}

async fn user(db: &PgPool) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO users (email, display_name) VALUES ('camille@reciprok.fr', 'Camille') RETURNING id",
    )
    .fetch_one(db)
    .await
    .unwrap()
}

/// `n` memories without embedding, numbered from `from`.
async fn memories(db: &PgPool, user: i64, from: usize, n: usize) {
    sqlx::query(
        "INSERT INTO ai_memories (user_id, title, content)
         SELECT $1, 'Note ' || i, 'le lieu numéro ' || i || ' a une terrasse'
           FROM generate_series($2::int, $3::int) AS i",
    )
    .bind(user)
    .bind(from as i32)
    .bind((from + n - 1) as i32)
    .execute(db)
    .await
    .unwrap();
}

async fn tasks(db: &PgPool, user: i64, n: usize) {
    sqlx::query(
        "INSERT INTO tasks (user_id, title, description)
         SELECT $1, 'Relancer le lieu ' || i, CASE WHEN i % 2 = 0 THEN 'avant vendredi' ELSE '' END
           FROM generate_series(1, $2::int) AS i",
    )
    .bind(user)
    .bind(n as i32)
    .execute(db)
    .await
    .unwrap();
}

async fn sessions(db: &PgPool, n: usize) -> Vec<i64> {
    sqlx::query_scalar(
        "INSERT INTO training_sessions (verdict, reason, event_type)
         SELECT 'rejected', 'trop bruyant pour un dîner ' || i, 'dîner'
           FROM generate_series(1, $1::int) AS i RETURNING id",
    )
    .bind(n as i32)
    .fetch_all(db)
    .await
    .unwrap()
}

/// (table, id, embedding model, dims) of every row, NULLs included.
async fn states(db: &PgPool, table: &str) -> Vec<(i64, Option<String>, Option<i32>)> {
    sqlx::query_as(&format!(
        "SELECT id, embedding_model, vector_dims(embedding) FROM {table} ORDER BY id"
    ))
    .fetch_all(db)
    .await
    .unwrap()
}

async fn memory_texts(db: &PgPool) -> Vec<String> {
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT title, content FROM ai_memories ORDER BY id")
            .fetch_all(db)
            .await
            .unwrap();
    rows.iter().map(|(t, c)| memory_text(t, c)).collect()
}

fn all_embedded(rows: &[(i64, Option<String>, Option<i32>)], model: &str) -> bool {
    rows.iter()
        .all(|(_, m, d)| m.as_deref() == Some(model) && *d == Some(DIMS as i32))
}

#[sqlx::test(migrations = "../migrations")]
async fn missing_and_stale_vectors_are_embedded_and_current_ones_left_alone(db: PgPool) {
    let fake = Fake::start(DIMS).await;
    let embedders = embedders(fake.addr);
    let model = model(&embedders);
    let user = user(&db).await;
    memories(&db, user, 1, 120).await;
    tasks(&db, user, 6).await;
    let session_ids = sessions(&db, 3).await;
    // Memory 1: already current (its vector must stay, its text never sent).
    let current = pgvector::Vector::from(vec![0.25_f32; DIMS]);
    sqlx::query(
        "UPDATE ai_memories SET embedding = $1, embedding_model = $2 WHERE id = (SELECT min(id) FROM ai_memories)",
    )
    .bind(&current)
    .bind(&model)
    .execute(&db)
    .await
    .unwrap();
    // Memory 2: another model; memory 3: the right model but another size;
    // task 1: another model.
    sqlx::raw_sql(
        "UPDATE ai_memories SET embedding = array_fill(0.5, ARRAY[384])::vector, embedding_model = 'old-model'
          WHERE id = (SELECT min(id) + 1 FROM ai_memories);
         UPDATE ai_memories SET embedding = array_fill(0.5, ARRAY[8])::vector, embedding_model = 'multilingual-e5-small-q4'
          WHERE id = (SELECT min(id) + 2 FROM ai_memories);
         UPDATE tasks SET embedding = array_fill(0.5, ARRAY[384])::vector, embedding_model = 'old-model'
          WHERE id = (SELECT min(id) FROM tasks);",
    )
    .execute(&db)
    .await
    .unwrap();

    let (summary, result) = run(&db, &embedders, &options(50), &no_stop()).await;
    result.unwrap();

    let memories_summary = summary.table(Table::Memories).unwrap();
    assert_eq!(memories_summary.pending, 119);
    assert_eq!(memories_summary.embedded, 119);
    assert_eq!(memories_summary.batches, 3, "50 + 50 + 19");
    assert_eq!(summary.table(Table::Tasks).unwrap().embedded, 6);
    assert_eq!(summary.table(Table::TrainingSessions).unwrap().embedded, 3);
    assert!(!summary.interrupted);
    assert!(summary
        .to_string()
        .contains("ai_memories: 119 to do, 119 embedded in 3 batches"));

    for table in ["ai_memories", "tasks", "training_sessions"] {
        assert!(all_embedded(&states(&db, table).await, &model), "{table}");
    }
    let texts = memory_texts(&db).await;
    let counts = fake.counts();
    assert_eq!(
        counts.get(&texts[0]),
        None,
        "the current memory was not re-embedded"
    );
    for text in &texts[1..] {
        assert_eq!(counts.get(text), Some(&1), "{text}");
    }
    // Memory 1 kept its vector; the others hold the vector of their own text.
    let stored: Vec<pgvector::Vector> =
        sqlx::query_scalar("SELECT embedding FROM ai_memories ORDER BY id")
            .fetch_all(&db)
            .await
            .unwrap();
    assert_eq!(stored[0], current);
    assert_eq!(stored[5].to_vec(), fake_vector(&texts[5], DIMS));
    // Tasks and sessions are embedded from the write path's texts.
    assert_eq!(
        counts.get(&task_text("Relancer le lieu 2", "avant vendredi")),
        Some(&1)
    );
    assert_eq!(counts.get("Relancer le lieu 1"), Some(&1));
    assert_eq!(counts.get("dîner. trop bruyant pour un dîner 1"), Some(&1));
    assert_eq!(session_ids.len(), 3);

    // A second run finds nothing to do and calls nobody.
    let requests = fake.requests();
    let (summary, result) = run(&db, &embedders, &options(50), &no_stop()).await;
    result.unwrap();
    assert_eq!(summary.embedded(), 0);
    assert_eq!(fake.requests(), requests);
}

#[sqlx::test(migrations = "../migrations")]
async fn interrupted_after_two_batches_then_rerun_embeds_every_row_exactly_once(db: PgPool) {
    let fake = Fake::start(DIMS).await;
    let embedders = embedders(fake.addr);
    let user = user(&db).await;
    memories(&db, user, 1, 130).await;
    let (stop_tx, stop) = watch::channel(false);
    fake.set(|s| s.stop_after = Some((2, stop_tx)));

    let (summary, result) = run(&db, &embedders, &options(50), &stop).await;
    result.unwrap();
    assert!(summary.interrupted);
    assert!(summary.to_string().contains("interrupted: run it again"));
    assert_eq!(summary.table(Table::Memories).unwrap().embedded, 100);
    let missing: i64 =
        sqlx::query_scalar("SELECT count(*) FROM ai_memories WHERE embedding IS NULL")
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(
        missing, 30,
        "two batches committed, the third never started"
    );

    fake.set(|s| s.stop_after = None);
    let (summary, result) = run(&db, &embedders, &options(50), &no_stop()).await;
    result.unwrap();
    assert_eq!(summary.table(Table::Memories).unwrap().embedded, 30);
    let counts = fake.counts();
    let texts = memory_texts(&db).await;
    assert_eq!(texts.len(), 130);
    for text in &texts {
        assert_eq!(counts.get(text), Some(&1), "{text}");
    }
    assert!(all_embedded(
        &states(&db, "ai_memories").await,
        &model(&embedders)
    ));
}

#[sqlx::test(migrations = "../migrations")]
async fn two_backfills_at_once_never_embed_a_row_twice(db: PgPool) {
    let fake = Fake::start(DIMS).await;
    fake.set(|s| s.delay = Duration::from_millis(30));
    let embedders = embedders(fake.addr);
    let user = user(&db).await;
    memories(&db, user, 1, 200).await;
    tasks(&db, user, 30).await;

    let stop = no_stop();
    let opts = options(20);
    let (a, b) = tokio::join!(
        run(&db, &embedders, &opts, &stop),
        run(&db, &embedders, &opts, &stop)
    );
    a.1.unwrap();
    b.1.unwrap();
    let embedded = |s: &BackfillSummary, t| s.table(t).unwrap().embedded;
    assert_eq!(
        embedded(&a.0, Table::Memories) + embedded(&b.0, Table::Memories),
        200
    );
    assert_eq!(
        embedded(&a.0, Table::Tasks) + embedded(&b.0, Table::Tasks),
        30
    );
    assert!(
        embedded(&a.0, Table::Memories) > 0 && embedded(&b.0, Table::Memories) > 0,
        "both took a share: {} / {}",
        a.0,
        b.0
    );
    assert!(
        fake.counts().values().all(|n| *n == 1),
        "{:?}",
        fake.counts()
    );
    assert_eq!(fake.counts().len(), 230);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_wrong_dimension_writes_no_row_and_is_reported(db: PgPool) {
    let fake = Fake::start(256).await; // the pipelines expect 384
    let embedders = embedders(fake.addr);
    let user = user(&db).await;
    memories(&db, user, 1, 10).await;
    tasks(&db, user, 2).await;
    sessions(&db, 2).await;

    let logs = support::logs::Captured::default();
    let guard = logs.start(tracing::Level::WARN);
    let (summary, result) = run(&db, &embedders, &options(50), &no_stop()).await;
    drop(guard);
    let logs = logs.text();
    let canary = |pipeline: &str| {
        logs.lines()
            .filter(|l| l.contains("embedding dimension mismatch") && l.contains(pipeline))
            .count()
    };
    assert_eq!(canary("pipeline=memory"), 1, "{logs}");
    assert_eq!(canary("pipeline=training"), 1, "{logs}");
    let error = result.unwrap_err();
    assert!(
        matches!(
            error,
            BackfillError::DimensionMismatch {
                expected: 384,
                got: 256,
                table: "ai_memories",
                ..
            }
        ),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(
        message.contains("MAXY_MEMORY_EMBEDDING_DIMENSIONS"),
        "{message}"
    );
    assert!(message.contains("left without embedding"), "{message}");
    for table in Table::ALL {
        let t = summary.table(table).unwrap();
        assert!(t.mismatch, "{table:?}");
        assert_eq!(t.embedded, 0);
    }
    assert!(summary.to_string().contains("DIMENSION MISMATCH"));
    for table in ["ai_memories", "tasks", "training_sessions"] {
        let rows = states(&db, table).await;
        assert!(
            rows.iter().all(|(_, m, d)| m.is_none() && d.is_none()),
            "{table}: {rows:?}"
        );
    }
    // Memories asked once; tasks (same pipeline) not asked again; training once.
    assert_eq!(fake.requests(), 2);
}

#[sqlx::test(migrations = "../migrations")]
async fn an_outage_stops_the_run_with_a_clear_error_and_committed_batches_stay(db: PgPool) {
    let fake = Fake::start(DIMS).await;
    fake.set(|s| s.fail_after = Some(2));
    let embedders = embedders(fake.addr);
    let user = user(&db).await;
    memories(&db, user, 1, 150).await;
    tasks(&db, user, 3).await;

    let (summary, result) = run(&db, &embedders, &options(50), &no_stop()).await;
    let error = result.unwrap_err();
    assert!(
        matches!(
            error,
            BackfillError::Unavailable {
                table: "ai_memories",
                ..
            }
        ),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(message.contains("unavailable"), "{message}");
    assert!(
        message.contains("run `maxy embed memory` again"),
        "{message}"
    );
    assert_eq!(summary.table(Table::Memories).unwrap().embedded, 100);
    let missing: i64 =
        sqlx::query_scalar("SELECT count(*) FROM ai_memories WHERE embedding IS NULL")
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(
        missing, 50,
        "the two committed batches stay, the failed one is rolled back"
    );
    let tasks_missing: i64 =
        sqlx::query_scalar("SELECT count(*) FROM tasks WHERE embedding IS NULL")
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(tasks_missing, 3, "the run stopped before the tasks");

    // The server is back: the rerun finishes the job.
    fake.set(|s| s.fail_after = None);
    let (summary, result) = run(&db, &embedders, &options(50), &no_stop()).await;
    result.unwrap();
    assert_eq!(summary.table(Table::Memories).unwrap().embedded, 50);
    assert_eq!(summary.table(Table::Tasks).unwrap().embedded, 3);
}

#[sqlx::test(migrations = "../migrations")]
async fn with_patience_an_outage_is_waited_out_and_each_row_embedded_once(db: PgPool) {
    let fake = Fake::start(DIMS).await;
    fake.set(|s| s.fail_after = Some(2));
    let back = fake.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(2500)).await;
        back.set(|s| s.fail_after = None);
    });
    let embedders = embedders(fake.addr);
    let user = user(&db).await;
    memories(&db, user, 1, 150).await;
    tasks(&db, user, 3).await;
    let patient = BackfillOptions {
        patience: Duration::from_secs(60),
        ..options(50)
    };

    let (summary, result) = run(&db, &embedders, &patient, &no_stop()).await;
    result.unwrap();
    assert!(!summary.interrupted);
    assert_eq!(summary.table(Table::Memories).unwrap().embedded, 150);
    assert_eq!(summary.table(Table::Tasks).unwrap().embedded, 3);
    let missing: i64 = sqlx::query_scalar(
        "SELECT (SELECT count(*) FROM ai_memories WHERE embedding IS NULL)
              + (SELECT count(*) FROM tasks WHERE embedding IS NULL)",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(missing, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn nothing_listening_is_an_outage_and_writes_nothing(db: PgPool) {
    let embedders = embedders(support::closed_port().await);
    let user = user(&db).await;
    memories(&db, user, 1, 5).await;
    let (summary, result) = run(&db, &embedders, &options(50), &no_stop()).await;
    assert!(
        matches!(result, Err(BackfillError::Unavailable { .. })),
        "{result:?}"
    );
    assert_eq!(summary.embedded(), 0);
    assert!(states(&db, "ai_memories")
        .await
        .iter()
        .all(|(_, m, _)| m.is_none()));
}

#[sqlx::test(migrations = "../migrations")]
async fn queued_training_jobs_of_a_batch_are_taken_over(db: PgPool) {
    let fake = Fake::start(DIMS).await;
    let embedders = embedders(fake.addr);
    let ids = sessions(&db, 2).await;
    for id in &ids {
        server::training::embed::enqueue(&db, *id).await.unwrap();
    }
    let (summary, result) = run(&db, &embedders, &options(50), &no_stop()).await;
    result.unwrap();
    assert_eq!(summary.table(Table::TrainingSessions).unwrap().embedded, 2);
    let statuses: Vec<String> =
        sqlx::query_scalar("SELECT status FROM jobs WHERE kind = 'memory.embed' ORDER BY id")
            .fetch_all(&db)
            .await
            .unwrap();
    assert_eq!(statuses, ["done", "done"], "no worker embeds them again");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_row_rewritten_with_its_own_vector_is_not_overwritten(db: PgPool) {
    let user = user(&db).await;
    memories(&db, user, 1, 1).await;
    let id: i64 = sqlx::query_scalar("SELECT id FROM ai_memories")
        .fetch_one(&db)
        .await
        .unwrap();
    let model = "multilingual-e5-small-q4";
    let fresh = pgvector::Vector::from(vec![0.1_f32; DIMS]);
    let late = pgvector::Vector::from(vec![0.9_f32; DIMS]);
    assert!(
        user_data_embeddings::store(&db, Table::Memories, id, &fresh, model, 384)
            .await
            .unwrap()
    );
    // A backfill that read the row before that write must not replace it.
    assert!(
        !user_data_embeddings::store(&db, Table::Memories, id, &late, model, 384)
            .await
            .unwrap()
    );
    let stored: pgvector::Vector = sqlx::query_scalar("SELECT embedding FROM ai_memories")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(stored, fresh);
    assert_eq!(
        user_data_embeddings::count_pending(&db, Table::Memories, model, 384)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        user_data_embeddings::count_pending(&db, Table::Memories, "other-model", 384)
            .await
            .unwrap(),
        1
    );
}

/// `maxy embed memory`, the binary: a summary line per table, exit 0; a
/// wrong dimension: the summary says so and the command fails naming the
/// setting to fix.
#[sqlx::test(migrations = "../migrations")]
async fn maxy_embed_memory_prints_a_summary_per_table(db: PgPool) {
    let user = user(&db).await;
    memories(&db, user, 1, 3).await;
    tasks(&db, user, 1).await;
    let url = support::url_of(&db).await;
    let command = |embedding_url: String| {
        let url = url.clone();
        move || {
            std::process::Command::new(env!("CARGO_BIN_EXE_maxy"))
                .args([
                    "embed",
                    "memory",
                    "--quiet",
                    "--batch",
                    "2",
                    "--pause-ms",
                    "0",
                ])
                .env_clear()
                .env("DATABASE_URL", &url)
                .env("MAXY_EMBEDDING_URL", &embedding_url)
                .env("MAXY_EMBEDDING_QUERY_URL", &embedding_url)
                .env("MAXY_LOG", "warn")
                .output()
                .unwrap()
        }
    };

    let wrong = Fake::start(256).await;
    let out = tokio::task::spawn_blocking(command(format!("http://{}/v1", wrong.addr)))
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains("ai_memories: 3 to do, 0 embedded in 0 batches"),
        "{stdout}"
    );
    assert!(stdout.contains("DIMENSION MISMATCH"), "{stdout}");
    assert!(
        stderr.contains("MAXY_MEMORY_EMBEDDING_DIMENSIONS"),
        "{stderr}"
    );

    let fake = Fake::start(DIMS).await;
    let out = tokio::task::spawn_blocking(command(format!("http://{}/v1", fake.addr)))
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("ai_memories: 3 to do, 3 embedded in 2 batches, 0 refused"),
        "{stdout}"
    );
    assert!(
        stdout.contains("tasks: 1 to do, 1 embedded in 1 batch,"),
        "{stdout}"
    );
    assert!(
        stdout.contains("training_sessions: 0 to do, 0 embedded"),
        "{stdout}"
    );
    assert_eq!(fake.requests(), 3, "2 + 1 batches; nothing for training");
}

/// A user edits a memory while the backfill embeds its old text: the edit
/// waits for the batch's commit, then its own write (a fresh vector, or NULL
/// when its embedding failed, as here) wins; the next run embeds the new text
/// once. No stale vector survives, no text is embedded twice.
#[sqlx::test(migrations = "../migrations")]
async fn an_edit_racing_a_batch_keeps_its_own_text_and_vector(db: PgPool) {
    let fake = Fake::start(DIMS).await;
    fake.set(|s| s.delay = Duration::from_millis(400));
    let embedders = embedders(fake.addr);
    let user = user(&db).await;
    memories(&db, user, 1, 1).await;

    let edit = {
        let db = db.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(150)).await;
            // What the store's update does when its own embedding fails.
            sqlx::query(
                "UPDATE ai_memories SET content = 'terrasse fermée en hiver',
                        embedding = NULL, embedding_model = NULL",
            )
            .execute(&db)
            .await
            .unwrap();
        })
    };
    let (summary, result) = run(&db, &embedders, &options(50), &no_stop()).await;
    result.unwrap();
    edit.await.unwrap();
    assert_eq!(summary.table(Table::Memories).unwrap().embedded, 1);
    let state = states(&db, "ai_memories").await;
    assert_eq!(
        state[0].1, None,
        "the edit came last: no vector of the old text"
    );

    let (summary, result) = run(&db, &embedders, &options(50), &no_stop()).await;
    result.unwrap();
    assert_eq!(summary.table(Table::Memories).unwrap().embedded, 1);
    let counts = fake.counts();
    assert_eq!(
        counts.get("Note 1\nle lieu numéro 1 a une terrasse"),
        Some(&1)
    );
    assert_eq!(counts.get("Note 1\nterrasse fermée en hiver"), Some(&1));
    let stored: pgvector::Vector = sqlx::query_scalar("SELECT embedding FROM ai_memories")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(
        stored.to_vec(),
        fake_vector("Note 1\nterrasse fermée en hiver", DIMS)
    );
}
