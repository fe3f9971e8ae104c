//! A scripted server speaking Anthropic's Messages API on 127.0.0.1: it
//! checks the headers the real API requires, records every request, and
//! answers real-shaped messages (content blocks, stop reason, usage).
use super::serve_in_background;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The key the fake accepts.
pub const KEY: &str = "sk-ant-test-0123456789-secret";

type Compose = Arc<dyn Fn(&Value) -> String + Send + Sync>;

/// What the fake answers to one request, in script order. Once the script is
/// spent it answers 500, so an unexpected extra call shows.
#[derive(Clone)]
pub enum Reply {
    /// 200 with this assistant text.
    Text(String),
    /// 200 with a text computed from the request body.
    With(Compose),
    /// This status with an Anthropic error body of this type.
    Status(u16, &'static str),
    /// 429 with this `retry-after`.
    RateLimited(&'static str),
    /// 200 with this body as is.
    Raw(&'static str),
    Hang(Duration),
}

impl Reply {
    pub fn with(f: impl Fn(&Value) -> String + Send + Sync + 'static) -> Reply {
        Reply::With(Arc::new(f))
    }
}

/// One request as received.
#[derive(Clone, Debug)]
pub struct Seen {
    pub headers: HeaderMap,
    pub body: Value,
}

#[derive(Clone)]
pub struct FakeAnthropic {
    pub addr: SocketAddr,
    script: Arc<Mutex<VecDeque<Reply>>>,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl FakeAnthropic {
    pub async fn start(script: Vec<Reply>) -> FakeAnthropic {
        let mut fake = FakeAnthropic {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)), // set below; the handler never reads it
            script: Arc::new(Mutex::new(script.into())),
            seen: Arc::default(),
        };
        let app = Router::new()
            .route("/v1/messages", post(answer))
            .with_state(fake.clone());
        fake.addr = serve_in_background(app).await;
        fake
    }

    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The configuration a server would read to use this fake.
    pub fn config(&self, timeout_ms: &str) -> server::config::Config {
        let base = self.base_url();
        server::config::Config::from_source(&server::config::Env::from_pairs([
            ("MAXY_LLM_PROVIDER", "anthropic"),
            ("MAXY_ANTHROPIC_API_KEY", KEY),
            ("MAXY_ANTHROPIC_BASE_URL", base.as_str()),
            ("MAXY_LLM_TIMEOUT_MS", timeout_ms),
        ]))
        .expect("config")
    }

    /// The provider the configuration builds.
    pub fn provider(&self, timeout_ms: &str) -> Arc<dyn server::llm::LlmProvider> {
        server::llm::from_settings(&self.config(timeout_ms).llm).expect("client")
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().expect("lock").clone()
    }
}

async fn answer(
    State(fake): State<FakeAnthropic>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    fake.seen.lock().expect("lock").push(Seen {
        headers: headers.clone(),
        body: body.clone(),
    });
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    match header("x-api-key") {
        Some(KEY) => {}
        Some(other) => {
            // The real API does not echo keys; some gateways do, which the client must scrub.
            let message = format!("invalid x-api-key: {other}");
            return error(401, "authentication_error", &message);
        }
        None => return error(401, "authentication_error", "x-api-key header is required"),
    }
    if header("anthropic-version") != Some("2023-06-01") {
        return error(
            400,
            "invalid_request_error",
            "anthropic-version header is required",
        );
    }
    let reply = fake.script.lock().expect("lock").pop_front();
    let text = match reply {
        None => return error(500, "api_error", "the fake's script is spent"),
        Some(Reply::Text(text)) => text,
        Some(Reply::With(f)) => f(&body),
        Some(Reply::Status(code, kind)) => return error(code, kind, "scripted failure"),
        Some(Reply::RateLimited(after)) => {
            let mut r = error(429, "rate_limit_error", "slow down");
            r.headers_mut()
                .insert("retry-after", after.parse().expect("header value"));
            return r;
        }
        Some(Reply::Raw(raw)) => {
            return ([("content-type", "application/json")], raw).into_response()
        }
        Some(Reply::Hang(d)) => {
            tokio::time::sleep(d).await;
            "{}".into()
        }
    };
    let prompt_chars = body.to_string().chars().count() as u64;
    let model = body["model"].as_str().unwrap_or("unknown");
    Json(json!({
        "id": "msg_01FakeFakeFakeFake",
        "type": "message",
        "role": "assistant",
        "model": format!("{model}-20251001"),
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": null,
        "usage": {
            "input_tokens": prompt_chars / 4,
            "output_tokens": text.chars().count() as u64 / 4 + 1,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0
        }
    }))
    .into_response()
}

fn error(code: u16, kind: &str, message: &str) -> Response {
    let status = StatusCode::from_u16(code).expect("status");
    let body = json!({"type": "error", "error": {"type": kind, "message": message}});
    (status, Json(body)).into_response()
}

/// The user message of a recorded request.
pub fn prompt(body: &Value) -> String {
    body["messages"][0]["content"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The venue codes of the ranking prompt, in the order listed ("[1] #102 — …").
pub fn listed_codes(body: &Value) -> Vec<String> {
    server::search::llm_rank::prompt::listed_codes(&prompt(body))
        .into_iter()
        .map(str::to_string)
        .collect()
}
