//! What the chat turn's overhead round changed (docs/benchmarks.md, fifth
//! round): the turn's last model call is stored by the statement that
//! closes the turn (one round trip instead of a relaxed insert of its
//! own), and the row keeps its tokens, cost, latency
//! and who it served, while calls that asked for a tool are still written at
//! once; the first round's reads are one statement that reads what the
//! separate reads did; the send and the closing reach the disk through the
//! flush that follows them; the per-stage timings of `maxy bench chat` are
//! never collected by the production wiring.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use futures_util::StreamExt;
use serde_json::{json, Value};
use server::bench::fake_model::{last_tool_results, Answer, FakeModel, Script};
use server::db::ai_events::{self, Closing, FinalMessage};
use server::db::llm_calls::CallContext;
use server::llm::{
    AnthropicClient, Block, CallRecord, ChatEvent, ChatMessage, ChatRequest, LlmProvider,
    Recording, Task, Usage,
};
use sqlx::PgPool;
use std::sync::Arc;
use std::time::Duration;
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

#[derive(Debug, PartialEq, sqlx::FromRow)]
struct Row {
    task: String,
    provider: String,
    model: String,
    input_tokens: i32,
    output_tokens: i32,
    cache_write_tokens: i32,
    cache_read_tokens: i32,
    cost_usd: f64,
    latency_ms: i32,
    status: String,
    error: Option<String>,
    conversation_id: Option<i64>,
    user_id: Option<i64>,
    request_id: Option<i64>,
}

async fn rows(db: &PgPool, conversation_id: i64) -> Vec<Row> {
    sqlx::query_as(
        "SELECT task, provider, model, input_tokens, output_tokens, cache_write_tokens,
                cache_read_tokens, cost_usd::float8 AS cost_usd, latency_ms, status, error,
                conversation_id, user_id, request_id
           FROM llm_calls WHERE conversation_id = $1 ORDER BY id",
    )
    .bind(conversation_id)
    .fetch_all(db)
    .await
    .unwrap()
}

/// The first request of the demo.
async fn first_request(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT id FROM requests ORDER BY id LIMIT 1")
        .fetch_one(db)
        .await
        .unwrap()
}

/// A conversation of the first user with a running turn: (user, conversation, turn).
async fn running_turn(db: &PgPool) -> (i64, i64, i64) {
    let user: i64 = sqlx::query_scalar("SELECT id FROM users ORDER BY id LIMIT 1")
        .fetch_one(db)
        .await
        .unwrap();
    let conversation = server::db::ai_conversations::create(db, user, None, "x")
        .await
        .unwrap()
        .id;
    let turn: i64 = sqlx::query_scalar(
        "INSERT INTO ai_turns (conversation_id, provider) VALUES ($1, 'anthropic') RETURNING id",
    )
    .bind(conversation)
    .fetch_one(db)
    .await
    .unwrap();
    (user, conversation, turn)
}

/// Where the WAL is written up to, and whether it is on disk up to `lsn`.
async fn wal_written(db: &PgPool) -> String {
    sqlx::query_scalar("SELECT pg_current_wal_insert_lsn()::text")
        .fetch_one(db)
        .await
        .unwrap()
}

async fn on_disk_up_to(db: &PgPool, lsn: &str) -> bool {
    sqlx::query_scalar("SELECT pg_current_wal_flush_lsn() >= $1::pg_lsn")
        .bind(lsn)
        .fetch_one(db)
        .await
        .unwrap()
}

