//! A scripted OpenAI-compatible embedding server on 127.0.0.1, which records
//! what it receives, and a log capture for the canary's single warning.
use super::support;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};
use server::config::{EmbeddingPipeline, InputTypeStyle, PipelineSettings};
use server::embeddings::OpenAiEmbeddings;
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the fake server answers to one request; once the script is spent it
/// answers `Vectors`.
#[derive(Clone)]
pub enum Reply {
    /// One vector per input; component 0 is the number the text ends with.
    Vectors,
    /// Like `Vectors`, listed in reverse with their `index`.
    Reversed,
    /// One vector too few.
    Short,
    Status(u16, &'static str),
    /// 429 with this `Retry-After`.
    RateLimited(&'static str),
    /// 200 with this body as is.
    Raw(&'static str),
    Hang(Duration),
}

/// (Authorization header, JSON body) of every request, in arrival order.
pub type Seen = Arc<Mutex<Vec<(Option<String>, Value)>>>;

#[derive(Clone)]
pub struct Fake {
    pub addr: SocketAddr,
    dims: usize,
    script: Arc<Mutex<VecDeque<Reply>>>,
    /// A throttled server: every answer takes this long per text.
    per_text: Option<Duration>,
    pub seen: Seen,
}

impl Fake {
    pub async fn start(dims: usize, script: Vec<Reply>) -> Fake {
        Fake::serve(dims, script, None).await
    }

    /// A server as slow as a busy local model: `per_text` for each text of
    /// a request, before answering.
    pub async fn throttled(dims: usize, per_text: Duration) -> Fake {
        Fake::serve(dims, vec![], Some(per_text)).await
    }

    async fn serve(dims: usize, script: Vec<Reply>, per_text: Option<Duration>) -> Fake {
        let mut fake = Fake {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)), // set below; the handler never reads it
            dims,
            script: Arc::new(Mutex::new(script.into())),
            per_text,
            seen: Arc::default(),
        };
        let app = Router::new()
            .route("/v1/embeddings", post(answer))
            .with_state(fake.clone());
        fake.addr = support::serve_in_background(app).await;
        fake
    }

    pub fn settings(&self) -> PipelineSettings {
        PipelineSettings {
            base_url: format!("http://{}/v1", self.addr),
            query_url: format!("http://{}/v1", self.addr),
            query_timeout: Duration::from_secs(2),
            api_key: None,
            model: "fake-e5".into(),
            dimensions: 384,
            input_type_style: InputTypeStyle::InputType,
            send_dimensions: false,
            batch_size: 48,
        }
    }

    pub fn client(&self, settings: &PipelineSettings) -> OpenAiEmbeddings {
        OpenAiEmbeddings::new(EmbeddingPipeline::Memory, settings, Duration::from_secs(2)).unwrap()
    }

    pub fn bodies(&self) -> Vec<Value> {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .map(|(_, b)| b.clone())
            .collect()
    }
}

async fn answer(State(fake): State<Fake>, headers: HeaderMap, Json(body): Json<Value>) -> Response {
    let auth = headers
        .get("authorization")
        .map(|v| v.to_str().unwrap().to_string());
    fake.seen.lock().unwrap().push((auth, body.clone()));
    let reply = fake
        .script
        .lock()
        .unwrap()
        .pop_front()
        .unwrap_or(Reply::Vectors);
    let texts: Vec<String> = match &body["input"] {
        Value::Array(items) => items.iter().map(|t| t.as_str().unwrap().into()).collect(),
        other => vec![other.as_str().unwrap_or_default().into()],
    };
    let mut data: Vec<Value> = texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let n: f32 = text.rsplit(' ').next().unwrap().parse().unwrap_or(-1.0);
            let mut v = vec![0.01_f32; fake.dims];
            v[0] = n;
            json!({"object": "embedding", "index": i, "embedding": v})
        })
        .collect();
    if let Some(per_text) = fake.per_text {
        tokio::time::sleep(per_text * texts.len() as u32).await;
    }
    let status = |code: u16| StatusCode::from_u16(code).unwrap();
    match reply {
        Reply::Vectors => {}
        Reply::Reversed => data.reverse(),
        Reply::Short => drop(data.pop()),
        Reply::Status(code, body) => return (status(code), body.to_string()).into_response(),
        Reply::RateLimited(after) => {
            return (status(429), [("retry-after", after)], "slow down").into_response()
        }
        Reply::Raw(body) => return ([("content-type", "application/json")], body).into_response(),
        Reply::Hang(d) => tokio::time::sleep(d).await,
    }
    Json(json!({"object": "list", "data": data, "model": body["model"]})).into_response()
}

pub fn texts(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("texte {i}")).collect()
}
