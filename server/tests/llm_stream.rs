//! The Anthropic client's streamed chat calls against a local server that
//! speaks the real SSE wire: text and tool-call deltas (split inside UTF-8
//! characters and JSON strings), pings, transient failures retried before
//! the first delta and reported after it, HTTP 429/400, dropped
//! connections, cancellation, the request body (tools, blocks, merged
//! roles, cache breakpoints), and the recording wrapper's one row per
//! stream.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
#[path = "llm_stream/fake.rs"]
mod fake;
#[path = "llm_stream/sse.rs"]
mod sse;

use fake::{Chunk, FakeStream, Reply, KEY};
use futures_util::StreamExt;
use serde_json::json;
use server::config::AnthropicSettings;
use server::db::llm_calls::CallContext;
use server::llm::{
    AnthropicClient, Block, ChatAnswer, ChatEvent, ChatMessage, ChatRequest, ChatRole, LlmError,
    LlmProvider, Recording, StopReason, Task, ToolSpec,
};
use sqlx::PgPool;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn client(fake: &FakeStream) -> AnthropicClient {
    let settings = AnthropicSettings {
        base_url: fake.base_url(),
        api_key: KEY.into(),
    };
    AnthropicClient::new(&settings, "claude-sonnet-4-5", Duration::from_secs(5)).unwrap()
}

fn tools() -> Vec<ToolSpec> {
    vec![ToolSpec {
        name: "search_members".into(),
        description: "Cherche des lieux.".into(),
        input_schema: json!({"type": "object", "properties": {"ville": {"type": "string"}}}),
    }]
}

fn request(messages: Vec<ChatMessage>) -> ChatRequest {
    ChatRequest {
        task: Task::Chat,
        system: "Tu es Maxy.".into(),
        tools: tools(),
        messages,
        max_tokens: 1024,
        time_limit: None,
    }
}

fn hello() -> ChatRequest {
    request(vec![ChatMessage::user_text("Bonjour")])
}

/// Every item of the stream, errors included.
async fn drain(llm: &dyn LlmProvider, r: &ChatRequest) -> Vec<Result<ChatEvent, LlmError>> {
    llm.stream(r).await.unwrap().collect().await
}

fn events(items: Vec<Result<ChatEvent, LlmError>>) -> Vec<ChatEvent> {
    items
        .into_iter()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn finished(events: &[ChatEvent]) -> &ChatAnswer {
    match events.last() {
        Some(ChatEvent::Finished(answer)) => answer,
        other => panic!("the stream did not finish: {other:?}"),
    }
}

fn sse_reply(text: String) -> Reply {
    Reply::Sse(vec![Chunk::text(text)])
}

#[tokio::test]
async fn text_streams_as_deltas_then_the_whole_answer() {
    let answer = sse::text_answer(&["Bonjour, ", "je regarde ", "la demande 🎉"]);
    let fake = FakeStream::start(vec![sse_reply(answer)]).await;
    let events = events(drain(&client(&fake), &hello()).await);
    assert_eq!(
        events[..4],
        [
            ChatEvent::Started {
                model: sse::MODEL.into()
            },
            ChatEvent::TextDelta {
                text: "Bonjour, ".into()
            },
            ChatEvent::TextDelta {
                text: "je regarde ".into()
            },
            ChatEvent::TextDelta {
                text: "la demande 🎉".into()
            },
        ]
    );
    assert_eq!(events.len(), 5, "pings are not events: {events:?}");
    let answer = finished(&events);
    assert_eq!(
        answer.content,
        vec![Block::Text {
            text: "Bonjour, je regarde la demande 🎉".into()
        }]
    );
    assert_eq!(answer.stop_reason, StopReason::EndTurn);
    assert_eq!(answer.model, sse::MODEL);
    assert_eq!(
        (
            answer.usage.input_tokens,
            answer.usage.output_tokens,
            answer.usage.cache_write_tokens
        ),
        (1500, 12, 1200)
    );
    let seen = fake.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].headers["x-api-key"], KEY);
    assert_eq!(seen[0].body["stream"], json!(true));
    assert_eq!(seen[0].body["model"], json!("claude-sonnet-4-5"));
    assert_eq!(
        seen[0].body["tools"],
        json!([{"name": "search_members", "description": "Cherche des lieux.",
                "input_schema": {"type": "object", "properties": {"ville": {"type": "string"}}}}])
    );
    assert_eq!(
        seen[0].body["system"],
        json!([{"type": "text", "text": "Tu es Maxy."}])
    );
}

