//! OpenAI-compatible chat completions: `POST {base_url}/chat/completions`,
//! whole or streamed, as llama.cpp's server, vLLM, Ollama and OpenRouter
//! speak it. Vendor wire types stay in `openai/`.
//!
//! Network errors, timeouts, 429 and 5xx are retried with exponential
//! backoff and jitter, honouring `Retry-After`, until the answer starts
//! (once a stream flows, a failure is the caller's to handle); any other
//! 4xx is final; the request's `time_limit`, when set, bounds the wait for
//! the answer, retries included. The API key, when there is one, travels
//! as `Authorization: Bearer …`, marked sensitive, and never reaches
//! `Debug`, logs or error messages (bodies that echo it are scrubbed).
//! Dropping a stream drops its response, which closes the connection.
use super::chat::{ChatRequest, ChatStream};
use super::retrying::with_retries;
use super::{Completion, CompletionRequest, LlmError, LlmProvider};
use crate::config::{redact_url, OpenAiSettings};
use crate::outbound::{self, RetryPolicy};
use futures_util::StreamExt;
use request::WireRequest;
use reqwest::header::{HeaderMap, HeaderValue, AUTHORIZATION, CONTENT_TYPE};
use response::{error_message, parse_completion};
use std::time::{Duration, Instant};

mod assembler;
mod chunk;
mod decode;
mod request;
mod response;

/// As the Anthropic client: three attempts, up to 0.5 s then 1 s apart
/// (jittered); a `Retry-After` over 10 s fails at once so the caller falls
/// back rather than keep the team waiting.
const RETRY: RetryPolicy = RetryPolicy {
    max_attempts: 3,
    first_backoff: Duration::from_millis(500),
    max_retry_after: Duration::from_secs(10),
};

#[derive(Debug, thiserror::Error)]
#[error("cannot build the OpenAI-compatible client: {0}")]
pub struct OpenAiBuildError(String);

/// Build once and share (`Arc`): it holds the connection pool.
pub struct OpenAiClient {
    url: String,
    model: String,
    timeout: Duration,
    /// Sensitive headers; the bare key is kept only to scrub error bodies.
    headers: HeaderMap,
    key: Option<String>,
    http: reqwest::Client,
}

impl std::fmt::Debug for OpenAiClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiClient")
            .field("url", &redact_url(&self.url))
            .field("model", &self.model)
            .field("timeout", &self.timeout)
            .field("api_key", &self.key.as_ref().map(|_| "***"))
            .finish()
    }
}

type Failure = outbound::Failure<LlmError>;

impl OpenAiClient {
    /// `timeout` bounds each whole completion, and each read of a stream
    /// (a long answer that keeps flowing is not cut).
    pub fn new(
        settings: &OpenAiSettings,
        model: &str,
        timeout: Duration,
    ) -> Result<Self, OpenAiBuildError> {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let Some(key) = &settings.api_key {
            let mut value = HeaderValue::from_str(&format!("Bearer {key}")).map_err(|_| {
                // Says what is wrong, never what the key is.
                OpenAiBuildError("the API key holds characters an HTTP header cannot carry".into())
            })?;
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }
        let http = reqwest::Client::builder()
            .connect_timeout(timeout)
            .read_timeout(timeout)
            .build()
            .map_err(|e| OpenAiBuildError(e.to_string()))?;
        Ok(OpenAiClient {
            url: format!(
                "{}/chat/completions",
                settings.base_url.trim_end_matches('/')
            ),
            model: model.to_string(),
            timeout,
            headers,
            key: settings.api_key.clone().filter(|k| !k.is_empty()),
            http,
        })
    }

