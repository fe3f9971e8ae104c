//! Recording a streamed call: exactly one `llm_calls` row when the stream
//! ends. `Finished` gives the usage (cache writes and reads included) and
//! the cost; an error gives an error row; a stream the caller drops before
//! its end (the user pressed stop) gives an error row "cancelled", written
//! by a guard whose `Drop` spawns the insert, since a dropped stream can no
//! longer await anything.
//!
//! A cut stream was billed all the same: its row carries the input and
//! cache tokens the start reported, and the output streamed so far
//! (estimated from its length when the provider never said), priced.
//!
//! The row of a finished or failed stream is written before the last event
//! is handed on, so a caller that saw `Finished` finds the call in
//! [`Recording::calls`].
//!
//! The call has the `model_call` span of completions, from the request to
//! the row: the stream is read inside it, and the tokens and cost of the
//! row are recorded on it whichever way the stream ends.
use super::{close_span, Recording, Sink};
use crate::llm::chat::{ChatAnswer, ChatEvent, ChatRequest, ChatStream};
use crate::llm::{pricing, CallRecord, LlmError, Task, Usage};
use futures_util::stream::{self, StreamExt};
use std::time::Instant;
use tracing::Instrument;

/// The error recorded for a stream dropped before its end.
pub const CANCELLED: &str = "cancelled";

impl Recording {
    pub(super) async fn recorded_stream(
        &self,
        request: &ChatRequest,
    ) -> Result<ChatStream, LlmError> {
        if self.inner.is_offline_for(request.task).await {
            // Nothing will be called: no span, no record.
            return Err(LlmError::Offline);
        }
        let mut pending = Pending {
            sink: self.sink.clone(),
            task: request.task,
            provider: self.inner.name(),
            model: self.inner.model().to_string(),
            started: Instant::now(),
            usage_at_start: Usage::default(),
            streamed_chars: 0,
            recorded: false,
            span: self.span(request.task),
        };
        let opened = self.inner.stream(request).instrument(pending.span.clone());
        match opened.await {
            Ok(inner) => Ok(watch(inner, pending)),
            Err(LlmError::Offline) => {
                // Nothing was called: nothing to record.
                pending.recorded = true;
                Err(LlmError::Offline)
            }
            Err(e) => {
                pending.finish(Err(e.to_string())).await;
                Err(e)
            }
        }
    }
}

/// A stream whose end is not recorded yet; dropping it records a
/// cancellation.
struct Pending {
    sink: Sink,
    task: Task,
    provider: &'static str,
    /// The configured model, then the one that answered.
    model: String,
    started: Instant,
    /// What `Started` reported (input and cache tokens, for Anthropic).
    usage_at_start: Usage,
    /// Characters of text and tool input streamed so far.
    streamed_chars: usize,
    recorded: bool,
    /// The call's `model_call` span; it ends when this is dropped.
    span: tracing::Span,
}

/// Characters per output token: the usual estimate for the models we use,
/// for the output of a stream cut before the provider counted it.
const CHARS_PER_TOKEN: usize = 4;

impl Pending {
    fn record(&self, outcome: Result<&ChatAnswer, String>) -> CallRecord {
        match outcome {
            Ok(answer) => CallRecord {
                task: self.task,
                provider: self.provider,
                model: answer.model.clone(),
                usage: answer.usage,
                cost_usd: pricing::estimate_usd(&answer.model, &answer.usage),
                latency: answer.latency,
                error: None,
            },
            Err(error) => {
                let usage = self.usage_so_far();
                CallRecord {
                    task: self.task,
                    provider: self.provider,
                    model: self.model.clone(),
                    usage,
                    // Nothing consumed costs nothing, whatever the model.
                    cost_usd: if usage == Usage::default() {
                        Some(0.0)
                    } else {
                        pricing::estimate_usd(&self.model, &usage)
                    },
                    latency: self.started.elapsed(),
                    error: Some(error),
                }
            }
        }
    }

    /// The usage of a stream that ends without `Finished`.
    fn usage_so_far(&self) -> Usage {
        let streamed = self.streamed_chars.div_ceil(CHARS_PER_TOKEN);
        Usage {
            output_tokens: self
                .usage_at_start
                .output_tokens
                .max(u32::try_from(streamed).unwrap_or(u32::MAX)),
            ..self.usage_at_start
        }
    }

    /// Writes the row. Spawned, so that the row is written even if the
    /// caller drops the stream while the insert runs.
    async fn finish(mut self, outcome: Result<&ChatAnswer, String>) {
        self.recorded = true;
        let record = self.record(outcome);
        close_span(&self.span, &record);
        let write = tokio::spawn(self.sink.clone().write(record));
        if let Err(e) = write.await {
            tracing::warn!(error = %e, "recording an LLM stream failed");
        }
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if self.recorded {
            return;
        }
        let record = self.record(Err(CANCELLED.into()));
        close_span(&self.span, &record);
        let write = self.sink.clone().write(record);
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => drop(runtime.spawn(write)),
            Err(_) => tracing::warn!(
                task = self.task.label(),
                "a cancelled LLM stream is not recorded: no runtime to write it"
            ),
        }
    }
}

/// `inner`, recorded once when it ends.
fn watch(inner: ChatStream, pending: Pending) -> ChatStream {
    stream::unfold((inner, Some(pending)), |(mut inner, pending)| async move {
        // `None`: the end was recorded; by contract nothing follows.
        let mut pending = pending?;
        let event = inner.next().instrument(pending.span.clone()).await;
        match event {
            Some(Ok(ChatEvent::Finished(answer))) => {
                pending.finish(Ok(&answer)).await;
                Some((Ok(ChatEvent::Finished(answer)), (inner, None)))
            }
            Some(Ok(event)) => {
                match &event {
                    ChatEvent::Started { model, usage } => {
                        pending.model.clone_from(model);
                        pending.usage_at_start = *usage;
                    }
                    ChatEvent::TextDelta { text } => pending.streamed_chars += text.chars().count(),
                    ChatEvent::ToolInputDelta { partial_json, .. } => {
                        pending.streamed_chars += partial_json.chars().count();
                    }
                    ChatEvent::ToolUseStart { .. } | ChatEvent::Finished(_) => {}
                }
                Some((Ok(event), (inner, Some(pending))))
            }
            Some(Err(e)) => {
                pending.finish(Err(e.to_string())).await;
                Some((Err(e), (inner, None)))
            }
            None => {
                let error = "the stream ended without an answer".to_string();
                pending.finish(Err(error)).await;
                None
            }
        }
    })
    .boxed()
}
