//! A scripted server speaking Anthropic's streamed Messages API on
//! 127.0.0.1: `text/event-stream` bodies sent chunk by chunk (split where a
//! test wants, pauses in between), HTTP errors with `retry-after`, dropped
//! connections, and a body that pings until the client leaves (to observe
//! cancellation).
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use futures_util::stream;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub const KEY: &str = "sk-ant-stream-test-0123456789";

/// One piece of a streamed body.
#[derive(Clone, Debug)]
pub enum Chunk {
    Bytes(Vec<u8>),
    Pause(Duration),
    /// Abort the connection mid-body.
    Drop,
    /// `ping` events every 20 ms, forever: only the client leaving ends it.
    PingUntilClosed,
}

impl Chunk {
    pub fn text(text: impl Into<String>) -> Chunk {
        Chunk::Bytes(text.into().into_bytes())
    }
}

#[derive(Clone, Debug)]
pub enum Reply {
    /// 200 `text/event-stream` with these chunks.
    Sse(Vec<Chunk>),
    /// This status with an Anthropic error body (type, message).
    Status(u16, &'static str, String),
    /// 429 with this `retry-after`.
    RateLimited(&'static str),
    /// 200 `application/json` with this body (a server that does not stream).
    Json(Value),
}

#[derive(Clone, Debug)]
pub struct Seen {
    pub headers: HeaderMap,
    pub body: Value,
}

#[derive(Clone)]
pub struct FakeStream {
    pub addr: SocketAddr,
    script: Arc<Mutex<VecDeque<Reply>>>,
    seen: Arc<Mutex<Vec<Seen>>>,
    /// Set when a body was dropped before its end (the client went away).
    closed_early: Arc<AtomicBool>,
}

impl FakeStream {
    pub async fn start(script: Vec<Reply>) -> FakeStream {
        let mut fake = FakeStream {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            script: Arc::new(Mutex::new(script.into())),
            seen: Arc::default(),
            closed_early: Arc::default(),
        };
        let app = Router::new()
            .route("/v1/messages", post(answer))
            .with_state(fake.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        fake.addr = listener.local_addr().expect("addr");
        tokio::spawn(async move { axum::serve(listener, app).await });
        fake
    }

    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().expect("lock").clone()
    }

    pub fn closed_early(&self) -> bool {
        self.closed_early.load(Ordering::SeqCst)
    }
}

/// Marks the body as closed early unless it ran to its end.
struct BodyGuard {
    flag: Arc<AtomicBool>,
    complete: bool,
}

impl BodyGuard {
    /// The body ended as scripted (its end, or a cut the script asked for).
    fn finish(&mut self) {
        self.complete = true;
    }
}

impl Drop for BodyGuard {
    fn drop(&mut self) {
        if !self.complete {
            self.flag.store(true, Ordering::SeqCst);
        }
    }
}

async fn answer(
    State(fake): State<FakeStream>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    fake.seen.lock().expect("lock").push(Seen {
        headers: headers.clone(),
        body,
    });
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if header("x-api-key") != Some(KEY) || header("anthropic-version") != Some("2023-06-01") {
        return error(401, "authentication_error", "bad headers");
    }
    let reply = fake.script.lock().expect("lock").pop_front();
    match reply {
        None => error(500, "api_error", "the fake's script is spent"),
        Some(Reply::Status(code, kind, message)) => error(code, kind, &message),
        Some(Reply::RateLimited(after)) => {
            let mut r = error(429, "rate_limit_error", "slow down");
            r.headers_mut()
                .insert("retry-after", after.parse().expect("header value"));
            r
        }
        Some(Reply::Json(body)) => Json(body).into_response(),
        Some(Reply::Sse(chunks)) => sse(chunks, fake.closed_early.clone()),
    }
}

fn sse(chunks: Vec<Chunk>, flag: Arc<AtomicBool>) -> Response {
    let guard = BodyGuard {
        flag,
        complete: false,
    };
    let state = (VecDeque::from(chunks), guard);
    let body = stream::unfold(state, |(mut chunks, mut guard)| async move {
        loop {
            match chunks.pop_front() {
                None => {
                    guard.finish();
                    return None;
                }
                Some(Chunk::Bytes(bytes)) => {
                    return Some((Ok::<_, std::io::Error>(bytes), (chunks, guard)))
                }
                Some(Chunk::Pause(d)) => tokio::time::sleep(d).await,
                Some(Chunk::Drop) => {
                    guard.finish();
                    let cut = std::io::Error::other("connection dropped by the fake");
                    return Some((Err(cut), (VecDeque::new(), guard)));
                }
                Some(Chunk::PingUntilClosed) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    chunks.push_front(Chunk::PingUntilClosed);
                    let ping = super::sse::ping().into_bytes();
                    return Some((Ok(ping), (chunks, guard)));
                }
            }
        }
    });
    (
        [
            ("content-type", "text/event-stream"),
            ("cache-control", "no-cache"),
        ],
        Body::from_stream(body),
    )
        .into_response()
}

fn error(code: u16, kind: &str, message: &str) -> Response {
    let status = StatusCode::from_u16(code).expect("status");
    let body = json!({"type": "error", "error": {"type": kind, "message": message}});
    (status, Json(body)).into_response()
}