    /// Sends the request once: the response when it is a 2xx (its body not
    /// read yet), else why not and whether to try again.
    async fn send(&self, body: &[u8], whole: bool) -> Result<reqwest::Response, Failure> {
        let mut request = self
            .http
            .post(&self.url)
            .headers(self.headers.clone())
            .body(body.to_vec());
        if whole {
            request = request.timeout(self.timeout);
        }
        let response = request.send().await.map_err(|e| self.network_failure(e))?;
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        let retry_after = outbound::retry_after(&response);
        let bytes = response.bytes().await.unwrap_or_default();
        let reason = format!(
            "answered HTTP {}: {}",
            status.as_u16(),
            self.scrub(error_message(&bytes))
        );
        if outbound::worth_retrying(status) {
            Err(Failure::Retry {
                reason,
                retry_after,
            })
        } else {
            Err(Failure::Final(LlmError::Rejected(format!(
                "{} {reason}",
                self.place()
            ))))
        }
    }

    /// One whole completion.
    async fn attempt(&self, body: &[u8], started: Instant) -> Result<Completion, Failure> {
        let response = self.send(body, true).await?;
        let bytes = response
            .bytes()
            .await
            .map_err(|e| self.network_failure(e))?;
        parse_completion(&bytes, &self.model, started.elapsed()).map_err(|reason| {
            Failure::Final(LlmError::InvalidResponse(
                self.scrub(format!("{} {reason}", self.place())),
            ))
        })
    }

    fn network_failure(&self, e: reqwest::Error) -> Failure {
        let reason = outbound::network_failure_reason(e, self.timeout);
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
        scrub(self.key.as_deref(), text)
    }
}

fn scrub(key: Option<&str>, text: String) -> String {
    match key {
        Some(key) if !key.is_empty() && text.contains(key) => text.replace(key, "***"),
        _ => text,
    }
}

/// A failure of a flowing stream, named and scrubbed like the others.
fn scrub_error(key: Option<&str>, place: &str, error: LlmError) -> LlmError {
    let say = |reason: String| scrub(key, format!("{place} {reason}"));
    match error {
        LlmError::Unavailable(r) => LlmError::Unavailable(say(r)),
        LlmError::Rejected(r) => LlmError::Rejected(say(r)),
        LlmError::InvalidResponse(r) => LlmError::InvalidResponse(say(r)),
        LlmError::Unusable(r) => LlmError::Unusable(say(r)),
        LlmError::Offline => LlmError::Offline,
    }
}

#[async_trait::async_trait]
impl LlmProvider for OpenAiClient {
    fn name(&self) -> &'static str {
        // As `llm_calls.provider` spells it.
        "openai_compat"
    }

    fn model(&self) -> &str {
        &self.model
    }

    async fn complete(&self, request: &CompletionRequest) -> Result<Completion, LlmError> {
        let body = serde_json::to_vec(&WireRequest::completion(&self.model, request))
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
        let body = serde_json::to_vec(&WireRequest::chat(&self.model, request))
            .map_err(|e| LlmError::Rejected(format!("cannot encode the request: {e}")))?;
        let started = Instant::now();
        let response = with_retries(
            &RETRY,
            &self.place(),
            request.task,
            request.time_limit,
            || self.send(&body, false),
        )
        .await?;
        let key = self.key.clone();
        let place = self.place();
        let events = decode::decode(response.bytes_stream(), &self.model, started)
            .map(move |event| event.map_err(|e| scrub_error(key.as_deref(), &place, e)));
        Ok(Box::pin(events))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_hides_the_key() {
        let settings = OpenAiSettings {
            base_url: "https://openrouter.ai/api/v1".into(),
            api_key: Some("sk-or-hidden-789".into()),
        };
        let client = OpenAiClient::new(&settings, "qwen3", Duration::from_secs(1));
        let shown = format!("{client:?}");
        assert!(shown.contains("qwen3"), "{shown}");
        assert!(!shown.contains("sk-or-hidden-789"), "{shown}");
    }

    #[test]
    fn echoed_keys_are_scrubbed_from_stream_errors() {
        let error = scrub_error(
            Some("sk-1"),
            "http://h/v1/chat/completions (m)",
            LlmError::Unavailable("the server stopped the answer: bad key sk-1".into()),
        );
        let text = error.to_string();
        assert!(text.contains("(m) the server stopped"), "{text}");
        assert!(!text.contains("sk-1"), "{text}");
    }
}
