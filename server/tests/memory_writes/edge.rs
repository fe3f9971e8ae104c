//! An OpenAI-compatible `/v1/embeddings` server at the network edge for the
//! write-path tests: it records each request's `input_type` and size,
//! answers vectors of a chosen size after an optional delay, and can be
//! started on an address where nothing listened before (a server coming
//! back).
use super::support;
use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Clone)]
pub struct Edge {
    pub addr: SocketAddr,
    dims: usize,
    delay: Duration,
    /// (`input_type`, number of texts) of every request, in arrival order.
    seen: Arc<Mutex<Vec<(String, usize)>>>,
}

impl Edge {
    /// A server on a port of its own.
    pub async fn start(dims: usize, delay: Duration) -> Edge {
        let edge = Edge::new(dims, delay);
        let addr = support::serve_in_background(edge.router()).await;
        Edge { addr, ..edge }
    }

    /// A server on `addr` (a port nothing listened on until now).
    pub async fn start_at(addr: SocketAddr, dims: usize) -> Edge {
        let edge = Edge {
            addr,
            ..Edge::new(dims, Duration::ZERO)
        };
        let listener = tokio::net::TcpListener::bind(addr).await.expect("bind");
        let app = edge.router();
        tokio::spawn(async move { axum::serve(listener, app).await });
        edge
    }

    fn new(dims: usize, delay: Duration) -> Edge {
        Edge {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            dims,
            delay,
            seen: Arc::default(),
        }
    }

    fn router(&self) -> Router {
        Router::new()
            .route("/v1/embeddings", post(answer))
            .with_state(self.clone())
    }

    pub fn seen(&self) -> Vec<(String, usize)> {
        self.seen.lock().unwrap().clone()
    }
}

async fn answer(State(edge): State<Edge>, Json(body): Json<Value>) -> Json<Value> {
    let n = body["input"].as_array().map_or(1, Vec::len);
    let kind = body["input_type"].as_str().unwrap_or_default().to_string();
    edge.seen.lock().unwrap().push((kind, n));
    if !edge.delay.is_zero() {
        tokio::time::sleep(edge.delay).await;
    }
    let data: Vec<Value> = (0..n)
        .map(|i| {
            let mut v = vec![0.01_f32; edge.dims];
            v[i % edge.dims] = 1.0;
            json!({"object": "embedding", "index": i, "embedding": v})
        })
        .collect();
    Json(json!({"object": "list", "data": data, "model": body["model"]}))
}
