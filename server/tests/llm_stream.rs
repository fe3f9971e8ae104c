//! The Anthropic client's streamed chat calls against a local server that
//! speaks the real SSE wire: text and tool-call deltas (split inside UTF-8
//! characters and JSON strings), pings, transient failures retried before
//! the first delta and reported after it, HTTP 429/400, dropped
//! connections, cancellation, the request body (tools, blocks, merged
//! roles, cache breakpoints), and the recording wrapper's one row per
//! stream.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
#[path = "llm_stream/body.rs"]
mod body;
#[path = "llm_stream/fake.rs"]
mod fake;
#[path = "llm_stream/recording.rs"]
mod recording;
#[path = "llm_stream/sse.rs"]
mod sse;

use fake::{Chunk, FakeStream, Reply, KEY};
use futures_util::StreamExt;
use serde_json::json;
use server::config::AnthropicSettings;
use server::llm::{
    AnthropicClient, Block, ChatAnswer, ChatEvent, ChatMessage, ChatRequest, LlmError, LlmProvider,
    StopReason, Task, ToolSpec, Usage,
};
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
        tools: tools().into(),
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
                model: sse::MODEL.into(),
                usage: Usage {
                    input_tokens: 1500,
                    output_tokens: 1,
                    cache_write_tokens: 1200,
                    cache_read_tokens: 0,
                },
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
async fn overloaded_529_and_500_are_retried() {
    let fake = FakeStream::start(vec![
        Reply::Status(529, "overloaded_error", "Overloaded".into()),
        Reply::Status(500, "api_error", "oops".into()),
        sse_reply(sse::text_answer(&["ok"])),
    ])
    .await;
    let events = events(drain(&client(&fake), &hello()).await);
    assert_eq!(
        finished(&events).content,
        vec![Block::Text { text: "ok".into() }]
    );
    assert_eq!(fake.seen().len(), 3);
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
