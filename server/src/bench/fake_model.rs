//! A local model that speaks Anthropic's Messages wire (the network edge of
//! the chat benchmark and of the chat tests): `POST /v1/messages` with
//! `"stream": true` answers `message_start`, `content_block_*` deltas,
//! `message_delta` and `message_stop` as server-sent events, at a chosen
//! pace; without it, one JSON message (text answers only).
//!
//! What it answers is decided per request by a [`Script`] from the request
//! body, so a test can script a model that obeys (or ignores) what the
//! tools returned.
use axum::extract::State;
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use futures_util::stream::{self, Stream, StreamExt};
use serde_json::{json, Value};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// One answer of the model.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// Text, streamed in deltas of about `chunk` characters.
    Text(String),
    /// A tool call (its input streamed as JSON fragments), after optional text.
    ToolUse {
        text: String,
        name: String,
        input: Value,
    },
    /// Text streamed, then the stream fails mid-answer (an `error` event
    /// after the deltas, as Anthropic sends when it is overloaded).
    Cut(String),
}

/// Decides the answer from the request body.
pub type Script = Arc<dyn Fn(&Value) -> Answer + Send + Sync>;

#[derive(Clone)]
pub struct FakeModel {
    pub addr: SocketAddr,
    seen: Arc<Mutex<Vec<Value>>>,
    /// Whether request bodies are kept for [`FakeModel::seen`].
    keeping: Arc<std::sync::atomic::AtomicBool>,
    calls: Arc<std::sync::atomic::AtomicU64>,
    served: Arc<std::sync::atomic::AtomicU64>,
    served_after_parse: Arc<std::sync::atomic::AtomicU64>,
}

#[derive(Clone)]
struct Shared {
    script: Script,
    pace: Duration,
    /// Wait before the first frame (a real model's time to first token).
    think: Duration,
    chunk: usize,
    seen: Arc<Mutex<Vec<Value>>>,
    keeping: Arc<std::sync::atomic::AtomicBool>,
    calls: Arc<std::sync::atomic::AtomicU64>,
    /// Microseconds spent answering, summed over calls.
    served: Arc<std::sync::atomic::AtomicU64>,
    /// The same, counted from the parsed body (the earlier benchmarks' clock).
    served_after_parse: Arc<std::sync::atomic::AtomicU64>,
}

impl FakeModel {
    /// Serves on a loopback port; each delta waits `pace`.
    pub async fn start(script: Script, pace: Duration, chunk: usize) -> std::io::Result<FakeModel> {
        Self::start_thinking(script, Duration::ZERO, pace, chunk).await
    }

