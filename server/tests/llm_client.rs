//! The Anthropic Messages client against a scripted fake at the network
//! edge: headers and body on the wire, usage and cost, retries on 429 (with
//! `retry-after`), 5xx and 529, no retry on other 4xx, malformed bodies,
//! timeouts, and an API key that never shows.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use server::config::AnthropicSettings;
use server::llm::{
    pricing, AnthropicClient, CompletionRequest, LlmError, LlmProvider, Message, StopReason, Task,
};
use std::time::{Duration, Instant};
use support::anthropic::{FakeAnthropic, Reply, KEY};

fn request() -> CompletionRequest {
    CompletionRequest {
        task: Task::Rank,
        system: "Tu classes des lieux.".into(),
        messages: vec![Message::user("Voici une demande d'événement…")],
        max_tokens: 512,
        temperature: Some(0.0),
        time_limit: None,
    }
}

#[tokio::test]
async fn a_completion_carries_text_model_usage_and_stop_reason() {
    let fake = FakeAnthropic::start(vec![Reply::Text("{\"recommended\": []}".into())]).await;
    let llm = fake.provider("2000");
    let c = llm.complete(&request()).await.unwrap();

    assert_eq!(c.text, "{\"recommended\": []}");
    assert_eq!(c.model, "claude-haiku-4-5-20251001");
    assert_eq!(c.stop_reason, StopReason::EndTurn);
    assert!(
        c.usage.input_tokens > 10 && c.usage.output_tokens > 0,
        "{:?}",
        c.usage
    );
    assert!(c.latency > Duration::ZERO);
    let cost = pricing::estimate_usd(&c.model, &c.usage).unwrap();
    let expected = f64::from(c.usage.input_tokens) * 1e-6 + f64::from(c.usage.output_tokens) * 5e-6;
    assert!((cost - expected).abs() < 1e-12, "{cost} vs {expected}");

    let seen = fake.seen();
    assert_eq!(seen.len(), 1);
    let h = &seen[0].headers;
    assert_eq!(h["x-api-key"], KEY);
    assert_eq!(h["anthropic-version"], "2023-06-01");
    assert_eq!(h["content-type"], "application/json");
    assert_eq!(
        seen[0].body,
        serde_json::json!({
            "model": "claude-haiku-4-5",
            "max_tokens": 512,
            "system": "Tu classes des lieux.",
            "messages": [{"role": "user", "content": "Voici une demande d'événement…"}],
            "temperature": 0.0
        })
    );
}

#[tokio::test]
async fn a_429_is_retried_after_the_time_it_asks_for() {
    let fake = FakeAnthropic::start(vec![Reply::RateLimited("1"), Reply::Text("ok".into())]).await;
    let started = Instant::now();
    let c = fake.provider("2000").complete(&request()).await.unwrap();
    assert_eq!(c.text, "ok");
    assert_eq!(fake.seen().len(), 2);
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "retry-after: 1 was honoured ({:?})",
        started.elapsed()
    );
    assert!(
        c.latency >= Duration::from_millis(950),
        "latency counts the wait"
    );
}

#[tokio::test]
async fn a_retry_after_longer_than_we_wait_fails_at_once() {
    let fake = FakeAnthropic::start(vec![Reply::RateLimited("120")]).await;
    let err = fake
        .provider("2000")
        .complete(&request())
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::Unavailable(_)), "{err}");
    assert!(err.to_string().contains("retry after 120 s"), "{err}");
    assert_eq!(fake.seen().len(), 1);
}

#[tokio::test]
async fn overloaded_529_is_retried() {
    let fake = FakeAnthropic::start(vec![
        Reply::Status(529, "overloaded_error"),
        Reply::Text("ok".into()),
    ])
    .await;
    let c = fake.provider("2000").complete(&request()).await.unwrap();
    assert_eq!(c.text, "ok");
    assert_eq!(fake.seen().len(), 2);
}

