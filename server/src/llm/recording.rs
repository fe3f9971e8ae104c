//! The wrapper that records calls: around any provider, each call it
//! passes on becomes one record in the call log (task, model, tokens, cost,
//! latency, status: in the server, an `llm_calls` row, through the
//! [`CallLog`] port) the moment it ends, so no caller writes metrics itself
//! and none can forget to.
//!
//! One `Recording` per unit of work (a search, later a chat turn): it
//! carries who the calls serve ([`CallContext`]) and keeps the calls it
//! recorded, in order, for the caller's own totals and for links known only
//! afterwards (the search's `search_runs` row is written after its calls).
//! A completion the caller abandons (its future dropped) is not recorded:
//! bound calls with [`CompletionRequest::time_limit`] instead. A streamed
//! call is recorded when its stream ends, however it ends: answered, failed,
//! or dropped by the caller ("cancelled"), see [`stream`].
use super::chat::{ChatRequest, ChatStream};
use super::{CallLog, CallRecord, Check, Completion, CompletionRequest, LlmError, LlmProvider};
use crate::call_record::CallContext;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

mod stream;

/// One call as recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedCall {
    /// The record's id in the log (the `llm_calls` row); `None` when
    /// writing it failed (logged, and the call's answer still served).
    pub id: Option<i64>,
    pub record: CallRecord,
}

pub struct Recording {
    inner: Arc<dyn LlmProvider>,
    sink: Sink,
}

/// Where records go: the call log and the wrapper's own list. Cloned into
/// streams, which outlive the call that opened them.
#[derive(Clone)]
struct Sink {
    log: Arc<dyn CallLog>,
    context: CallContext,
    calls: Arc<Mutex<Vec<RecordedCall>>>,
}

impl Sink {
    /// Writes the row (a failure is logged: the call's answer still serves)
    /// and keeps the call.
    async fn write(self, record: CallRecord) {
        let id = match self.log.record(&record, self.context).await {
            Ok(id) => Some(id),
            Err(e) => {
                tracing::warn!(error = %e, task = record.task.label(), "cannot record an LLM call");
                None
            }
        };
        self.log().push(RecordedCall { id, record });
    }

    fn log(&self) -> MutexGuard<'_, Vec<RecordedCall>> {
        // A panic elsewhere while holding the lock leaves a usable Vec.
        self.calls.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Recording {
    /// A call's span, completion or stream: an operator filters on task
    /// and model, and reads the tokens and cost [`close_span`] records on
    /// it once the call is over.
    fn span(&self, task: super::Task) -> tracing::Span {
        tracing::info_span!(
            "model_call",
            task = task.label(),
            provider = self.inner.name(),
            model = self.inner.model(),
            input_tokens = tracing::field::Empty,
            output_tokens = tracing::field::Empty,
            cost_usd = tracing::field::Empty,
        )
    }

    /// Calls of `inner` for `context`, kept in `log` (in the server, the
    /// pool, which the top-level `call_log` module adapts).
    pub fn new(
        inner: Arc<dyn LlmProvider>,
        log: impl CallLog + 'static,
        context: CallContext,
    ) -> Self {
        Recording {
            inner,
            sink: Sink {
                log: Arc::new(log),
                context,
                calls: Arc::default(),
            },
        }
    }

    /// Every call recorded so far (streamed ones once their stream ended),
    /// first first.
    pub fn calls(&self) -> Vec<RecordedCall> {
        self.sink.log().clone()
    }

    async fn call(
        &self,
        request: &CompletionRequest,
        check: Option<Check<'_>>,
    ) -> Result<Completion, LlmError> {
        if self.inner.is_offline_for(request.task).await {
            // Nothing will be called: no span, no record.
            return Err(LlmError::Offline);
        }
        let started = Instant::now();
        let span = self.span(request.task);
        let result =
            tracing::Instrument::instrument(self.inner.complete(request), span.clone()).await;
        if matches!(result, Err(LlmError::Offline)) {
            // Nothing was called: nothing to record.
            return result;
        }
        let mut record = CallRecord::of(
            self.inner.as_ref(),
            request.task,
            &result,
            started.elapsed(),
        );
        close_span(&span, &record);
        let result = match (result, check) {
            (Ok(completion), Some(check)) => match check(&completion) {
                Ok(()) => Ok(completion),
                Err(reason) => {
                    // The tokens were spent: the row keeps them and their cost.
                    let error = LlmError::Unusable(reason);
                    record.error = Some(error.to_string());
                    Err(error)
                }
            },
            (result, _) => result,
        };
        self.sink.clone().write(record).await;
        result
    }
}

/// Records on a call's span what its row records: the tokens, and the cost
/// when the model's price is known. Tokens as `i64`: an OpenTelemetry
/// exporter keeps unsigned values as text.
fn close_span(span: &tracing::Span, record: &CallRecord) {
    span.record("input_tokens", i64::from(record.usage.input_tokens));
    span.record("output_tokens", i64::from(record.usage.output_tokens));
    if let Some(cost) = record.cost_usd {
        span.record("cost_usd", cost);
    }
}

#[async_trait::async_trait]
impl LlmProvider for Recording {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn model(&self) -> &str {
        self.inner.model()
    }

    async fn complete(&self, request: &CompletionRequest) -> Result<Completion, LlmError> {
        self.call(request, None).await
    }

    async fn complete_checked(
        &self,
        request: &CompletionRequest,
        check: Check<'_>,
    ) -> Result<Completion, LlmError> {
        self.call(request, Some(check)).await
    }

    async fn stream(&self, request: &ChatRequest) -> Result<ChatStream, LlmError> {
        self.recorded_stream(request).await
    }

    async fn is_offline_for(&self, task: super::Task) -> bool {
        self.inner.is_offline_for(task).await
    }
}