    /// Like [`FakeModel::start`], each answer's first frame waiting `think`
    /// (a real model's time to first token, inside the model's clock).
    pub async fn start_thinking(
        script: Script,
        think: Duration,
        pace: Duration,
        chunk: usize,
    ) -> std::io::Result<FakeModel> {
        let seen: Arc<Mutex<Vec<Value>>> = Arc::default();
        let keeping = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let served: Arc<std::sync::atomic::AtomicU64> = Arc::default();
        let served_after_parse: Arc<std::sync::atomic::AtomicU64> = Arc::default();
        let calls: Arc<std::sync::atomic::AtomicU64> = Arc::default();
        let shared = Shared {
            script,
            pace,
            think,
            chunk: chunk.max(1),
            seen: seen.clone(),
            keeping: keeping.clone(),
            calls: calls.clone(),
            served: served.clone(),
            served_after_parse: served_after_parse.clone(),
        };
        let app = Router::new()
            .route("/v1/messages", post(answer))
            .layer(axum::middleware::from_fn(arrived))
            .with_state(shared);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        tokio::spawn(async move { axum::serve(listener, app).await });
        Ok(FakeModel {
            addr,
            seen,
            keeping,
            calls,
            served,
            served_after_parse,
        })
    }

    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The requests answered so far.
    pub fn calls(&self) -> u64 {
        self.calls.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The time spent answering so far, summed over calls (from the
    /// request's head arriving to the last frame handed to the connection),
    /// to the microsecond: the model's share of a benchmarked turn. Reading
    /// and parsing the request body is the model's work (a real model's
    /// servers do it on their own machines), so it is inside this clock.
    pub fn served(&self) -> Duration {
        Duration::from_micros(self.served.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// [`FakeModel::served`] counted from the parsed request body instead:
    /// the clock of the benchmarks before 2026-12-03, which charged the
    /// fake's reading and parsing of the body to the server.
    pub fn served_after_parse(&self) -> Duration {
        Duration::from_micros(
            self.served_after_parse
                .load(std::sync::atomic::Ordering::Relaxed),
        )
    }

    /// The last `n` request bodies kept, oldest first.
    /// Stops keeping request bodies: a load measured on the process's
    /// memory must not count the fake's log of prompts.
    pub fn forget_requests(&self) {
        self.keeping
            .store(false, std::sync::atomic::Ordering::Relaxed);
        self.seen
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    pub fn last_seen(&self, n: usize) -> Vec<Value> {
        let seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        seen[seen.len().saturating_sub(n)..].to_vec()
    }

    /// The request bodies received, in order (the first 10,000).
    pub fn seen(&self) -> Vec<Value> {
        self.seen
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// When a request's head reached the fake, before its body is read.
#[derive(Clone, Copy)]
struct Arrived(std::time::Instant);

async fn arrived(mut request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    request
        .extensions_mut()
        .insert(Arrived(std::time::Instant::now()));
    next.run(request).await
}

async fn answer(
    State(shared): State<Shared>,
    axum::Extension(Arrived(started)): axum::Extension<Arrived>,
    Json(body): Json<Value>,
) -> Response {
    let parsed = std::time::Instant::now();
    let n = shared
        .calls
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let answer = (shared.script)(&body);
    let streaming = body["stream"] == true;
    if shared.keeping.load(std::sync::atomic::Ordering::Relaxed) {
        let mut seen = shared.seen.lock().unwrap_or_else(PoisonError::into_inner);
        // Bounded: a long benchmark must not grow the fake's memory.
        if seen.len() < 10_000 {
            seen.push(body);
        }
    }
    let (served, served_after_parse) = (shared.served.clone(), shared.served_after_parse.clone());
    let done = move || {
        let micros = |since: std::time::Instant| {
            u64::try_from(since.elapsed().as_micros()).unwrap_or(u64::MAX)
        };
        served.fetch_add(micros(started), std::sync::atomic::Ordering::Relaxed);
        served_after_parse.fetch_add(micros(parsed), std::sync::atomic::Ordering::Relaxed);
    };
    if !streaming {
        if !shared.think.is_zero() {
            tokio::time::sleep(shared.think).await;
        }
        let response = Json(whole(&answer, n)).into_response();
        done();
        return response;
    }
    let frames = frames(&answer, shared.chunk, n);
    streamed(frames, shared.think, shared.pace, done).into_response()
}

/// A non-streamed answer (`"stream"` absent or false).
fn whole(answer: &Answer, n: u64) -> Value {
    let text = match answer {
        Answer::Text(text) | Answer::ToolUse { text, .. } | Answer::Cut(text) => text,
    };
    json!({"id": format!("msg_fake_{n}"), "type": "message", "role": "assistant",
           "model": "claude-sonnet-4-5-fake",
           "content": [{"type": "text", "text": text}],
           "stop_reason": "end_turn", "stop_sequence": null,
           "usage": {"input_tokens": 600, "output_tokens": 60,
                     "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}})
}

fn streamed(
    frames: Vec<(&'static str, Value)>,
    think: Duration,
    pace: Duration,
    done: impl FnOnce() + Send + 'static,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let stream = stream::iter(frames).then(move |(event, data)| async move {
        if !think.is_zero() && event == "message_start" {
            tokio::time::sleep(think).await;
        }
        if !pace.is_zero() && event.ends_with("delta") {
            tokio::time::sleep(pace).await;
        }
        Ok(Event::default().event(event).data(data.to_string()))
    });
    // Polled once the last frame went out: the answer is complete.
    let end = stream::once(async move {
        done();
    })
    .filter_map(|()| async { None });
    Sse::new(stream.chain(end))
}

/// `frames` as the bytes of a `text/event-stream` body.
pub fn event_stream(frames: &[(&'static str, Value)]) -> String {
    frames
        .iter()
        .map(|(event, data)| format!("event: {event}\ndata: {data}\n\n"))
        .collect()
}

/// The SSE frames of one answer: (event name, data).
pub fn frames(answer: &Answer, chunk: usize, n: u64) -> Vec<(&'static str, Value)> {
    let mut out = vec![(
        "message_start",
        json!({"type": "message_start", "message": {
            "id": format!("msg_fake_{n}"), "type": "message", "role": "assistant",
            "model": "claude-sonnet-4-5-fake", "content": [], "stop_reason": null,
            "usage": {"input_tokens": 1200, "output_tokens": 1,
                      "cache_creation_input_tokens": 0, "cache_read_input_tokens": 1000}}}),
    )];
    let (text, tool) = match answer {
        Answer::Text(text) | Answer::Cut(text) => (text.as_str(), None),
        Answer::ToolUse { text, name, input } => (text.as_str(), Some((name, input))),
    };
    let mut index = 0;
    if !text.is_empty() {
        out.push((
            "content_block_start",
            json!({"type": "content_block_start", "index": index,
                   "content_block": {"type": "text", "text": ""}}),
        ));
        for piece in pieces(text, chunk) {
            out.push((
                "content_block_delta",
                json!({"type": "content_block_delta", "index": index,
                       "delta": {"type": "text_delta", "text": piece}}),
            ));
        }
        out.push((
            "content_block_stop",
            json!({"type": "content_block_stop", "index": index}),
        ));
        index += 1;
    }
    if let Some((name, input)) = tool {
        out.push((
            "content_block_start",
            json!({"type": "content_block_start", "index": index,
                   "content_block": {"type": "tool_use", "id": format!("toolu_fake_{n}"),
                                     "name": name, "input": {}}}),
        ));
        for piece in pieces(&input.to_string(), chunk) {
            out.push((
                "content_block_delta",
                json!({"type": "content_block_delta", "index": index,
                       "delta": {"type": "input_json_delta", "partial_json": piece}}),
            ));
        }
        out.push((
            "content_block_stop",
            json!({"type": "content_block_stop", "index": index}),
        ));
    }
    if let Answer::Cut(_) = answer {
        // No block stop, no message end: the error cuts the answer.
        out.pop();
        out.push((
            "error",
            json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
        ));
        return out;
    }
    let stop = if tool.is_some() {
        "tool_use"
    } else {
        "end_turn"
    };
    out.push((
        "message_delta",
        json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null},
               "usage": {"output_tokens": 40}}),
    ));
    out.push(("message_stop", json!({"type": "message_stop"})));
    out
}

/// `text` cut every `chunk` characters (never inside a character).
fn pieces(text: &str, chunk: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(chunk.max(1))
        .map(|c| c.iter().collect())
        .collect()
}

/// The text of the last user message's tool results (what the tools returned
/// to the model in this round), or "" when the last message is the team's.
pub fn last_tool_results(body: &Value) -> String {
    let Some(last) = body["messages"].as_array().and_then(|m| m.last()) else {
        return String::new();
    };
    last["content"]
        .as_array()
        .map(|blocks| {
            blocks
                .iter()
                .filter(|b| b["type"] == "tool_result")
                .map(|b| match &b["content"] {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_answer_has_the_wire_shape() {
        let frames = frames(
            &Answer::ToolUse {
                text: "Je regarde.".into(),
                name: "get_request".into(),
                input: json!({"request_id": 12}),
            },
            4,
            0,
        );
        let names: Vec<&str> = frames.iter().map(|(e, _)| *e).collect();
        assert_eq!(names.first(), Some(&"message_start"));
        assert_eq!(names.last(), Some(&"message_stop"));
        let json: String = frames
            .iter()
            .filter_map(|(_, d)| d["delta"]["partial_json"].as_str())
            .collect();
        assert_eq!(json, r#"{"request_id":12}"#);
        assert!(frames
            .iter()
            .any(|(_, d)| d["delta"]["stop_reason"] == "tool_use"));
    }

    /// The benchmark takes the model's time from these clocks: the body's
    /// reading and parsing and the time to first token are inside the
    /// model's, the earlier clock (from the parsed body) is never longer.
    #[tokio::test]
    async fn the_models_clock_holds_the_body_and_the_time_to_first_token() {
        let think = Duration::from_millis(30);
        let script: Script = Arc::new(|_| Answer::Text("Bonjour".into()));
        let fake = FakeModel::start_thinking(script, think, Duration::ZERO, 4)
            .await
            .unwrap();
        let tools: Vec<Value> = (0..200)
            .map(|i| json!({"name": format!("tool_{i}"), "input_schema": {"type": "object"}}))
            .collect();
        let body = json!({"stream": true, "tools": tools,
                          "messages": [{"role": "user", "content": "Des lieux ?"}]});
        let reply = reqwest::Client::new()
            .post(format!("{}/v1/messages", fake.base_url()))
            .json(&body)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(reply.contains("message_stop"), "{reply}");
        assert!(fake.served() >= think, "{:?}", fake.served());
        assert!(fake.served_after_parse() >= think);
        assert!(fake.served() >= fake.served_after_parse());
        assert_eq!(fake.seen().len(), 1);
    }

    #[test]
    fn pieces_never_split_a_character() {
        assert_eq!(pieces("éàü", 2), vec!["éà".to_string(), "ü".to_string()]);
    }
}