/// The send and the closing commit without waiting for the disk (ADR
/// 0024); the flush that follows each carries it to disk: once it returns,
/// the WAL is on disk past their commits. A turn that does not exist makes
/// no write, so no flush, and says so.
#[sqlx::test(migrations = "../migrations")]
async fn the_turns_flush_puts_its_relaxed_send_and_closing_on_disk(db: PgPool) {
    use server::db::ai_turns;
    seed_demo(&db).await;
    let (user, conversation, turn) = running_turn(&db).await;
    ai_turns::finish(&db, turn, "done", None).await.unwrap();
    let window = server::db::ai_context::TurnWindow {
        recent: 3,
        messages: 30,
    };
    let server::db::ai_send::Sent::Opened { turn_id, .. } =
        send(&db, user, conversation, "bonjour", window).await
    else {
        panic!("the turn opens");
    };
    let sent = wal_written(&db).await;
    assert!(ai_turns::flush_to_disk(&db, turn_id).await.unwrap());
    assert!(on_disk_up_to(&db, &sent).await, "the send is on disk");

    let closing = Closing {
        status: "done",
        error: None,
        message: None,
        calls: &[],
        call_context: CallContext::default(),
    };
    let finished = app::chat::ChatEvent::TurnFinished {
        turn_id,
        status: "done".into(),
        cost_eur: 0.0,
    };
    let closed = ai_events::append_closing_turn(
        &db,
        conversation,
        turn_id,
        std::slice::from_ref(&finished),
        closing,
    )
    .await
    .unwrap();
    assert!(closed);
    let closed_at = wal_written(&db).await;
    assert!(ai_turns::flush_to_disk(&db, turn_id).await.unwrap());
    assert!(
        on_disk_up_to(&db, &closed_at).await,
        "the closing is on disk"
    );
    let status: String = sqlx::query_scalar("SELECT status FROM ai_turns WHERE id = $1")
        .bind(turn_id)
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(status, "done", "the flush leaves the turn as it was");

    assert!(!ai_turns::flush_to_disk(&db, turn_id + 1_000_000)
        .await
        .unwrap());
}

#[sqlx::test(migrations = "../migrations")]
async fn the_closing_statement_stores_the_last_call_with_its_tokens_and_cost(db: PgPool) {
    seed_demo(&db).await;
    let (user, conversation, turn) = running_turn(&db).await;
    let call = CallRecord {
        task: Task::Chat,
        provider: "anthropic",
        model: "claude-sonnet-4-5".into(),
        usage: Usage {
            input_tokens: 1200,
            output_tokens: 40,
            cache_write_tokens: 7,
            cache_read_tokens: 1000,
        },
        cost_usd: Some(0.012_345),
        latency: Duration::from_millis(842),
        error: None,
    };
    let content = [Block::Text {
        text: "Voici trois lieux.".into(),
    }];
    let context = CallContext {
        user_id: Some(user),
        conversation_id: Some(conversation),
        ..CallContext::default()
    };
    let finished = app::chat::ChatEvent::TurnFinished {
        turn_id: turn,
        status: "done".into(),
        cost_eur: 0.01,
    };
    let closed = ai_events::append_closing_turn(
        &db,
        conversation,
        turn,
        std::slice::from_ref(&finished),
        Closing {
            status: "done",
            error: None,
            message: Some(FinalMessage {
                content: &content,
                model: "claude-sonnet-4-5",
            }),
            calls: std::slice::from_ref(&call),
            call_context: context,
        },
    )
    .await
    .unwrap();
    assert!(closed);
    assert_eq!(
        rows(&db, conversation).await,
        [Row {
            task: "chat".into(),
            provider: "anthropic".into(),
            model: "claude-sonnet-4-5".into(),
            input_tokens: 1200,
            output_tokens: 40,
            cache_write_tokens: 7,
            cache_read_tokens: 1000,
            cost_usd: 0.012_345,
            latency_ms: 842,
            status: "ok".into(),
            error: None,
            conversation_id: Some(conversation),
            user_id: Some(user),
            request_id: None,
        }]
    );
    // Written by the same statement as the closing: one transaction, one
    // `now()`.
    let same: bool = sqlx::query_scalar(
        "SELECT c.created_at = t.finished_at FROM llm_calls c, ai_turns t
          WHERE c.conversation_id = $1 AND t.id = $2",
    )
    .bind(conversation)
    .bind(turn)
    .fetch_one(&db)
    .await
    .unwrap();
    assert!(same);
    let answer: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM ai_messages WHERE conversation_id = $1 AND role = 'assistant'",
    )
    .bind(conversation)
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(answer, 1);

    // A closing with no call left writes no row; a failed call's error is kept.
    let (_, other, other_turn) = running_turn(&db).await;
    let failed = CallRecord {
        error: Some("cancelled".into()),
        cost_usd: None,
        ..call.clone()
    };
    for calls in [&[][..], std::slice::from_ref(&failed)] {
        ai_events::append_closing_turn(
            &db,
            other,
            other_turn,
            &[],
            Closing {
                status: "stopped",
                error: None,
                message: None,
                calls,
                call_context: CallContext {
                    conversation_id: Some(other),
                    ..CallContext::default()
                },
            },
        )
        .await
        .unwrap();
    }
    let stored = rows(&db, other).await;
    assert_eq!(stored.len(), 1, "{stored:?}");
    assert_eq!(
        (
            stored[0].status.as_str(),
            stored[0].error.as_deref(),
            stored[0].cost_usd
        ),
        ("error", Some("cancelled"), 0.0)
    );
}

