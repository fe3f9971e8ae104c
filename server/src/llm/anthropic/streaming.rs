//! [`LlmProvider::stream`](crate::llm::LlmProvider::stream) for Anthropic:
//! post the chat request with `"stream": true`, check the HTTP status before
//! reading any event, then hand the caller the answer as [`ChatEvent`]s.
//!
//! An answer is *open* once its first delta (text or tool call) or its end
//! has arrived. Until then every transient failure — 429, 529, 5xx, a broken
//! connection, an `overloaded_error` event after the 200 — is retried like a
//! failed non-streaming call (same policy, `Retry-After` honoured), and the
//! caller's `time_limit` bounds the whole wait. The events read before the
//! answer opened are held back, so a retried attempt leaves no trace (not
//! even a second `Started`). Once open, a failure ends the stream with an
//! error ([`LlmError::Unavailable`] when asking again may help): the caller
//! has shown part of an answer and decides itself.
//!
//! Dropping the stream drops the response, which closes the connection: the
//! provider stops generating (and billing) when the user presses stop.
use super::request::ChatWireRequest;
use super::stream::{decode, StreamError, StreamEvent};
use super::translate::Translator;
use super::wire::error_message;
use super::{AnthropicClient, Failure, RETRY};
use crate::llm::chat::{ChatEvent, ChatRequest, ChatStream};
use crate::llm::retrying::with_retries;
use crate::llm::LlmError;
use crate::outbound;
use futures_util::stream::{self, BoxStream, StreamExt};
use reqwest::header::CONTENT_TYPE;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

type Events = BoxStream<'static, Result<StreamEvent, StreamError>>;

/// What error messages need from the client once the stream outlives the
/// call that opened it.
struct Labels {
    place: String,
    key: String,
}

impl Labels {
    fn error(&self, failure: &StreamError) -> LlmError {
        let mut message = format!("{} {failure}", self.place);
        if !self.key.is_empty() {
            message = message.replace(self.key.as_str(), "***");
        }
        if failure.is_retryable() {
            LlmError::Unavailable(message)
        } else {
            LlmError::InvalidResponse(message)
        }
    }
}

/// An answer being read.
struct Answer {
    events: Events,
    translator: Translator,
    /// Chat events produced and not handed out yet.
    ready: VecDeque<ChatEvent>,
    labels: Labels,
    /// After `Finished` or an error: nothing more is read.
    done: bool,
}

impl Answer {
    /// Reads until the next chat event; `Err` is a stream failure.
    async fn advance(&mut self) -> Result<(), StreamError> {
        let event = match self.events.next().await {
            Some(event) => event?,
            // `decode` ends after `message_stop` only, whose answer was
            // produced already; anything else is a cut stream.
            None => return Err(StreamError::Incomplete),
        };
        self.ready.extend(self.translator.push(event)?);
        Ok(())
    }

    async fn next(&mut self) -> Option<Result<ChatEvent, LlmError>> {
        loop {
            if let Some(event) = self.ready.pop_front() {
                self.done |= matches!(event, ChatEvent::Finished(_));
                return Some(Ok(event));
            }
            if self.done {
                return None;
            }
            if let Err(failure) = self.advance().await {
                self.done = true;
                return Some(Err(self.labels.error(&failure)));
            }
        }
    }

    fn into_stream(self) -> ChatStream {
        stream::unfold(self, |mut answer| async move {
            let event = answer.next().await?;
            Some((event, answer))
        })
        .boxed()
    }
}

impl AnthropicClient {
    /// The answer to `request`, open (see the module doc).
    pub(super) async fn open_stream(&self, request: &ChatRequest) -> Result<ChatStream, LlmError> {
        let body = serde_json::to_vec(&ChatWireRequest::new(&self.model, request))
            .map_err(|e| LlmError::Rejected(format!("cannot encode the request: {e}")))?;
        let started = Instant::now();
        let answer = with_retries(
            &RETRY,
            &self.place(),
            request.task,
            request.time_limit,
            || self.open_attempt(&body, started),
        )
        .await?;
        Ok(answer.into_stream())
    }

    /// One exchange, up to the first delta.
    async fn open_attempt(&self, body: &[u8], started: Instant) -> Result<Answer, Failure> {
        let response = self
            .stream_http
            .post(&self.url)
            .headers(self.headers.clone())
            .body(body.to_vec())
            .send()
            .await
            .map_err(|e| self.network_failure(e))?;
        let status = response.status();
        if !status.is_success() {
            let retry_after = outbound::retry_after(&response);
            let bytes = response
                .bytes()
                .await
                .map_err(|e| self.network_failure(e))?;
            return Err(self.status_failure(status, retry_after, &bytes));
        }
        let kind = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("text/event-stream")
            .to_string();
        if !kind.starts_with("text/event-stream") {
            // A proxy that does not stream, or an endpoint that ignored
            // `"stream": true`: asking again would get the same.
            let body = response.bytes().await.unwrap_or_default();
            let reason = format!(
                "{} answered {kind}, not a stream of events: {}",
                self.place(),
                error_message(&body)
            );
            return Err(Failure::Final(LlmError::InvalidResponse(
                self.scrub(reason),
            )));
        }
        let timeout = self.timeout;
        let bytes = response
            .bytes_stream()
            .map(move |chunk| chunk.map_err(|e| read_failure(e, timeout)));
        let mut answer = Answer {
            events: decode(bytes).boxed(),
            translator: Translator::new(started),
            ready: VecDeque::new(),
            labels: Labels {
                place: self.place(),
                key: self.key.clone(),
            },
            done: false,
        };
        while !answer.translator.visible() {
            if let Err(failure) = answer.advance().await {
                return Err(if failure.is_retryable() {
                    Failure::Retry {
                        reason: self.scrub(format!("answered, then: {failure}")),
                        retry_after: None,
                    }
                } else {
                    Failure::Final(answer.labels.error(&failure))
                });
            }
        }
        Ok(answer)
    }
}

/// A read that failed mid-answer, in words (without the URL).
fn read_failure(e: reqwest::Error, timeout: Duration) -> String {
    if e.is_timeout() {
        return format!("no data for {} ms", timeout.as_millis());
    }
    outbound::network_failure_reason(e, timeout)
}
