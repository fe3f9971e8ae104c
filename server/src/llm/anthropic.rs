//! Anthropic's Messages API: `POST {base_url}/v1/messages`, whole answers
//! ([`LlmProvider::complete`]) and streamed chat turns with tools and prompt
//! caching ([`LlmProvider::stream`], see [`streaming`]).
//!
//! Network errors, timeouts, 429 and 5xx (529 "overloaded" included) are
//! retried with exponential backoff and jitter, honouring `Retry-After`;
//! any other 4xx is final; the request's `time_limit`, when set, bounds the
//! whole call, retries included. The API key travels in `x-api-key`, marked
//! sensitive, and never reaches `Debug`, logs or error messages (bodies that
//! echo it are scrubbed).
use super::chat::{ChatRequest, ChatStream};
use super::retrying::with_retries;
use super::{Completion, CompletionRequest, LlmError, LlmProvider};
use crate::config::{redact_url, AnthropicSettings};
use crate::outbound::{self, RetryPolicy};
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, CONTENT_TYPE};
use std::time::{Duration, Instant};
use wire::{error_message, parse_message, WireRequest};

pub mod own_work;
mod request;
pub mod stream;
mod streaming;
mod translate;
mod wire;

/// The API version every request is written against.
const API_VERSION: &str = "2023-06-01";
/// Three attempts, up to 0.5 s then 1 s apart (jittered). A `Retry-After`
/// over 10 s fails at once: the venue ranker falls back to its deterministic
/// scorer rather than keep the team waiting.
const RETRY: RetryPolicy = RetryPolicy {
    max_attempts: 3,
    first_backoff: Duration::from_millis(500),
    max_retry_after: Duration::from_secs(10),
};

#[derive(Debug, thiserror::Error)]
#[error("cannot build the Anthropic client: {0}")]
pub struct ClientBuildError(String);

/// Build once and share (`Arc`): it holds the connection pool.
pub struct AnthropicClient {
    url: String,
    model: String,
    timeout: Duration,
    /// Sensitive headers; the bare key is kept only to scrub error bodies.
    headers: HeaderMap,
    key: String,
    http: reqwest::Client,
    /// For streamed answers: `timeout` bounds connecting and each read, not
    /// the whole answer, which may take longer while text keeps flowing.
    stream_http: reqwest::Client,
}

impl std::fmt::Debug for AnthropicClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnthropicClient")
            .field("url", &redact_url(&self.url))
            .field("model", &self.model)
            .field("timeout", &self.timeout)
            .field("api_key", &"***")
            .finish()
    }
}

type Failure = outbound::Failure<LlmError>;

impl AnthropicClient {
    /// `timeout` bounds each HTTP attempt.
    pub fn new(
        settings: &AnthropicSettings,
        model: &str,
        timeout: Duration,
    ) -> Result<Self, ClientBuildError> {
        let mut key = HeaderValue::from_str(&settings.api_key).map_err(|_| {
            // Says what is wrong, never what the key is.
            ClientBuildError("the API key holds characters an HTTP header cannot carry".into())
        })?;
        key.set_sensitive(true);
        let mut headers = HeaderMap::new();
        headers.insert(HeaderName::from_static("x-api-key"), key);
        headers.insert(
            HeaderName::from_static("anthropic-version"),
            HeaderValue::from_static(API_VERSION),
        );
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .build()
            .map_err(|e| ClientBuildError(e.to_string()))?;
        let stream_http = reqwest::Client::builder()
            .connect_timeout(timeout)
            .read_timeout(timeout)
            .build()
            .map_err(|e| ClientBuildError(e.to_string()))?;
        Ok(AnthropicClient {
            url: format!("{}/v1/messages", settings.base_url.trim_end_matches('/')),
            model: model.to_string(),
            timeout,
            headers,
            key: settings.api_key.clone(),
            http,
            stream_http,
        })
    }

    /// One HTTP exchange.
    async fn attempt(&self, body: &[u8], started: Instant) -> Result<Completion, Failure> {
        let response = self
            .http
            .post(&self.url)
            .headers(self.headers.clone())
            .body(body.to_vec())
            .send()
            .await
            .map_err(|e| self.network_failure(e))?;
        let status = response.status();
        let retry_after = outbound::retry_after(&response);
        let bytes = response
            .bytes()
            .await
            .map_err(|e| self.network_failure(e))?;
        if status.is_success() {
            return parse_message(&bytes, started.elapsed()).map_err(|reason| {
                Failure::Final(LlmError::InvalidResponse(
                    self.scrub(format!("{} {reason}", self.place())),
                ))
            });
        }
        Err(self.status_failure(status, retry_after, &bytes))
    }

    /// A non-2xx answer: worth another attempt (429, 5xx) or final.
    fn status_failure(
        &self,
        status: reqwest::StatusCode,
        retry_after: Option<Duration>,
        body: &[u8],
    ) -> Failure {
        let reason = format!(
            "answered HTTP {}: {}",
            status.as_u16(),
            self.scrub(error_message(body))
        );
        if outbound::worth_retrying(status) {
            Failure::Retry {
                reason,
                retry_after,
            }
        } else {
            Failure::Final(LlmError::Rejected(format!("{} {reason}", self.place())))
        }
    }

    fn network_failure(&self, e: reqwest::Error) -> Failure {
        let reason = crate::outbound::network_failure_reason(e, self.timeout);
        Failure::Retry {
            reason: self.scrub(reason),
            retry_after: None,
        }
    }

    /// Where the error happened, as error messages start.
    fn place(&self) -> String {
        format!("{} ({})", redact_url(&self.url), self.model)
    }

    /// Gateways sometimes echo the key they refused.
    fn scrub(&self, text: String) -> String {
        if !self.key.is_empty() && text.contains(self.key.as_str()) {
            text.replace(self.key.as_str(), "***")
        } else {
            text
        }
    }
}

#[async_trait::async_trait]
impl LlmProvider for AnthropicClient {
    fn name(&self) -> &'static str {
        "anthropic"
    }

    fn model(&self) -> &str {
        &self.model
    }

    async fn complete(&self, request: &CompletionRequest) -> Result<Completion, LlmError> {
        let body = serde_json::to_vec(&WireRequest::new(&self.model, request))
            .map_err(|e| LlmError::Rejected(format!("cannot encode the request: {e}")))?;
        let started = Instant::now();
        let completion = with_retries(
            &RETRY,
            &self.place(),
            request.task,
            request.time_limit,
            || self.attempt(&body, started),
        )
        .await?;
        tracing::debug!(
            task = request.task.label(),
            model = %completion.model,
            input_tokens = completion.usage.input_tokens,
            output_tokens = completion.usage.output_tokens,
            latency_ms = completion.latency.as_millis() as u64,
            "LLM call answered"
        );
        Ok(completion)
    }

    async fn stream(&self, request: &ChatRequest) -> Result<ChatStream, LlmError> {
        self.open_stream(request).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_hides_the_key() {
        let settings = AnthropicSettings {
            base_url: "https://api.anthropic.com".into(),
            api_key: "sk-ant-hidden-789".into(),
        };
        let client = AnthropicClient::new(&settings, "claude-haiku-4-5", Duration::from_secs(1));
        let shown = format!("{client:?}");
        assert!(shown.contains("claude-haiku-4-5"), "{shown}");
        assert!(!shown.contains("sk-ant-hidden-789"), "{shown}");
    }
}
