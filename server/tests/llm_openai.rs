//! The OpenAI-compatible client against a local server speaking the real
//! wire (`POST /v1/chat/completions`, whole or as server-sent events): text
//! deltas, tool calls whose arguments arrive cut inside JSON strings and
//! inside UTF-8 characters, the usage chunk and `[DONE]`; retries on 429
//! (with `retry-after`) and 5xx, no retry on other 4xx; a connection that
//! drops mid-answer; a dropped stream closing its connection; the request
//! body (system first, tools, tool calls and results) and a key that never
//! shows.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
#[path = "llm_openai/fake.rs"]
mod fake;
mod support;

use fake::{transcript, Fake, Reply, KEY};
use futures_util::StreamExt;
use serde_json::json;
use server::llm::{
    Block, ChatEvent, ChatMessage, ChatRequest, ChatRole, CompletionRequest, LlmError, LlmProvider,
    Message, StopReason, Task, ToolSpec, Usage,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn chat_request() -> ChatRequest {
    ChatRequest {
        task: Task::Chat,
        system: "Tu es Maxy.\nDEMANDE EN COURS : id=7 référence=R-7".into(),
        tools: vec![ToolSpec {
            name: "search_members".into(),
            description: "Cherche des lieux.".into(),
            input_schema: json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
        }]
        .into(),
        messages: vec![
            ChatMessage::user_text("Combien de lieux à Lyon ?"),
            ChatMessage {
                role: ChatRole::Assistant,
                content: vec![
                    Block::Text {
                        text: "Je compte.".into(),
                    },
                    Block::ToolUse {
                        id: "call_0".into(),
                        name: "count_members".into(),
                        input: json!({"pool": "lyon"}),
                    },
                ],
            },
            ChatMessage {
                role: ChatRole::User,
                content: vec![Block::ToolResult {
                    tool_use_id: "call_0".into(),
                    content: "{\"count\": 12}".into(),
                    is_error: false,
                }],
            },
            ChatMessage::assistant_text("12 lieux."),
            ChatMessage::user_text("Un rooftop festif à Montréal pour 80 ?"),
        ],
        max_tokens: 1024,
        time_limit: Some(Duration::from_secs(10)),
    }
}

async fn collect(llm: &dyn LlmProvider) -> Result<Vec<Result<ChatEvent, LlmError>>, LlmError> {
    let stream = llm.stream(&chat_request()).await?;
    Ok(stream.collect().await)
}

#[tokio::test]
async fn a_streamed_answer_gives_deltas_tool_calls_usage_and_the_whole_answer() {
    let fake = Fake::start(vec![Reply::Stream(transcript())]).await;
    let llm = fake.provider();
    let events: Vec<ChatEvent> = collect(llm.as_ref())
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.unwrap())
        .collect();

    let input = |json: &str| ChatEvent::ToolInputDelta {
        id: "call_Xy1".into(),
        partial_json: json.into(),
    };
    let (finished, deltas) = events.split_last().unwrap();
    assert_eq!(
        deltas,
        [
            ChatEvent::Started {
                model: "qwen3-32b-q4".into(),
                usage: Usage::default(),
            },
            ChatEvent::TextDelta {
                text: "Je regarde les lieux ".into()
            },
            ChatEvent::TextDelta {
                text: "à Montréal…".into()
            },
            ChatEvent::ToolUseStart {
                id: "call_Xy1".into(),
                name: "search_members".into()
            },
            input("{\"text\": \"rooftop f"),
            input("estif à Montré"),
            input("al\", \"participants\": 80}"),
        ]
    );
    let ChatEvent::Finished(answer) = finished else {
        panic!("Finished last, got {finished:?}")
    };
    assert_eq!(answer.model, "qwen3-32b-q4");
    assert_eq!(
        answer.content,
        vec![
            Block::Text {
                text: "Je regarde les lieux à Montréal…".into()
            },
            Block::ToolUse {
                id: "call_Xy1".into(),
                name: "search_members".into(),
                input: json!({"text": "rooftop festif à Montréal", "participants": 80}),
            },
        ]
    );
    assert_eq!(
        answer.usage,
        Usage {
            input_tokens: 52,
            output_tokens: 57,
            cache_write_tokens: 0,
            cache_read_tokens: 2048,
        }
    );
    assert_eq!(answer.stop_reason, StopReason::ToolUse);
    assert!(
        answer.latency >= Duration::from_millis(100),
        "{:?}",
        answer.latency
    );

    // The request, as it went on the wire.
    let seen = fake.seen();
    assert_eq!(seen.len(), 1);
    let headers = &seen[0].headers;
    assert_eq!(headers["authorization"], format!("Bearer {KEY}").as_str());
    assert_eq!(headers["content-type"], "application/json");
    let body = &seen[0].body;
    assert_eq!(body["model"], "qwen3-32b");
    assert_eq!(body["stream"], true);
    assert_eq!(body["stream_options"], json!({"include_usage": true}));
    assert_eq!(body["max_tokens"], 1024);
    assert_eq!(
        body["tools"],
        json!([{"type": "function", "function": {
            "name": "search_members",
            "description": "Cherche des lieux.",
            "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
        }}])
    );
    assert_eq!(
        body["messages"],
        json!([
            {"role": "system", "content": "Tu es Maxy.\nDEMANDE EN COURS : id=7 référence=R-7"},
            {"role": "user", "content": "Combien de lieux à Lyon ?"},
            {"role": "assistant", "content": "Je compte.", "tool_calls": [{
                "id": "call_0", "type": "function",
                "function": {"name": "count_members", "arguments": "{\"pool\":\"lyon\"}"}
            }]},
            {"role": "tool", "tool_call_id": "call_0", "content": "{\"count\": 12}"},
            {"role": "assistant", "content": "12 lieux."},
            {"role": "user", "content": "Un rooftop festif à Montréal pour 80 ?"}
        ])
    );
}