#[tokio::test]
async fn a_400_is_not_retried_and_says_why() {
    let fake = FakeAnthropic::start(vec![Reply::Status(400, "invalid_request_error")]).await;
    let err = fake
        .provider("2000")
        .complete(&request())
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::Rejected(_)), "{err}");
    let message = err.to_string();
    assert!(
        message.contains("HTTP 400") && message.contains("invalid_request_error: scripted failure"),
        "{message}"
    );
    assert_eq!(fake.seen().len(), 1, "a refused request is not repeated");
}

#[tokio::test]
async fn server_errors_are_retried_then_given_up() {
    let fake = FakeAnthropic::start(vec![
        Reply::Status(500, "api_error"),
        Reply::Status(500, "api_error"),
        Reply::Status(500, "api_error"),
        Reply::Text("too late".into()),
    ])
    .await;
    let err = fake
        .provider("2000")
        .complete(&request())
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::Unavailable(_)), "{err}");
    let message = err.to_string();
    assert!(
        message.contains("HTTP 500") && message.contains("after 3 attempts"),
        "{message}"
    );
    assert_eq!(fake.seen().len(), 3);
}

#[tokio::test]
async fn a_malformed_body_is_an_invalid_response() {
    for raw in [
        r#"{"type":"message","content":[{"type":"text","text":"x"}]"#,
        r#"{"type":"message","model":"m","content":"x","usage":{}}"#,
        r#"{"type":"error","error":{"type":"overloaded_error","message":"x"}}"#,
    ] {
        let fake = FakeAnthropic::start(vec![Reply::Raw(raw)]).await;
        let err = fake
            .provider("2000")
            .complete(&request())
            .await
            .unwrap_err();
        assert!(matches!(err, LlmError::InvalidResponse(_)), "{raw}: {err}");
        assert_eq!(fake.seen().len(), 1, "{raw}");
    }
}

#[tokio::test]
async fn a_server_that_hangs_times_out() {
    let fake = FakeAnthropic::start(vec![
        Reply::Hang(Duration::from_secs(5)),
        Reply::Hang(Duration::from_secs(5)),
        Reply::Hang(Duration::from_secs(5)),
    ])
    .await;
    let started = Instant::now();
    let err = fake.provider("200").complete(&request()).await.unwrap_err();
    assert!(matches!(err, LlmError::Unavailable(_)), "{err}");
    assert!(
        err.to_string().contains("did not answer within 200 ms"),
        "{err}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn the_time_limit_of_a_request_bounds_the_retries() {
    let fake = FakeAnthropic::start(vec![Reply::Hang(Duration::from_secs(5)); 3]).await;
    let started = Instant::now();
    let limited = CompletionRequest {
        time_limit: Some(Duration::from_millis(300)),
        ..request()
    };
    let err = fake.provider("4000").complete(&limited).await.unwrap_err();
    assert!(matches!(err, LlmError::Unavailable(_)), "{err}");
    assert!(err.to_string().contains("limit of 300 ms"), "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(fake.seen().len(), 1, "no retry past the limit");
}

#[tokio::test]
async fn the_api_key_never_shows() {
    let fake = FakeAnthropic::start(vec![]).await;
    let settings = AnthropicSettings {
        base_url: fake.base_url(),
        api_key: "sk-ant-wrong-key-987654".into(),
    };
    let client =
        AnthropicClient::new(&settings, "claude-haiku-4-5", Duration::from_secs(2)).unwrap();
    let shown = format!("{client:?} {settings:?} {:?}", fake.config("2000"));
    assert!(
        !shown.contains("sk-ant-wrong-key-987654") && !shown.contains(KEY),
        "{shown}"
    );

    // The fake echoes a refused key, as some gateways do: the error must not.
    let err = client.complete(&request()).await.unwrap_err();
    assert!(matches!(err, LlmError::Rejected(_)), "{err}");
    let message = err.to_string();
    assert!(message.contains("HTTP 401"), "{message}");
    assert!(!message.contains("sk-ant-wrong-key-987654"), "{message}");
    assert_eq!(client.name(), "anthropic");
}