/// A streamed call through the recorder, to its end.
async fn stream_once(recording: &Recording) {
    let request = ChatRequest {
        task: Task::Chat,
        system: "Tu es Maxy.".into(),
        tools: Vec::new().into(),
        messages: vec![ChatMessage::user_text("Des lieux ?")],
        max_tokens: 256,
        time_limit: Some(Duration::from_secs(10)),
    };
    let mut stream = recording.stream(&request).await.unwrap();
    let mut finished = false;
    while let Some(event) = stream.next().await {
        finished |= matches!(event.unwrap(), ChatEvent::Finished(_));
    }
    assert!(finished);
}

async fn client(script: Script) -> (FakeModel, Arc<dyn LlmProvider>) {
    let fake = FakeModel::start(script, Duration::ZERO, 8).await.unwrap();
    let client = AnthropicClient::new(
        &server::config::AnthropicSettings {
            base_url: fake.base_url(),
            api_key: "test-key".into(),
        },
        "claude-sonnet-4-5",
        Duration::from_secs(10),
    )
    .unwrap();
    (fake, Arc::new(client))
}

#[sqlx::test(migrations = "../migrations")]
async fn a_recording_leaves_answers_to_its_caller_and_writes_failures(db: PgPool) {
    seed_demo(&db).await;
    let (_, conversation, _) = running_turn(&db).await;
    let context = CallContext {
        conversation_id: Some(conversation),
        ..CallContext::default()
    };
    let count = || async {
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM llm_calls WHERE conversation_id = $1")
            .bind(conversation)
            .fetch_one(&db)
            .await
            .unwrap()
    };

    // A final answer (no tool call): kept, not written.
    let (_fake, provider) = client(Arc::new(|_| Answer::Text("Voici.".into()))).await;
    let leaving = Recording::new(provider.clone(), db.clone(), context).leaving_answers();
    stream_once(&leaving).await;
    assert_eq!(count().await, 0, "left to the caller");
    let calls = leaving.calls();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].id, None);
    let left = leaving.take_left();
    assert_eq!(left, [calls[0].record.clone()]);
    assert_eq!(
        (left[0].usage.input_tokens, left[0].usage.output_tokens),
        (1200, 40),
        "the usage the stream reported"
    );
    assert!(leaving.take_left().is_empty(), "taken once");

    // Without the option the same answer is written at once.
    let writing = Recording::new(provider, db.clone(), context);
    stream_once(&writing).await;
    assert_eq!(count().await, 1);
    assert!(writing.calls()[0].id.is_some());
    assert!(writing.take_left().is_empty());

    // An answer that calls a tool is left too (the turn stores it with the
    // answer's message).
    let (_fake, tool) = client(Arc::new(|_| Answer::ToolUse {
        text: String::new(),
        name: "get_request".into(),
        input: json!({"request_id": 1}),
    }))
    .await;
    let leaving = Recording::new(tool, db.clone(), context).leaving_answers();
    stream_once(&leaving).await;
    assert_eq!(count().await, 1);
    assert_eq!(leaving.take_left().len(), 1);

    // A call that fails is written at once even when leaving.
    let failing = Recording::new(
        Arc::new(
            AnthropicClient::new(
                &server::config::AnthropicSettings {
                    base_url: format!("http://{}", support::closed_port().await),
                    api_key: "test-key".into(),
                },
                "claude-sonnet-4-5",
                Duration::from_secs(2),
            )
            .unwrap(),
        ),
        db.clone(),
        context,
    )
    .leaving_answers();
    let request = ChatRequest {
        task: Task::Chat,
        system: "Tu es Maxy.".into(),
        tools: Vec::new().into(),
        messages: vec![ChatMessage::user_text("Des lieux ?")],
        max_tokens: 256,
        time_limit: Some(Duration::from_secs(2)),
    };
    assert!(failing.stream(&request).await.is_err());
    assert_eq!(count().await, 2, "the failure is recorded at once");
    assert!(failing.take_left().is_empty());
}

