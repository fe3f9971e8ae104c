//! One call as the metrics keep it (`llm_calls`): model, task, tokens, cost,
//! latency, and why it failed if it did.
use super::{pricing, Completion, LlmError, LlmProvider, Task, Usage};
use std::time::Duration;

#[derive(Clone, Debug, PartialEq)]
pub struct CallRecord {
    pub task: Task,
    pub provider: &'static str,
    pub model: String,
    pub usage: Usage,
    /// `None`: the model is not in the price table.
    pub cost_usd: Option<f64>,
    pub latency: Duration,
    /// Why the call, or what it answered, was unusable; `None` when it served.
    /// Provider errors are already scrubbed of keys.
    pub error: Option<String>,
}

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
