//! Reachability of the embedding servers, for start-up and `/readyz`.
//!
//! The embedding client proper (batching, retries, dimension canary) belongs
//! to the venue-search work; this module only asks "does it answer?".
use crate::config::{EmbeddingSettings, PipelineSettings};
use serde::Deserialize;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Mutex;

/// How long a readiness answer is reused: `/readyz` is public and polled often.
const CACHE_FOR: Duration = Duration::from_secs(5);

/// The last answer and when it was computed.
type CachedAnswer = Option<(Instant, Result<(), String>)>;

#[derive(Clone)]
pub struct EmbeddingHealth {
    http: reqwest::Client,
    endpoints: Arc<Vec<PipelineSettings>>,
    last: Arc<Mutex<CachedAnswer>>,
}

#[derive(Deserialize)]
struct EmbeddingsResponse {
    data: Vec<EmbeddingItem>,
}

#[derive(Deserialize)]
struct EmbeddingItem {
    embedding: Vec<f32>,
}

impl EmbeddingHealth {
    pub fn new(settings: &EmbeddingSettings) -> reqwest::Result<Self> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(5))
            .build()?;
        // One probe per distinct endpoint: the pipelines usually share one server.
        let mut endpoints: Vec<PipelineSettings> = Vec::new();
        for p in [&settings.venues, &settings.memory, &settings.training] {
            if !endpoints.iter().any(|e| e.base_url == p.base_url) {
                endpoints.push(p.clone());
            }
        }
        Ok(EmbeddingHealth {
            http,
            endpoints: Arc::new(endpoints),
            last: Arc::default(),
        })
    }

    /// `Ok` when every endpoint embeds a short text; the error names the failing URL.
    pub async fn check(&self) -> Result<(), String> {
        let mut last = self.last.lock().await;
        if let Some((at, result)) = last.as_ref() {
            if at.elapsed() < CACHE_FOR {
                return result.clone();
            }
        }
        let mut result = Ok(());
        for endpoint in self.endpoints.iter() {
            if let Err(e) = self.probe(endpoint).await {
                result = Err(format!("embedding server at {} {e}", endpoint.base_url));
                break;
            }
        }
        *last = Some((Instant::now(), result.clone()));
        result
    }

    async fn probe(&self, endpoint: &PipelineSettings) -> Result<(), String> {
        let url = format!("{}/embeddings", endpoint.base_url.trim_end_matches('/'));
        let mut request = self.http.post(&url).json(&serde_json::json!({
            "model": endpoint.model,
            "input": ["ping"],
        }));
        if let Some(key) = &endpoint.api_key {
            request = request.bearer_auth(key);
        }
        let response = request.send().await.map_err(|e| {
            if e.is_timeout() {
                "did not answer in time".to_string()
            } else {
                "is unreachable".to_string()
            }
        })?;
        let status = response.status();
        if !status.is_success() {
            return Err(format!("answered HTTP {}", status.as_u16()));
        }
        let body: EmbeddingsResponse = response
            .json()
            .await
            .map_err(|_| "answered with an unexpected body".to_string())?;
        match body.data.first() {
            Some(item) if !item.embedding.is_empty() => Ok(()),
            _ => Err("answered with no vector".to_string()),
        }
    }
}
