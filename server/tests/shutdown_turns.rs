//! SIGTERM with chat streams open, on a real `maxy serve` process: a turn
//! that ends within the grace period is streamed to its end; one that
//! does not is closed as failed with a notice the user reads, its stream
//! ends with it, no turn stays « en cours » and the process exits 0. A
//! turn whose process died (no heartbeat) is closed by the stream that
//! meets it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use server::bench::fake_model::{Answer, FakeModel, Script};
use sqlx::PgPool;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

const MAXY: &str = env!("CARGO_BIN_EXE_maxy");

/// `maxy serve` on `db`, answering through `model`, with `grace` seconds
/// for its turns once stopped.
async fn serve(db: &PgPool, model: &FakeModel, grace: &str) -> (Child, TestApp) {
    let url = support::url_of(db).await;
    let addr = support::closed_port().await;
    let embedding = format!("http://{}/v1", support::fake_embedding_server().await);
    let mut child = Command::new(MAXY)
        .arg("serve")
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env(
            "MAXY_LEPTOS_CONFIG",
            support::repo_root().join("Leptos.toml"),
        )
        .env("MAXY_LOG", "info")
        .env("DATABASE_URL", &url)
        .env("MAXY_ADDR", addr.to_string())
        .env("MAXY_EMBEDDING_URL", &embedding)
        .env("MAXY_LLM_PROVIDER", "anthropic")
        .env("MAXY_ANTHROPIC_API_KEY", support::anthropic::KEY)
        .env("MAXY_ANTHROPIC_BASE_URL", model.base_url())
        .env("MAXY_SHUTDOWN_GRACE_SECS", grace)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let client = reqwest::Client::new();
    for _ in 0..150 {
        if let Ok(r) = client.get(format!("http://{addr}/readyz")).send().await {
            if r.status().is_success() {
                return (child, TestApp::external(addr, db.clone()));
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = child.kill();
    let out = child.wait_with_output().expect("wait");
    panic!(
        "the server never became ready: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A model that streams `text` slowly (about 20 characters a second).
async fn slow_model(text: &'static str) -> FakeModel {
    let script: Script = Arc::new(move |_| Answer::Text(text.into()));
    FakeModel::start(script, Duration::from_millis(100), 2)
        .await
        .unwrap()
}

/// Sends a message and opens its stream; returns the conversation and the
/// stream once the answer's first words have arrived.
async fn send_and_follow(app: &TestApp) -> (i64, reqwest::Response) {
    let team = app.sign_in(TEAM, PASSWORD).await;
    let sent = app
        .post_form(
            "/api/chat/send",
            &[("text", "Des idées de lieux ?")],
            Some(&team),
        )
        .await;
    assert_eq!(sent.status, reqwest::StatusCode::OK, "{}", sent.body);
    let conversation = sent.json()["conversation_id"].as_i64().unwrap();
    let mut stream = reqwest::Client::new()
        .get(app.url(&format!("/api/chat/conversations/{conversation}/events")))
        .header("cookie", app.cookie(&team))
        .timeout(Duration::from_secs(60))
        .send()
        .await
        .unwrap();
    let mut seen = String::new();
    while !seen.contains("text_delta") {
        let chunk = stream.chunk().await.unwrap().expect("the stream is open");
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
    (conversation, stream)
}

fn terminate(child: &Child) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
}

/// The rest of the stream, to its end.
async fn rest(mut stream: reqwest::Response) -> String {
    let mut body = String::new();
    while let Some(chunk) = stream.chunk().await.unwrap() {
        body.push_str(&String::from_utf8_lossy(&chunk));
    }
    body
}

async fn exit(child: Child) -> String {
    let out = tokio::task::spawn_blocking(move || child.wait_with_output())
        .await
        .unwrap()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "exit {:?}: {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("stopped cleanly"), "{stderr}");
    stderr
}

async fn turn_status(db: &PgPool, conversation: i64) -> String {
    sqlx::query_scalar("SELECT status FROM ai_turns WHERE conversation_id = $1")
        .bind(conversation)
        .fetch_one(db)
        .await
        .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn a_turn_within_the_grace_period_is_streamed_to_its_end(db: PgPool) {
    seed_demo(&db).await;
    // About 2 s of answer, 20 s of grace.
    let model = slow_model("Le Belvédère et La Péniche conviennent.").await;
    let (child, app) = serve(&db, &model, "20").await;
    let (conversation, stream) = send_and_follow(&app).await;
    terminate(&child);
    let started = Instant::now();
    let body = rest(stream).await;
    assert!(body.contains("\"status\":\"done\""), "{body}");
    assert!(body.contains("event: idle"), "{body}");
    exit(child).await;
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(turn_status(&db, conversation).await, "done");
    let answer: String = sqlx::query_scalar(
        "SELECT content::text FROM ai_messages WHERE conversation_id = $1 AND role = 'assistant'",
    )
    .bind(conversation)
    .fetch_one(&db)
    .await
    .unwrap();
    assert!(answer.contains("La Péniche conviennent"), "{answer}");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_turn_past_the_grace_period_is_closed_with_a_notice(db: PgPool) {
    seed_demo(&db).await;
    // About 20 s of answer, 1 s of grace.
    let model = slow_model(
        "Voici une longue réponse qui prend son temps, mot après mot, bien plus longtemps que le délai de grâce du serveur, pour que l'arrêt la trouve en cours.",
    )
    .await;
    let (child, app) = serve(&db, &model, "1").await;
    let (conversation, stream) = send_and_follow(&app).await;
    terminate(&child);
    let started = Instant::now();
    let body = rest(stream).await;
    assert!(body.contains("le serveur redémarre"), "{body}");
    assert!(body.contains("\"status\":\"failed\""), "{body}");
    assert!(body.contains("event: idle"), "{body}");
    exit(child).await;
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    // Closed, not « en cours »; the log ends with the turn's end.
    assert_eq!(turn_status(&db, conversation).await, "failed");
    let last: serde_json::Value = sqlx::query_scalar(
        "SELECT event FROM ai_events WHERE conversation_id = $1 ORDER BY seq DESC LIMIT 1",
    )
    .bind(conversation)
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(last["type"], "turn_finished", "{last}");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_stream_closes_the_turn_of_a_dead_process(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db.clone()).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    // A conversation whose turn was left running by a process killed two
    // minutes ago (its heartbeat stopped then).
    let conversation: i64 = sqlx::query_scalar(
        "INSERT INTO ai_conversations (user_id) SELECT id FROM users WHERE email = $1 RETURNING id",
    )
    .bind(TEAM)
    .fetch_one(&db)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO ai_turns (conversation_id, status, provider, heartbeat_at, started_at)
         VALUES ($1, 'running', 'anthropic', now() - interval '2 minutes', now() - interval '3 minutes')",
    )
    .bind(conversation)
    .execute(&db)
    .await
    .unwrap();
    let started = Instant::now();
    let body = reqwest::Client::new()
        .get(app.url(&format!("/api/chat/conversations/{conversation}/events")))
        .header("cookie", app.cookie(&team))
        .timeout(Duration::from_secs(30))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(body.contains("le serveur s'est arrêté"), "{body}");
    assert!(body.contains("\"status\":\"failed\""), "{body}");
    assert!(body.contains("event: idle"), "{body}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(turn_status(&db, conversation).await, "failed");
}
