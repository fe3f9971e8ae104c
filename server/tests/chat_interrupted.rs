//! A model stream that fails mid-answer: the text shown so far stays,
//! labelled as interrupted (`answer_interrupted`), the offline planner
//! answers after it, and the cut call's `llm_calls` row keeps the tokens
//! the stream used.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use server::bench::fake_model::{Answer, FakeModel, Script};
use sqlx::PgPool;
use std::sync::Arc;
use std::time::Duration;
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

const PARTIAL: &str = "Voici trois lieux qui conviennent : Le Belvédère, une terrasse";

#[sqlx::test(migrations = "../migrations")]
async fn a_stream_cut_mid_answer_is_labelled_and_its_tokens_are_recorded(db: PgPool) {
    seed_demo(&db).await;
    let script: Script = Arc::new(|_| Answer::Cut(PARTIAL.into()));
    let fake = FakeModel::start(script, Duration::ZERO, 8).await.unwrap();
    let app = TestApp::on_model(db.clone(), &fake.base_url(), &[]).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let sent = app
        .post_form("/api/chat/send", &[("text", "Des lieux ?")], Some(&team))
        .await;
    assert_eq!(sent.status, reqwest::StatusCode::OK, "{}", sent.body);
    let conversation = sent.json()["conversation_id"].as_i64().unwrap();
    let body = reqwest::Client::new()
        .get(app.url(&format!("/api/chat/conversations/{conversation}/events")))
        .header("cookie", app.cookie(&team))
        .timeout(Duration::from_secs(60))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(body.contains("turn_finished"), "{body}");

    let events: Vec<serde_json::Value> =
        sqlx::query_scalar("SELECT event FROM ai_events WHERE conversation_id = $1 ORDER BY seq")
            .bind(conversation)
            .fetch_all(&db)
            .await
            .unwrap();
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    let cut = kinds
        .iter()
        .position(|k| *k == "answer_interrupted")
        .unwrap_or_else(|| panic!("no answer_interrupted in {kinds:?}"));
    // The partial text, whole, before the label.
    let before: String = events[..cut]
        .iter()
        .filter(|e| e["type"] == "text_delta")
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert_eq!(before, PARTIAL);
    // Then the notice and the offline planner's answer, and a turn done.
    assert_eq!(kinds[cut + 1], "notice", "{kinds:?}");
    assert!(
        kinds[cut + 2..].contains(&"text_delta"),
        "the planner answers after: {kinds:?}"
    );
    assert_eq!(events.last().unwrap()["status"], "done", "{kinds:?}");

    // The cut call is recorded with what it used: the input the start
    // reported, the output streamed so far.
    let calls: Vec<(String, String, i32, i32, Option<String>)> = sqlx::query_as(
        "SELECT provider, status, input_tokens, output_tokens, error FROM llm_calls
          WHERE conversation_id = $1 AND provider = 'anthropic' ORDER BY id",
    )
    .bind(conversation)
    .fetch_all(&db)
    .await
    .unwrap();
    assert_eq!(calls.len(), 1, "{calls:?}");
    let (_, status, input, output, error) = &calls[0];
    assert_eq!(status, "error");
    assert_eq!(*input, 1200, "the input the stream's start reported");
    assert!(*output > 1, "the output streamed so far: {output}");
    assert!(error.is_some());
}

/// A stream the team stops (« Arrêter ») mid-answer: the dropped call's
/// `llm_calls` row says cancelled and keeps what the stream used.
#[sqlx::test(migrations = "../migrations")]
async fn a_stopped_stream_records_the_tokens_it_used(db: PgPool) {
    seed_demo(&db).await;
    let long = "Voici des lieux. ".repeat(200);
    let script: Script = Arc::new(move |_| Answer::Text(long.clone()));
    // A delta every 30 ms: the answer would take minutes.
    let fake = FakeModel::start(script, Duration::from_millis(30), 8)
        .await
        .unwrap();
    let app = TestApp::on_model(db.clone(), &fake.base_url(), &[]).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let sent = app
        .post_form("/api/chat/send", &[("text", "Des lieux ?")], Some(&team))
        .await;
    assert_eq!(sent.status, reqwest::StatusCode::OK, "{}", sent.body);
    let conversation = sent.json()["conversation_id"].as_i64().unwrap();
    // Some text streamed (a delta written to the log), then stop.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let texts: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM ai_events WHERE conversation_id = $1
                AND event->>'type' = 'text_delta'",
        )
        .bind(conversation)
        .fetch_one(&db)
        .await
        .unwrap();
        if texts > 0 {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no text streamed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let stopped = app
        .post_form(
            "/api/chat/stop",
            &[("conversation_id", &conversation.to_string())],
            Some(&team),
        )
        .await;
    assert_eq!(stopped.status, reqwest::StatusCode::OK, "{}", stopped.body);
    // The cancelled call's row is written by the dropped stream's guard.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let row: (String, i32, i32, Option<String>) = loop {
        let row = sqlx::query_as(
            "SELECT status, input_tokens, output_tokens, error FROM llm_calls
              WHERE conversation_id = $1 AND provider = 'anthropic'",
        )
        .bind(conversation)
        .fetch_optional(&db)
        .await
        .unwrap();
        if let Some(row) = row {
            break row;
        }
        assert!(std::time::Instant::now() < deadline, "no row for the call");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let (status, input, output, error) = row;
    assert_eq!(
        (status.as_str(), error.as_deref()),
        ("error", Some("cancelled"))
    );
    assert_eq!(input, 1200, "the input the stream's start reported");
    assert!(output >= 1, "the output streamed so far: {output}");
    let turn: String = sqlx::query_scalar("SELECT status FROM ai_turns WHERE conversation_id = $1")
        .bind(conversation)
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(turn, "stopped");
}