/// Sends a message through the app and waits for its turn to end.
async fn turn(app: &TestApp, session: &str, text: &str) -> i64 {
    let sent = app
        .post_form("/api/chat/send", &[("text", text)], Some(session))
        .await;
    assert_eq!(sent.status, reqwest::StatusCode::OK, "{}", sent.body);
    let conversation = sent.json()["conversation_id"].as_i64().unwrap();
    let body = reqwest::Client::new()
        .get(app.url(&format!("/api/chat/conversations/{conversation}/events")))
        .header("cookie", app.cookie(session))
        .timeout(Duration::from_secs(60))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(body.contains("turn_finished"), "{body}");
    conversation
}

#[sqlx::test(migrations = "../migrations")]
async fn a_turn_records_every_model_call_once_the_last_with_its_closing(db: PgPool) {
    seed_demo(&db).await;
    let request_id = first_request(&db).await;
    let script: Script = Arc::new(move |body: &Value| {
        let asked = body["messages"].to_string();
        if asked.contains("avec outil") && last_tool_results(body).is_empty() {
            Answer::ToolUse {
                text: "Je lis la demande.".into(),
                name: "get_request".into(),
                input: json!({"request_id": request_id}),
            }
        } else {
            Answer::Text("Voici trois lieux.".into())
        }
    });
    let fake = FakeModel::start(script, Duration::ZERO, 8).await.unwrap();
    let app = TestApp::on_model(db.clone(), &fake.base_url(), &[]).await;
    let team = app.sign_in(TEAM, PASSWORD).await;

    for (text, calls) in [("Des lieux ?", 1), ("Des lieux, avec outil ?", 2)] {
        let conversation = turn(&app, &team, text).await;
        let stored = rows(&db, conversation).await;
        assert_eq!(stored.len(), calls, "{text}: {stored:?}");
        for row in &stored {
            assert_eq!(
                (
                    row.task.as_str(),
                    row.status.as_str(),
                    row.input_tokens,
                    row.output_tokens,
                    row.cache_read_tokens
                ),
                ("chat", "ok", 1200, 40, 1000),
                "{text}"
            );
            assert!(row.user_id.is_some());
        }
        // The last call went in with the closing (same transaction time);
        // a tool round's call was written before it.
        let at_closing: Vec<bool> = sqlx::query_scalar(
            "SELECT c.created_at = t.finished_at FROM llm_calls c
               JOIN ai_turns t ON t.conversation_id = c.conversation_id
              WHERE c.conversation_id = $1 ORDER BY c.id",
        )
        .bind(conversation)
        .fetch_all(&db)
        .await
        .unwrap();
        let mut expected = vec![false; calls - 1];
        expected.push(true);
        assert_eq!(at_closing, expected, "{text}");
    }
}

