//! A fake OpenAI-compatible `/v1/embeddings` server for the backfill: it
//! counts every text it embeds, answers deterministic vectors (from each
//! text's sha256) of a chosen size, can go down after some requests, and
//! can raise the backfill's stop flag after some requests (a Ctrl-C).
use super::support;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};
use server::config::{Config, Env};
use server::embeddings::Embedders;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

#[derive(Default)]
pub struct FakeState {
    pub dims: usize,
    /// Answer 503 once this many requests have succeeded.
    pub fail_after: Option<usize>,
    /// Raise this flag once this many requests have succeeded.
    pub stop_after: Option<(usize, watch::Sender<bool>)>,
    /// Wait before answering (to make two backfills overlap).
    pub delay: Duration,
    /// Requests answered with vectors.
    pub requests: usize,
    /// How many times each text was embedded.
    pub counts: HashMap<String, usize>,
}

#[derive(Clone)]
pub struct Fake {
    pub addr: SocketAddr,
    pub state: Arc<Mutex<FakeState>>,
}

/// A deterministic vector per text, so a test can tell which text was embedded.
pub fn fake_vector(text: &str, dims: usize) -> Vec<f32> {
    let digest = Sha256::digest(text.as_bytes());
    (0..dims)
        .map(|i| f32::from(digest[i % 32]) / 255.0 - 0.5 + (i / 32) as f32 / 1024.0)
        .collect()
}

async fn embeddings(
    State(state): State<Arc<Mutex<FakeState>>>,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    let delay = state.lock().unwrap().delay;
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    let mut state = state.lock().unwrap();
    if state.fail_after.is_some_and(|n| state.requests >= n) {
        let error = json!({"error": {"message": "model is loading"}});
        return (StatusCode::SERVICE_UNAVAILABLE, Json(error));
    }
    let inputs: Vec<String> = body["input"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    let dims = state.dims;
    let data: Vec<Value> = inputs
        .iter()
        .enumerate()
        .map(|(i, t)| json!({"object": "embedding", "index": i, "embedding": fake_vector(t, dims)}))
        .collect();
    for t in inputs {
        *state.counts.entry(t).or_default() += 1;
    }
    state.requests += 1;
    let requests = state.requests;
    if let Some((n, stop)) = &state.stop_after {
        if requests >= *n {
            stop.send(true).unwrap();
        }
    }
    let reply = json!({"object": "list", "data": data, "model": body["model"]});
    (StatusCode::OK, Json(reply))
}

impl Fake {
    pub async fn start(dims: usize) -> Fake {
        let state = Arc::new(Mutex::new(FakeState {
            dims,
            ..FakeState::default()
        }));
        let app = Router::new()
            .route("/v1/embeddings", post(embeddings))
            .with_state(state.clone());
        let addr = support::serve_in_background(app).await;
        Fake { addr, state }
    }

    pub fn set(&self, change: impl FnOnce(&mut FakeState)) {
        change(&mut self.state.lock().unwrap());
    }

    pub fn counts(&self) -> HashMap<String, usize> {
        self.state.lock().unwrap().counts.clone()
    }

    pub fn requests(&self) -> usize {
        self.state.lock().unwrap().requests
    }
}

/// The real clients of the memory and training pipelines pointed at `addr`
/// (default models: `multilingual-e5-small-q4`, 384 dims).
pub fn embedders(addr: SocketAddr) -> Embedders {
    let url = format!("http://{addr}/v1");
    let config = Config::from_source(&Env::from_pairs([
        ("MAXY_EMBEDDING_URL", url.as_str()),
        ("MAXY_EMBEDDING_QUERY_URL", url.as_str()),
        // One HTTP request per backfill batch, so tests count batches.
        ("MAXY_MEMORY_EMBEDDING_BATCH_SIZE", "64"),
        ("MAXY_TRAINING_EMBEDDING_BATCH_SIZE", "64"),
    ]))
    .unwrap();
    Embedders::from_settings(&config.embeddings).unwrap()
}

pub fn model(embedders: &Embedders) -> String {
    embedders.memory.model().to_string()
}