#[tokio::test]
async fn tool_input_split_inside_characters_and_strings_arrives_whole() {
    let fragments = [
        r#"{"ville": "Mon"#,
        r#"tréal", "note": "l'é"#,
        r#"quipe 🎉"}"#,
    ];
    let mut text = sse::message_start(900, 0, 2048) + &sse::text_start(0);
    text += &sse::text_delta(0, "Je cherche.");
    text += &sse::block_stop(0);
    text += &sse::tool_start(1, "toolu_01Split", "search_members");
    text += &sse::input_delta(1, "");
    for (i, fragment) in fragments.iter().enumerate() {
        text += &sse::input_delta(1, fragment);
        if i == 0 {
            text += &sse::ping();
        }
    }
    text += &sse::block_stop(1);
    text += &sse::message_end("tool_use", 40);
    // Cut the raw bytes inside "é" (2 bytes) and inside "🎉" (4 bytes).
    let bytes = text.into_bytes();
    let e_acute = find(&bytes, "tréal".as_bytes()) + 3;
    let party = find(&bytes, "🎉".as_bytes()) + 2;
    let chunks = vec![
        Chunk::Bytes(bytes[..e_acute].to_vec()),
        Chunk::Pause(Duration::from_millis(20)),
        Chunk::Bytes(bytes[e_acute..party].to_vec()),
        Chunk::Pause(Duration::from_millis(20)),
        Chunk::Bytes(bytes[party..].to_vec()),
    ];
    let fake = FakeStream::start(vec![Reply::Sse(chunks)]).await;
    let events = events(drain(&client(&fake), &hello()).await);

    assert!(events.contains(&ChatEvent::ToolUseStart {
        id: "toolu_01Split".into(),
        name: "search_members".into()
    }));
    let input: String = events
        .iter()
        .filter_map(|e| match e {
            ChatEvent::ToolInputDelta { id, partial_json } => {
                assert_eq!(id, "toolu_01Split");
                Some(partial_json.as_str())
            }
            _ => None,
        })
        .collect();
    assert_eq!(input, fragments.concat());
    let answer = finished(&events);
    assert_eq!(answer.stop_reason, StopReason::ToolUse);
    assert_eq!(answer.usage.cache_read_tokens, 2048);
    let calls: Vec<_> = answer.tool_calls().collect();
    assert_eq!(
        calls,
        [(
            "toolu_01Split",
            "search_members",
            &json!({"ville": "Montréal", "note": "l'équipe 🎉"})
        )]
    );
}

fn find(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("present")
}

#[tokio::test]
async fn overloaded_before_any_delta_is_retried_invisibly() {
    let overloaded = sse::message_start(10, 0, 0) + &sse::ping() + &sse::error("overloaded_error");
    let fake = FakeStream::start(vec![
        sse_reply(overloaded),
        sse_reply(sse::text_answer(&["ok"])),
    ])
    .await;
    let events = events(drain(&client(&fake), &hello()).await);
    assert_eq!(fake.seen().len(), 2);
    let starts = events
        .iter()
        .filter(|e| matches!(e, ChatEvent::Started { .. }))
        .count();
    assert_eq!(starts, 1, "the failed attempt left no trace: {events:?}");
    assert_eq!(
        finished(&events).content,
        vec![Block::Text { text: "ok".into() }]
    );
}

#[tokio::test]
async fn overloaded_after_a_delta_ends_the_stream_with_an_error() {
    let text = sse::message_start(10, 0, 0)
        + &sse::text_start(0)
        + &sse::text_delta(0, "Je commence")
        + &sse::error("overloaded_error");
    let fake = FakeStream::start(vec![sse_reply(text), sse_reply(sse::text_answer(&["x"]))]).await;
    let items = drain(&client(&fake), &hello()).await;
    assert_eq!(items.len(), 3, "{items:?}");
    assert!(matches!(&items[1], Ok(ChatEvent::TextDelta { text }) if text == "Je commence"));
    let Err(error) = &items[2] else {
        panic!("{items:?}")
    };
    assert!(matches!(error, LlmError::Unavailable(_)), "{error}");
    assert!(error.to_string().contains("overloaded_error"), "{error}");
    assert_eq!(fake.seen().len(), 1, "the caller decides, not the client");
}