#[tokio::test]
async fn a_429_is_retried_after_the_time_it_asks_for_then_the_stream_flows() {
    let fake = Fake::start(vec![
        Reply::Status(429, "slow down".into(), Some("1")),
        Reply::Stream(transcript()),
    ])
    .await;
    let started = Instant::now();
    let events = collect(fake.provider().as_ref()).await.unwrap();
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "retry-after: 1 was honoured ({:?})",
        started.elapsed()
    );
    assert_eq!(fake.seen().len(), 2);
    let Some(Ok(ChatEvent::Finished(answer))) = events.last() else {
        panic!("{events:?}")
    };
    assert_eq!(answer.stop_reason, StopReason::ToolUse);
    assert!(
        answer.latency >= Duration::from_millis(950),
        "latency counts the wait"
    );
}

#[tokio::test]
async fn server_errors_are_retried_then_given_up() {
    let fake = Fake::start(vec![
        Reply::Status(503, "loading model".into(), None),
        Reply::Status(502, "bad gateway".into(), None),
        Reply::Status(500, "oops".into(), None),
        Reply::Stream(transcript()),
    ])
    .await;
    let Err(err) = collect(fake.provider().as_ref()).await else {
        panic!("an error")
    };
    assert!(matches!(err, LlmError::Unavailable(_)), "{err}");
    let message = err.to_string();
    assert!(
        message.contains("HTTP 500") && message.contains("after 3 attempts"),
        "{message}"
    );
    assert_eq!(fake.seen().len(), 3);
}

#[tokio::test]
async fn a_400_is_final_and_an_echoed_key_is_scrubbed() {
    let fake = Fake::start(vec![Reply::Status(
        400,
        "unknown model qwen3-32b for {auth}".into(),
        None,
    )])
    .await;
    let Err(err) = collect(fake.provider().as_ref()).await else {
        panic!("an error")
    };
    assert!(matches!(err, LlmError::Rejected(_)), "{err}");
    let message = err.to_string();
    assert!(
        message.contains("HTTP 400") && message.contains("unknown model qwen3-32b"),
        "{message}"
    );
    assert!(
        !message.contains(KEY) && message.contains("Bearer ***"),
        "{message}"
    );
    assert!(
        message.contains("/v1/chat/completions (qwen3-32b)"),
        "{message}"
    );
    assert_eq!(fake.seen().len(), 1, "a refused request is not repeated");
}

#[tokio::test]
async fn a_connection_dropped_mid_answer_is_an_error_after_the_deltas() {
    let pieces: Vec<Vec<u8>> = transcript().into_iter().take(7).collect();
    let fake = Fake::start(vec![Reply::Cut(pieces)]).await;
    let events = collect(fake.provider().as_ref()).await.unwrap();
    let (last, before) = events.split_last().unwrap();
    assert!(
        matches!(last, Err(LlmError::Unavailable(m)) if m.contains("(qwen3-32b)")),
        "{last:?}"
    );
    assert!(before.iter().all(Result::is_ok), "{before:?}");
    assert!(
        before
            .iter()
            .any(|e| matches!(e, Ok(ChatEvent::TextDelta { .. }))),
        "the text that came was delivered"
    );
    assert!(!before
        .iter()
        .any(|e| matches!(e, Ok(ChatEvent::Finished(_)))));
    assert_eq!(fake.seen().len(), 1, "a stream that started is not retried");
}

