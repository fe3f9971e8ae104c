//! The chat model failing in each way a provider fails (issue #30): 500s,
//! 529 « overloaded » and a body that is not a stream. The client retries,
//! then the offline planner answers the turn and the person is told; no
//! half message is left, the turn is closed, and the failed calls are
//! recorded and counted.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use reqwest::StatusCode;
use sqlx::PgPool;
use support::anthropic::{FakeAnthropic, Reply};
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

#[sqlx::test(migrations = "../migrations")]
async fn a_failing_model_hands_the_turn_to_the_offline_planner_and_says_so(db: PgPool) {
    seed_demo(&db).await;
    let faults: [(&str, Vec<Reply>); 3] = [
        // The script is empty: every call answers 500.
        ("500", vec![]),
        ("529", vec![Reply::Status(529, "overloaded_error"); 12]),
        (
            "garbage",
            vec![Reply::Raw("{\"type\": \"message\", \"content\": [tru"); 12],
        ),
    ];
    for (fault, script) in faults {
        let model = FakeAnthropic::start(script).await;
        let app = TestApp::on_model(db.clone(), &model.base_url(), &[]).await;
        let team = app.sign_in(TEAM, PASSWORD).await;
        let sent = app
            .post_form("/api/chat/send", &[("text", "Bonjour")], Some(&team))
            .await;
        assert_eq!(sent.status, StatusCode::OK, "{fault}: {}", sent.body);
        let conversation = sent.json()["conversation_id"].as_i64().unwrap();
        let events = app.events(&team, conversation, 0).await;
        let kinds: Vec<&str> = events
            .iter()
            .map(|(_, e)| e["type"].as_str().unwrap())
            .collect();

        // Told, then answered offline, then closed.
        let notice = events
            .iter()
            .position(|(_, e)| {
                e["type"] == "notice"
                    && e["text"]
                        .as_str()
                        .is_some_and(|t| t.contains("mode hors-ligne"))
            })
            .unwrap_or_else(|| panic!("{fault}: no notice in {kinds:?}"));
        assert!(
            !kinds[..notice].contains(&"text_delta"),
            "{fault}: text before the notice: {kinds:?}"
        );
        assert!(
            kinds[notice..].contains(&"text_delta"),
            "{fault}: the offline planner answers: {kinds:?}"
        );
        assert_eq!(kinds.last(), Some(&"turn_finished"), "{fault}: {kinds:?}");
        let running = app
            .count(&format!(
                "SELECT count(*) FROM ai_turns WHERE conversation_id = {conversation} AND status = 'running'"
            ))
            .await;
        assert_eq!(running, 0, "{fault}: a turn left « en cours »");
        // One answer, the offline planner's: nothing half-written by the model.
        let answers: Vec<(i32, Option<String>)> = sqlx::query_as(
            "SELECT jsonb_array_length(content), model FROM ai_messages
              WHERE conversation_id = $1 AND role = 'assistant'",
        )
        .bind(conversation)
        .fetch_all(&db)
        .await
        .unwrap();
        assert!(
            !answers.is_empty()
                && answers
                    .iter()
                    .all(|(blocks, model)| *blocks > 0
                        && model.as_deref() == Some("offline-planner")),
            "{fault}: {answers:?}"
        );
        // The model was tried (with its retries) and the failure recorded.
        assert!(
            !model.seen().is_empty(),
            "{fault}: the model was never called"
        );
        let failed = app
            .count("SELECT count(*) FROM llm_calls WHERE task = 'chat' AND status = 'error'")
            .await;
        assert!(failed > 0, "{fault}: no failed call recorded");
        let metrics = app.get("/metrics", None).await.body;
        assert!(
            metrics.contains(r#"maxy_llm_calls_total{task="chat",outcome="failed"}"#),
            "{fault}: {metrics}"
        );
    }
}