#[tokio::test]
async fn a_429_is_retried_after_the_time_it_asks_for() {
    let fake = FakeStream::start(vec![
        Reply::RateLimited("1"),
        sse_reply(sse::text_answer(&["ok"])),
    ])
    .await;
    let started = Instant::now();
    let events = events(drain(&client(&fake), &hello()).await);
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "{:?}",
        started.elapsed()
    );
    assert!(
        finished(&events).latency >= Duration::from_millis(950),
        "latency counts from the first attempt"
    );
    assert_eq!(fake.seen().len(), 2);
}

#[tokio::test]
async fn a_400_is_final_and_the_key_never_shows() {
    let echo = format!("invalid request with key {KEY}");
    let fake = FakeStream::start(vec![
        Reply::Status(400, "invalid_request_error", echo),
        sse_reply(sse::text_answer(&["never"])),
    ])
    .await;
    let error = match client(&fake).stream(&hello()).await {
        Err(e) => e,
        Ok(_) => panic!("a 400 opened a stream"),
    };
    assert!(matches!(error, LlmError::Rejected(_)), "{error}");
    let message = error.to_string();
    assert!(message.contains("HTTP 400"), "{message}");
    assert!(message.contains("invalid_request_error"), "{message}");
    assert!(!message.contains(KEY), "{message}");
    assert_eq!(fake.seen().len(), 1);
}

#[tokio::test]
async fn a_whole_json_answer_instead_of_a_stream_is_unusable_and_not_retried() {
    let message = json!({"type": "message", "content": [{"type": "text", "text": "hi"}]});
    let fake = FakeStream::start(vec![
        Reply::Json(message),
        sse_reply(sse::text_answer(&["x"])),
    ])
    .await;
    let error = match client(&fake).stream(&hello()).await {
        Err(e) => e,
        Ok(_) => panic!("a JSON body opened a stream"),
    };
    assert!(matches!(error, LlmError::InvalidResponse(_)), "{error}");
    assert!(error.to_string().contains("application/json"), "{error}");
    assert_eq!(fake.seen().len(), 1);
}

#[tokio::test]
async fn a_dropped_connection_is_retried_before_the_first_delta_not_after() {
    let cut = |text: String| {
        // The pause lets the data leave before the connection is cut.
        Reply::Sse(vec![
            Chunk::text(text),
            Chunk::Pause(Duration::from_millis(100)),
            Chunk::Drop,
        ])
    };
    let fake = FakeStream::start(vec![
        cut(sse::message_start(10, 0, 0) + &sse::ping()),
        sse_reply(sse::text_answer(&["ok"])),
    ])
    .await;
    let events = events(drain(&client(&fake), &hello()).await);
    assert_eq!(
        finished(&events).content,
        vec![Block::Text { text: "ok".into() }]
    );
    assert_eq!(fake.seen().len(), 2);

    let fake = FakeStream::start(vec![cut(sse::message_start(10, 0, 0)
        + &sse::text_start(0)
        + &sse::text_delta(0, "Je"))])
    .await;
    let items = drain(&client(&fake), &hello()).await;
    assert!(
        matches!(items.last(), Some(Err(LlmError::Unavailable(_)))),
        "{items:?}"
    );
    assert_eq!(items.len(), 3, "{items:?}");
    assert_eq!(fake.seen().len(), 1);
}