/// The per-stage timings are for the benchmark: the production wiring
/// builds the agent without them, and only `bench/` turns them on.
#[test]
fn stage_timings_are_collected_by_the_benchmark_only() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let services = std::fs::read_to_string(format!("{root}/services.rs")).unwrap();
    assert!(
        services.contains("stages: None"),
        "services.rs builds the agent without timings"
    );
    let mut on = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(root)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if std::fs::read_to_string(&path)
                .unwrap_or_default()
                .contains("stages: Some(")
            {
                on.push(path.strip_prefix(root).unwrap().display().to_string());
            }
        }
    }
    assert_eq!(on, ["bench/chat.rs"]);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_turns_reads_in_one_statement_are_the_separate_reads(db: PgPool) {
    use server::db::{ai_context, ai_conversations, ai_messages};
    seed_demo(&db).await;
    let (_, conversation, _) = running_turn(&db).await;
    let request_id = first_request(&db).await;
    let text = |t: &str| vec![Block::Text { text: t.into() }];
    for n in 0..7 {
        ai_messages::append(
            &db,
            conversation,
            "user",
            &text(&format!("question {n}")),
            None,
        )
        .await
        .unwrap();
        let call = Block::ToolUse {
            id: format!("toolu_{n}"),
            name: "update_request".into(),
            input: json!({"request_id": request_id}),
        };
        let asked = ai_messages::append(&db, conversation, "assistant", &[call], Some("m"))
            .await
            .unwrap();
        if n % 3 == 0 {
            server::approvals::create(
                &db,
                conversation,
                asked.id,
                &format!("toolu_{n}"),
                "update_request",
                &json!({"request_id": request_id, "status": "qualified"}),
                Duration::from_secs(60),
            )
            .await
            .unwrap();
        }
    }
    for (request, window) in [(Some(request_id), 5), (None, 30), (Some(-1), 1)] {
        let one = ai_context::for_turn(
            &db,
            request,
            conversation,
            ai_context::TurnWindow {
                recent: 3,
                messages: window,
            },
        )
        .await
        .unwrap();
        let (r, training, knowledge) = ai_context::for_prompt(&db, request, 3).await.unwrap();
        assert_eq!(one.request, r);
        assert_eq!(one.training, training);
        assert_eq!(one.knowledge, knowledge);
        assert_eq!(
            one.messages,
            ai_messages::last(&db, conversation, i64::from(window))
                .await
                .unwrap()
        );
        let mut outcomes = ai_conversations::approval_outcomes(&db, conversation)
            .await
            .unwrap();
        let mut got = one.outcomes.clone();
        outcomes.sort_by_key(|o| o.id);
        got.sort_by_key(|o| o.id);
        assert_eq!(got, outcomes);
        assert_eq!(got.len(), 3);
        assert_eq!(one.messages.len(), usize::from(window.min(14)));
    }
    // The send that opens a turn reads the same, its own message included.
    let (user, _): (i64, i64) = sqlx::query_as(
        "UPDATE ai_conversations SET request_id = $2 WHERE id = $1 RETURNING user_id, id",
    )
    .bind(conversation)
    .bind(request_id)
    .fetch_one(&db)
    .await
    .unwrap();
    let running: i64 = sqlx::query_scalar("SELECT id FROM ai_turns WHERE conversation_id = $1")
        .bind(conversation)
        .fetch_one(&db)
        .await
        .unwrap();
    server::db::ai_turns::finish(&db, running, "done", None)
        .await
        .unwrap();
    for window in [5, 30, 1] {
        let window = ai_context::TurnWindow {
            recent: 3,
            messages: window,
        };
        let sent = send(&db, user, conversation, "encore une question", window).await;
        let server::db::ai_send::Sent::Opened { turn_id, reads, .. } = sent else {
            panic!("the turn opens: {sent:?}");
        };
        let fresh = ai_context::for_turn(&db, Some(request_id), conversation, window)
            .await
            .unwrap();
        assert_eq!(*reads, fresh, "window {window:?}");
        assert_eq!(
            reads.messages.last().unwrap().content.0,
            text("encore une question")
        );
        assert!(reads.request.is_some());
        // While the turn runs, a send is refused and nothing is read.
        let busy = send(&db, user, conversation, "et alors ?", window).await;
        assert!(
            matches!(busy, server::db::ai_send::Sent::Busy(_)),
            "{busy:?}"
        );
        server::db::ai_turns::finish(&db, turn_id, "done", None)
            .await
            .unwrap();
    }
    // Someone else's conversation: nothing found, nothing written.
    let window = ai_context::TurnWindow {
        recent: 3,
        messages: 30,
    };
    let other = send(&db, user + 1_000_000, conversation, "intrus", window).await;
    assert!(
        matches!(other, server::db::ai_send::Sent::NotFound),
        "{other:?}"
    );
    // A conversation with nothing yet reads empty lists.
    let (_, empty, _) = running_turn(&db).await;
    let none = ai_context::for_turn(
        &db,
        None,
        empty,
        ai_context::TurnWindow {
            recent: 3,
            messages: 30,
        },
    )
    .await
    .unwrap();
    assert!(none.messages.is_empty() && none.outcomes.is_empty() && none.request.is_none());
}

