//! How a provider's answer becomes the record the metrics keep
//! ([`CallRecord`], defined below both this layer and the tables, in
//! [`crate::call_record`]).
use super::{pricing, CallRecord, Completion, LlmError, LlmProvider, Task, Usage};
use std::time::Duration;

impl CallRecord {
    /// `latency` is the caller's measure, for calls that failed without one.
    pub fn of(
        provider: &dyn LlmProvider,
        task: Task,
        result: &Result<Completion, LlmError>,
        latency: Duration,
    ) -> Self {
        match result {
            Ok(c) => CallRecord {
                task,
                provider: provider.name(),
                model: c.model.clone(),
                usage: c.usage,
                cost_usd: pricing::estimate_usd(&c.model, &c.usage),
                latency: c.latency,
                error: None,
            },
            Err(e) => CallRecord {
                task,
                provider: provider.name(),
                model: provider.model().to_string(),
                usage: Usage::default(),
                cost_usd: Some(0.0),
                latency,
                error: Some(e.to_string()),
            },
        }
    }
}