#[tokio::test]
async fn the_time_limit_bounds_the_wait_for_the_first_delta() {
    let slow = Reply::Sse(vec![
        Chunk::text(sse::message_start(10, 0, 0)),
        Chunk::Pause(Duration::from_secs(3)),
        Chunk::text(sse::text_start(0) + &sse::text_delta(0, "tard")),
    ]);
    let fake = FakeStream::start(vec![slow]).await;
    let mut r = hello();
    r.time_limit = Some(Duration::from_millis(300));
    let started = Instant::now();
    let error = match client(&fake).stream(&r).await {
        Err(e) => e,
        Ok(_) => panic!("opened past the limit"),
    };
    assert!(matches!(error, LlmError::Unavailable(_)), "{error}");
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[tokio::test]
async fn dropping_the_stream_closes_the_connection() {
    let fake = FakeStream::start(vec![Reply::Sse(vec![
        Chunk::text(sse::message_start(10, 0, 0) + &sse::text_start(0) + &sse::text_delta(0, "Je")),
        Chunk::PingUntilClosed,
    ])])
    .await;
    let llm = client(&fake);
    let mut stream = llm.stream(&hello()).await.unwrap();
    assert!(matches!(
        stream.next().await,
        Some(Ok(ChatEvent::Started { .. }))
    ));
    assert!(matches!(
        stream.next().await,
        Some(Ok(ChatEvent::TextDelta { .. }))
    ));
    assert!(!fake.closed_early());
    drop(stream);
    let deadline = Instant::now() + Duration::from_secs(5);
    while !fake.closed_early() {
        assert!(
            Instant::now() < deadline,
            "the server never saw the disconnect"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn tool_call(id: &str) -> ChatMessage {
    ChatMessage {
        role: ChatRole::Assistant,
        content: vec![Block::ToolUse {
            id: id.into(),
            name: "search_members".into(),
            input: json!({"ville": "Lyon"}),
        }],
    }
}

fn tool_result(id: &str, content: &str) -> ChatMessage {
    ChatMessage {
        role: ChatRole::User,
        content: vec![Block::ToolResult {
            tool_use_id: id.into(),
            content: content.into(),
            is_error: false,
        }],
    }
}

/// The (message, block) positions of `cache_control` markers in a body.
fn markers(body: &serde_json::Value) -> Vec<(usize, usize)> {
    let mut out = vec![];
    for (m, message) in body["messages"].as_array().unwrap().iter().enumerate() {
        for (b, block) in message["content"].as_array().unwrap().iter().enumerate() {
            if let Some(marker) = block.get("cache_control") {
                assert_eq!(marker, &json!({"type": "ephemeral"}));
                out.push((m, b));
            }
        }
    }
    out
}

#[tokio::test]
async fn the_body_carries_blocks_merged_roles_and_cache_breakpoints() {
    let fake = FakeStream::start(vec![
        sse_reply(sse::text_answer(&["a"])),
        sse_reply(sse::text_answer(&["b"])),
    ])
    .await;
    let llm = client(&fake);
    // A long history ending on tool results: all three breakpoints.
    let mut long = request(vec![
        ChatMessage::user_text("Trouve des lieux à Lyon"),
        ChatMessage::user_text("pour 80 personnes"),
        ChatMessage::assistant_text("Je cherche."),
        tool_call("toolu_1"),
        tool_result("toolu_1", &"lieu ".repeat(400)),
        tool_call("toolu_2"),
        tool_result("toolu_2", "{\"count\": 12}"),
    ]);
    long.system = "Règles. ".repeat(600);
    events(drain(&llm, &long).await);
    // A short conversation: nothing worth caching.
    events(drain(&llm, &hello()).await);

    let seen = fake.seen();
    let body = &seen[0].body;
    assert_eq!(
        body["system"][0]["cache_control"],
        json!({"type": "ephemeral"})
    );
    let roles: Vec<_> = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(
        roles,
        ["user", "assistant", "user", "assistant", "user"],
        "same-role messages merged"
    );
    assert_eq!(
        body["messages"][0]["content"],
        json!([{"type": "text", "text": "Trouve des lieux à Lyon"},
               {"type": "text", "text": "pour 80 personnes"}])
    );
    assert_eq!(
        body["messages"][1]["content"][1],
        json!({"type": "tool_use", "id": "toolu_1", "name": "search_members", "input": {"ville": "Lyon"}})
    );
    assert_eq!(body["messages"][2]["role"], "user");
    assert_eq!(body["messages"][2]["content"][0]["type"], "tool_result");
    assert_eq!(body["messages"][2]["content"][0]["tool_use_id"], "toolu_1");
    assert_eq!(
        body["messages"][4]["content"][0],
        json!({"type": "tool_result", "tool_use_id": "toolu_2", "content": "{\"count\": 12}",
               "is_error": false, "cache_control": {"type": "ephemeral"}})
    );
    assert_eq!(
        markers(body),
        [(3, 0), (4, 0)],
        "history before the newest message, and the newest tool results"
    );

    let short = &seen[1].body;
    assert!(short["system"][0].get("cache_control").is_none());
    assert!(markers(short).is_empty());
}

#[tokio::test]
async fn a_long_history_marks_the_message_before_the_newest() {
    let fake = FakeStream::start(vec![sse_reply(sse::text_answer(&["a"]))]).await;
    let mut r = request(vec![
        ChatMessage::user_text("Première question"),
        ChatMessage::assistant_text("réponse ".repeat(700)),
        ChatMessage::user_text("Et à Lyon ?"),
    ]);
    r.system = "court".into();
    events(drain(&client(&fake), &r).await);
    let body = &fake.seen()[0].body;
    assert!(
        body["system"][0].get("cache_control").is_none(),
        "tools + system are short"
    );
    assert_eq!(markers(body), [(1, 0)]);
}

async fn rows(db: &PgPool) -> Vec<(String, String, Option<String>, i32, i32, i32, f64)> {
    sqlx::query_as(
        "SELECT task, status, error, input_tokens, cache_write_tokens, cache_read_tokens,
                cost_usd::float8 FROM llm_calls ORDER BY id",
    )
    .fetch_all(db)
    .await
    .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn recording_writes_one_row_per_stream(db: PgPool) {
    let fake = FakeStream::start(vec![
        sse_reply(sse::text_answer(&["Voici."])),
        sse_reply(
            sse::message_start(10, 0, 0)
                + &sse::text_start(0)
                + &sse::text_delta(0, "Je")
                + &sse::error("overloaded_error"),
        ),
        Reply::Status(400, "invalid_request_error", "bad".into()),
        Reply::Sse(vec![
            Chunk::text(
                sse::message_start(10, 0, 0) + &sse::text_start(0) + &sse::text_delta(0, "Je"),
            ),
            Chunk::PingUntilClosed,
        ]),
    ])
    .await;
    let recording = Recording::new(Arc::new(client(&fake)), db.clone(), CallContext::default());

    // Answered: tokens, cache tokens and cost.
    let items = drain(&recording, &hello()).await;
    assert!(matches!(items.last(), Some(Ok(ChatEvent::Finished(_)))));
    let calls = recording.calls();
    assert_eq!(
        calls.len(),
        1,
        "recorded before Finished reached the caller"
    );
    assert_eq!(calls[0].record.usage.cache_write_tokens, 1200);
    assert!(calls[0].id.is_some());
    // Failed after a delta, and refused before the stream opened.
    let items = drain(&recording, &hello()).await;
    assert!(matches!(items.last(), Some(Err(_))));
    assert!(recording.stream(&hello()).await.is_err());
    // Cancelled after the first delta.
    let mut stream = recording.stream(&hello()).await.unwrap();
    assert!(matches!(
        stream.next().await,
        Some(Ok(ChatEvent::Started { .. }))
    ));
    drop(stream);
    let deadline = Instant::now() + Duration::from_secs(5);
    while recording.calls().len() < 4 {
        assert!(
            Instant::now() < deadline,
            "the cancelled stream was not recorded"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    let rows = rows(&db).await;
    assert_eq!(rows.len(), 4, "{rows:?}");
    let (task, status, error, input, write, read, cost) = &rows[0];
    assert_eq!(
        (task.as_str(), status.as_str(), error),
        ("chat", "ok", &None)
    );
    assert_eq!((*input, *write, *read), (1500, 1200, 0));
    let expected = (1500.0 * 3.0 + 1200.0 * 3.0 * 1.25 + 12.0 * 15.0) / 1e6;
    assert!((cost - expected).abs() < 1e-9, "{cost} vs {expected}");
    assert_eq!(rows[1].1, "error");
    assert!(rows[1].2.as_deref().unwrap().contains("overloaded_error"));
    assert_eq!(rows[2].1, "error");
    assert!(rows[2].2.as_deref().unwrap().contains("HTTP 400"));
    assert_eq!(
        (rows[3].1.as_str(), rows[3].2.as_deref()),
        ("error", Some("cancelled"))
    );
    assert_eq!(recording.calls().len(), 4, "calls() includes every stream");
}