/// Removes the prompt-caching markers: where breakpoint 2 sits depends on
/// which message is last, not on what the history holds.
fn without_cache_marks(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("cache_control");
            map.values_mut().for_each(without_cache_marks);
        }
        Value::Array(items) => items.iter_mut().for_each(without_cache_marks),
        _ => {}
    }
}

/// How many tool-result messages a request body carries.
fn tool_rounds(body: &Value) -> usize {
    body["messages"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter(|m| m.to_string().contains("\"tool_result\""))
                .count()
        })
        .unwrap_or(0)
}

/// A tool round is two writes (the answer before the calls, the results
/// after) and later rounds do not re-read the history: what the model reads
/// in a later round must be what a fresh read of the stored conversation
/// gives, and the page's events must keep their order.
#[sqlx::test(migrations = "../migrations")]
async fn later_rounds_read_the_history_a_fresh_read_gives(db: PgPool) {
    seed_demo(&db).await;
    let request_id = first_request(&db).await;
    // Two tool rounds (the second with a bad argument: a tool error the
    // model reads), then text; the next turn answers at once.
    let script: Script = Arc::new(move |body: &Value| match tool_rounds(body) {
        0 => Answer::ToolUse {
            text: "Je lis la demande.".into(),
            name: "get_request".into(),
            input: json!({"request_id": request_id}),
        },
        1 => Answer::ToolUse {
            text: String::new(),
            name: "get_request".into(),
            input: json!({"request_id": "pas un nombre"}),
        },
        _ => Answer::Text("Voici la demande.".into()),
    });
    let fake = FakeModel::start(script, Duration::ZERO, 5).await.unwrap();
    let app = TestApp::on_model(db.clone(), &fake.base_url(), &[]).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let conversation = turn(&app, &team, "Lis la demande, avec outil").await;

    let bodies = fake.seen();
    assert_eq!(bodies.len(), 3, "three model calls in the first turn");
    let kinds: Vec<String> = sqlx::query_scalar(
        "SELECT event->>'type' FROM ai_events WHERE conversation_id = $1 ORDER BY seq",
    )
    .bind(conversation)
    .fetch_all(&db)
    .await
    .unwrap();
    let kinds: Vec<&str> = kinds.iter().map(String::as_str).collect();
    assert_eq!(
        kinds,
        [
            "user_message",
            "turn_started",
            "text_delta",
            "tool_started",
            "tool_finished",
            "tool_started",
            "tool_finished",
            "text_delta",
            "turn_finished"
        ]
    );
    // The send wrote the start event with the turn it opened.
    let (named, opened): (i64, i64) = sqlx::query_as(
        "SELECT (e.event->>'turn_id')::int8, t.id FROM ai_events e
           JOIN ai_turns t ON t.id = e.turn_id
          WHERE e.conversation_id = $1 AND e.event->>'type' = 'turn_started'",
    )
    .bind(conversation)
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(named, opened, "the start event names its turn");
    let roles: Vec<(i32, String)> =
        sqlx::query_as("SELECT seq, role FROM ai_messages WHERE conversation_id = $1 ORDER BY seq")
            .bind(conversation)
            .fetch_all(&db)
            .await
            .unwrap();
    let expected: Vec<(i32, String)> = [
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
    ]
    .iter()
    .enumerate()
    .map(|(i, r)| (i32::try_from(i).unwrap(), r.to_string()))
    .collect();
    assert_eq!(roles, expected, "numbered without a gap");

    // The next turn's first call reads the stored conversation afresh: its
    // history starts with what the third call of the first turn read.
    let sent = app
        .post_form(
            "/api/chat/send",
            &[
                ("text", "Et ensuite ?"),
                ("conversation_id", &conversation.to_string()),
            ],
            Some(&team),
        )
        .await;
    assert_eq!(sent.status, reqwest::StatusCode::OK, "{}", sent.body);
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while fake.seen().len() < 4 {
        assert!(
            std::time::Instant::now() < deadline,
            "the second turn's call"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut later = bodies[2]["messages"].clone();
    let mut fresh = fake.seen()[3]["messages"].clone();
    without_cache_marks(&mut later);
    without_cache_marks(&mut fresh);
    let later = later.as_array().unwrap();
    let fresh = fresh.as_array().unwrap();
    assert_eq!(later.len(), 5, "{later:?}");
    assert_eq!(
        &fresh[..5],
        &later[..],
        "the round's history is the stored one"
    );
    assert!(
        later[4].to_string().contains("is_error"),
        "the bad argument's error is read"
    );
}

/// The send that opens a turn, and reads for it, is planned once per
/// connection (a generic plan), not again on every turn: its limits are
/// written into it.
#[sqlx::test(migrations = "../migrations")]
async fn the_turns_first_reads_keep_one_plan(db: PgPool) {
    use server::db::{ai_context, ai_turns};
    seed_demo(&db).await;
    let (user, conversation, turn) = running_turn(&db).await;
    ai_turns::finish(&db, turn, "done", None).await.unwrap();
    let window = ai_context::TurnWindow {
        recent: 3,
        messages: 30,
    };
    // One connection: the plans counted are its own.
    let one = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect_with((*db.connect_options()).clone())
        .await
        .unwrap();
    for _ in 0..12 {
        let sent = send(&one, user, conversation, "bonjour", window).await;
        let server::db::ai_send::Sent::Opened { turn_id, .. } = sent else {
            panic!("the turn opens: {sent:?}");
        };
        ai_turns::finish(&one, turn_id, "done", None).await.unwrap();
    }
    let (generic, custom): (i64, i64) = sqlx::query_as(
        "SELECT generic_plans, custom_plans FROM pg_prepared_statements
          WHERE statement LIKE '%INSERT INTO ai_turns%'
            AND statement LIKE '%FROM ai_pending_approvals%'
            AND statement NOT LIKE '%pg_prepared_statements%'",
    )
    .fetch_one(&one)
    .await
    .unwrap();
    assert!(
        generic >= 6 && custom <= 6,
        "generic {generic}, custom {custom}: planned again on every call"
    );
}

/// A team member's message sent as the chat service sends it.
async fn send(
    db: &PgPool,
    user: i64,
    conversation: i64,
    text: &str,
    window: server::db::ai_context::TurnWindow,
) -> server::db::ai_send::Sent {
    send_knowing(db, user, conversation, text, window, &[]).await
}

/// [`send`], the caller holding `known` messages of the conversation.
async fn send_knowing(
    db: &PgPool,
    user: i64,
    conversation: i64,
    text: &str,
    window: server::db::ai_context::TurnWindow,
    known: &[server::db::ai_messages::StoredMessage],
) -> server::db::ai_send::Sent {
    let event = app::chat::ChatEvent::UserMessage {
        text: text.into(),
        author: "Camille".into(),
    };
    let started = app::chat::ChatEvent::TurnStarted {
        turn_id: 0,
        offline: true,
        model: "offline-planner".into(),
    };
    server::db::ai_send::send_user_message(
        db,
        user,
        conversation,
        "offline",
        text,
        [&event, &started],
        window,
        known,
    )
    .await
    .unwrap()
}

/// The messages a send already knows are not read again; what it reads
/// after them (another server's messages, or more than a window of them)
/// makes the same window a fresh read gives.
#[sqlx::test(migrations = "../migrations")]
async fn a_send_reads_only_the_messages_after_those_it_knows(db: PgPool) {
    use server::db::ai_send::Sent;
    use server::db::{ai_context, ai_messages};
    seed_demo(&db).await;
    let (user, conversation, running) = running_turn(&db).await;
    server::db::ai_turns::finish(&db, running, "done", None)
        .await
        .unwrap();
    let text = |t: &str| vec![Block::Text { text: t.into() }];
    let append = |n: usize| {
        let db = db.clone();
        async move {
            for i in 0..n {
                // Written by another server: this one does not know them.
                ai_messages::append(
                    &db,
                    conversation,
                    "user",
                    &text(&format!("ailleurs {i}")),
                    None,
                )
                .await
                .unwrap();
            }
        }
    };
    append(7).await;
    for window in [5u16, 30] {
        let window = ai_context::TurnWindow {
            recent: 3,
            messages: window,
        };
        let mut known: Vec<ai_messages::StoredMessage> = Vec::new();
        for (step, elsewhere) in [
            (0, 0),
            (1, 2),
            (2, 0),
            (3, usize::from(window.messages) + 3),
        ] {
            append(elsewhere).await;
            let said = format!("question {step}");
            let sent = send_knowing(&db, user, conversation, &said, window, &known).await;
            let Sent::Opened { turn_id, reads, .. } = sent else {
                panic!("the turn opens: {sent:?}");
            };
            let fresh = ai_context::for_turn(&db, None, conversation, window)
                .await
                .unwrap();
            assert_eq!(reads.messages, fresh.messages, "{window:?}, step {step}");
            assert_eq!(reads.messages.last().unwrap().content.0, text(&said));
            server::db::ai_turns::finish(&db, turn_id, "done", None)
                .await
                .unwrap();
            known = reads.messages;
        }
        // What is known is taken as it is, not read again: a known message
        // altered here comes back altered.
        let mut altered = known.clone();
        let last = altered.len() - 1;
        altered[last].content = sqlx::types::Json(text("tenu en mémoire"));
        let sent = send_knowing(&db, user, conversation, "et encore", window, &altered).await;
        let Sent::Opened { turn_id, reads, .. } = sent else {
            panic!("the turn opens: {sent:?}");
        };
        let kept = usize::from(window.messages) - 1;
        assert_eq!(reads.messages.len(), usize::from(window.messages));
        assert_eq!(reads.messages[..kept], altered[altered.len() - kept..]);
        assert_eq!(reads.messages[kept - 1].content.0, text("tenu en mémoire"));
        server::db::ai_turns::finish(&db, turn_id, "done", None)
            .await
            .unwrap();
    }
}
