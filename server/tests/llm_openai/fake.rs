//! A local server speaking OpenAI's chat completions on 127.0.0.1: it
//! records every request and answers from a script — whole completions,
//! server-sent events written piece by piece, broken connections, endless
//! streams that notice when the client goes away, and error statuses.
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use futures_util::stream::{self, StreamExt};
use serde_json::{json, Value};
use server::config::{Env, LlmSettings};
use server::llm::LlmProvider;
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub const KEY: &str = "sk-or-test-0123456789-secret";

/// What the fake answers to one request, in script order; once the script
/// is spent it answers 500, so an unexpected extra call shows.
pub enum Reply {
    /// 200, these bytes as server-sent events, one write each, 15 ms apart.
    Stream(Vec<Vec<u8>>),
    /// Like `Stream`, then the connection breaks.
    Cut(Vec<Vec<u8>>),
    /// Text deltas every 20 ms, for ever; `closed` is set when the body
    /// is dropped (the client went away).
    Endless(Arc<AtomicBool>),
    /// 200 with this whole completion.
    Whole(Value),
    /// This status, an OpenAI error body with this message, and maybe a
    /// `retry-after`.
    Status(u16, String, Option<&'static str>),
}

#[derive(Clone, Debug)]
pub struct Seen {
    pub headers: HeaderMap,
    pub body: Value,
}

#[derive(Clone)]
pub struct Fake {
    pub addr: SocketAddr,
    script: Arc<Mutex<VecDeque<Reply>>>,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Fake {
    pub async fn start(script: Vec<Reply>) -> Fake {
        let mut fake = Fake {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            script: Arc::new(Mutex::new(script.into())),
            seen: Arc::default(),
        };
        let app = Router::new()
            .route("/v1/chat/completions", post(answer))
            .with_state(fake.clone());
        fake.addr = crate::support::serve_in_background(app).await;
        fake
    }

    pub fn settings(&self, key: Option<&str>) -> LlmSettings {
        let base = format!("http://{}/v1/", self.addr);
        let mut pairs = vec![
            ("MAXY_LLM_PROVIDER", "openai"),
            ("MAXY_OPENAI_BASE_URL", base.as_str()),
            ("MAXY_LLM_MODEL", "qwen3-32b"),
            ("MAXY_LLM_TIMEOUT_MS", "3000"),
        ];
        if let Some(key) = key {
            pairs.push(("MAXY_OPENAI_API_KEY", key));
        }
        LlmSettings::from_source(&Env::from_pairs(pairs)).unwrap()
    }

    pub fn provider(&self) -> Arc<dyn LlmProvider> {
        server::llm::from_settings(&self.settings(Some(KEY))).unwrap()
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

/// Sets its flag when dropped: the client closed the connection and hyper
/// dropped the body.
struct SetOnDrop(Arc<AtomicBool>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

async fn answer(State(fake): State<Fake>, headers: HeaderMap, Json(body): Json<Value>) -> Response {
    fake.seen.lock().unwrap().push(Seen {
        headers: headers.clone(),
        body,
    });
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let reply = fake.script.lock().unwrap().pop_front();
    match reply {
        None => error(500, "the fake's script is spent", None),
        Some(Reply::Status(code, message, retry_after)) => {
            // Some gateways echo the credentials they refused.
            let message = message.replace("{auth}", &auth);
            error(code, &message, retry_after)
        }
        Some(Reply::Whole(value)) => Json(value).into_response(),
        Some(Reply::Stream(pieces)) => sse(paced(pieces).map(Ok::<_, std::io::Error>).boxed()),
        Some(Reply::Cut(pieces)) => sse(paced(pieces)
            .map(Ok)
            .chain(stream::once(async {
                Err(std::io::Error::other("the fake hangs up"))
            }))
            .boxed()),
        Some(Reply::Endless(closed)) => {
            let guard = SetOnDrop(closed);
            let first =
                chunk(json!({"model": "qwen3-32b", "choices": [{"delta": {"role": "assistant"}}]}));
            let deltas = stream::unfold((guard, 0u32), |(guard, n)| async move {
                tokio::time::sleep(Duration::from_millis(20)).await;
                let piece = chunk(json!({"choices": [{"delta": {"content": format!("mot{n} ")}}]}));
                Some((Ok(Bytes::from(piece)), (guard, n + 1)))
            });
            sse(stream::once(async { Ok(Bytes::from(first)) })
                .chain(deltas)
                .boxed())
        }
    }
}

fn paced(pieces: Vec<Vec<u8>>) -> impl futures_util::Stream<Item = Bytes> + Send {
    stream::iter(pieces).then(|piece| async move {
        tokio::time::sleep(Duration::from_millis(15)).await;
        Bytes::from(piece)
    })
}

fn sse(body: futures_util::stream::BoxStream<'static, Result<Bytes, std::io::Error>>) -> Response {
    (
        [("content-type", "text/event-stream")],
        Body::from_stream(body),
    )
        .into_response()
}

fn error(code: u16, message: &str, retry_after: Option<&str>) -> Response {
    let status = StatusCode::from_u16(code).unwrap();
    let body =
        json!({"error": {"message": message, "type": "invalid_request_error", "code": null}});
    let mut response = (status, Json(body)).into_response();
    if let Some(after) = retry_after {
        response
            .headers_mut()
            .insert("retry-after", after.parse().unwrap());
    }
    response
}

pub fn chunk(value: Value) -> String {
    format!("data: {value}\n\n")
}

/// The streamed answer of the tests, as the server writes it: each SSE
/// event is cut into two writes at a byte offset, some inside a JSON
/// string, one inside the two bytes of « é ».
pub fn transcript() -> Vec<Vec<u8>> {
    let events = [
        chunk(
            json!({"id": "c1", "object": "chat.completion.chunk", "model": "qwen3-32b-q4",
            "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": null}]}),
        ),
        chunk(
            json!({"model": "qwen3-32b-q4", "choices": [{"index": 0, "delta": {"content": "Je regarde les lieux "}}]}),
        ),
        chunk(
            json!({"model": "qwen3-32b-q4", "choices": [{"index": 0, "delta": {"content": "à Montréal…"}}]}),
        ),
        chunk(
            json!({"model": "qwen3-32b-q4", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "id": "call_Xy1", "type": "function", "function": {"name": "search_members", "arguments": ""}}]}}]}),
        ),
        chunk(
            json!({"model": "qwen3-32b-q4", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"arguments": "{\"text\": \"rooftop f"}}]}}]}),
        ),
        chunk(
            json!({"model": "qwen3-32b-q4", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"arguments": "estif à Montré"}}]}}]}),
        ),
        chunk(
            json!({"model": "qwen3-32b-q4", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"arguments": "al\", \"participants\": 80}"}}]}}]}),
        ),
        chunk(
            json!({"model": "qwen3-32b-q4", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
        ),
        chunk(
            json!({"model": "qwen3-32b-q4", "choices": [], "usage": {"prompt_tokens": 2100, "completion_tokens": 57,
            "total_tokens": 2157, "prompt_tokens_details": {"cached_tokens": 2048}}}),
        ),
        "data: [DONE]\n\n".to_string(),
    ];
    let mut pieces = Vec::new();
    for event in events {
        let bytes = event.into_bytes();
        // Inside « é » when there is one (its first byte is 0xC3), else
        // in the middle.
        let cut = bytes
            .iter()
            .position(|b| *b == 0xC3)
            .map(|at| at + 1)
            .unwrap_or(bytes.len() / 2);
        pieces.push(bytes[..cut].to_vec());
        pieces.push(bytes[cut..].to_vec());
    }
    pieces
}
