//! Anthropic's Messages API: `POST {base_url}/v1/messages`, non-streaming.
//!
//! Network errors, timeouts, 429 and 5xx (529 "overloaded" included) are
//! retried with exponential backoff and jitter, honouring `Retry-After`;
//! any other 4xx is final. The API key travels in `x-api-key`, marked
//! sensitive, and never reaches `Debug`, logs or error messages (bodies that
//! echo it are scrubbed).
use super::{Completion, CompletionRequest, LlmError, LlmProvider};
use crate::config::{redact_url, AnthropicSettings};
use crate::outbound::parse_retry_after;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, CONTENT_TYPE, RETRY_AFTER};
use reqwest::StatusCode;
use std::time::{Duration, Instant};
use wire::{error_message, parse_message, WireRequest};

mod wire;

/// The API version every request is written against.
const API_VERSION: &str = "2023-06-01";
/// Attempts per call, the first included.
const MAX_ATTEMPTS: u32 = 3;
/// The wait after the first failure; doubled after each later one.
const FIRST_BACKOFF: Duration = Duration::from_millis(500);
/// The longest `Retry-After` honoured. A longer one fails at once: the
/// venue ranker falls back to its deterministic scorer rather than keep the
/// team waiting.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(10);

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

/// Why one attempt failed, and whether another may succeed.
enum Failure {
    Retry {
        reason: String,
        retry_after: Option<Duration>,
    },
    Final(LlmError),
}

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
        Ok(AnthropicClient {
            url: format!("{}/v1/messages", settings.base_url.trim_end_matches('/')),
            model: model.to_string(),
            timeout,
            headers,
            key: settings.api_key.clone(),
            http,
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
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(parse_retry_after);
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
        let reason = format!(
            "answered HTTP {}: {}",
            status.as_u16(),
            self.scrub(error_message(&bytes))
        );
        if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
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
        let mut attempt = 1;
        loop {
            let (reason, retry_after) = match self.attempt(&body, started).await {
                Ok(completion) => {
                    tracing::debug!(
                        task = request.task.label(),
                        model = %completion.model,
                        input_tokens = completion.usage.input_tokens,
                        output_tokens = completion.usage.output_tokens,
                        latency_ms = completion.latency.as_millis() as u64,
                        "LLM call answered"
                    );
                    return Ok(completion);
                }
                Err(Failure::Final(e)) => return Err(e),
                Err(Failure::Retry {
                    reason,
                    retry_after,
                }) => (reason, retry_after),
            };
            let place = self.place();
            if attempt >= MAX_ATTEMPTS {
                return Err(LlmError::Unavailable(format!(
                    "{place} {reason} (after {MAX_ATTEMPTS} attempts)"
                )));
            }
            let wait = match retry_after {
                Some(wait) if wait > MAX_RETRY_AFTER => {
                    return Err(LlmError::Unavailable(format!(
                        "{place} {reason} and asks to retry after {} s, more than the {} s we wait",
                        wait.as_secs(),
                        MAX_RETRY_AFTER.as_secs()
                    )))
                }
                Some(wait) => wait,
                None => backoff(attempt),
            };
            tracing::info!(
                task = request.task.label(),
                attempt,
                wait_ms = wait.as_millis() as u64,
                "LLM call failed, retrying: {reason}"
            );
            tokio::time::sleep(wait).await;
            attempt += 1;
        }
    }
}

/// Exponential backoff with jitter: between half and all of
/// `FIRST_BACKOFF * 2^(attempt-1)`, so clients that failed together do not
/// retry together.
fn backoff(attempt: u32) -> Duration {
    let full = FIRST_BACKOFF * 2u32.saturating_pow(attempt.saturating_sub(1));
    let fraction = f64::from(getrandom::u32().unwrap_or(u32::MAX / 2)) / f64::from(u32::MAX);
    full / 2 + full.mul_f64(fraction / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_with_jitter() {
        for _ in 0..20 {
            let first = backoff(1);
            assert!(
                first >= FIRST_BACKOFF / 2 && first <= FIRST_BACKOFF,
                "{first:?}"
            );
            let second = backoff(2);
            assert!(
                second >= FIRST_BACKOFF && second <= FIRST_BACKOFF * 2,
                "{second:?}"
            );
        }
    }

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