#[tokio::test]
async fn dropping_the_stream_closes_the_connection() {
    let closed = Arc::new(AtomicBool::new(false));
    let fake = Fake::start(vec![Reply::Endless(closed.clone())]).await;
    let llm = fake.provider();
    let mut stream = llm.stream(&chat_request()).await.unwrap();
    assert!(matches!(
        stream.next().await,
        Some(Ok(ChatEvent::Started { .. }))
    ));
    assert!(matches!(
        stream.next().await,
        Some(Ok(ChatEvent::TextDelta { .. }))
    ));
    assert!(!closed.load(Ordering::SeqCst));
    drop(stream);
    let deadline = Instant::now() + Duration::from_secs(3);
    while !closed.load(Ordering::SeqCst) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        closed.load(Ordering::SeqCst),
        "the server saw the connection close"
    );
}

#[tokio::test]
async fn a_whole_completion_reads_text_usage_and_needs_no_key() {
    let fake = Fake::start(vec![Reply::Whole(json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "qwen3-32b-q4",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "{\"recommended\": []}"},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 300, "completion_tokens": 9, "total_tokens": 309,
                  "prompt_tokens_details": {"cached_tokens": 100}}
    }))])
    .await;
    // A local server: no key configured, no Authorization header sent.
    let llm = server::llm::from_settings(&fake.settings(None)).unwrap();
    assert_eq!(llm.name(), "openai_compat");
    let request = CompletionRequest {
        task: Task::Rank,
        system: "Tu classes des lieux.".into(),
        messages: vec![Message::user("Voici la demande…")],
        max_tokens: 512,
        temperature: Some(0.0),
        time_limit: None,
    };
    let c = llm.complete(&request).await.unwrap();
    assert_eq!(c.text, "{\"recommended\": []}");
    assert_eq!(c.model, "qwen3-32b-q4");
    assert_eq!(c.stop_reason, StopReason::EndTurn);
    assert_eq!(
        c.usage,
        Usage {
            input_tokens: 200,
            output_tokens: 9,
            cache_write_tokens: 0,
            cache_read_tokens: 100,
        }
    );
    let seen = fake.seen();
    assert!(seen[0].headers.get("authorization").is_none());
    assert_eq!(
        seen[0].body,
        json!({
            "model": "qwen3-32b",
            "max_tokens": 512,
            "temperature": 0.0,
            "messages": [
                {"role": "system", "content": "Tu classes des lieux."},
                {"role": "user", "content": "Voici la demande…"}
            ]
        })
    );
}

#[tokio::test]
async fn the_callers_time_limit_bounds_the_retries() {
    let fake = Fake::start(vec![
        Reply::Status(429, "slow down".into(), Some("5")),
        Reply::Stream(transcript()),
    ])
    .await;
    let mut request = chat_request();
    request.time_limit = Some(Duration::from_millis(300));
    let started = Instant::now();
    let Err(err) = fake.provider().stream(&request).await else {
        panic!("an error")
    };
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(
        matches!(&err, LlmError::Unavailable(m) if m.contains("limit of 300 ms")),
        "{err}"
    );
}

#[tokio::test]
async fn an_unreachable_server_is_retried_then_unavailable() {
    // A port that was just free: nothing listens there.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let settings = server::config::LlmSettings::from_source(&server::config::Env::from_pairs([
        ("MAXY_LLM_PROVIDER", "openai"),
        ("MAXY_OPENAI_BASE_URL", format!("http://{addr}/v1").as_str()),
        ("MAXY_OPENAI_API_KEY", KEY),
    ]))
    .unwrap();
    let llm = server::llm::from_settings(&settings).unwrap();
    assert_eq!(llm.model(), "local-model");
    let Err(err) = llm.stream(&chat_request()).await else {
        panic!("an error")
    };
    let message = err.to_string();
    assert!(matches!(err, LlmError::Unavailable(_)), "{message}");
    assert!(
        message.contains("is unreachable") && message.contains("after 3 attempts"),
        "{message}"
    );
    assert!(!message.contains(KEY), "{message}");
}
