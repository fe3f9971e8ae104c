//! What an operator's Prometheus scrapes from `/metrics` (issue #30):
//! request latencies per route, model tokens and cost per task, model calls
//! that failed, embedding failures per pipeline and lane, chat streams
//! open; and, read when scraped, the job queue's depth and age, pending
//! approvals and the database pool's use (`http::metrics_route`).
//!
//! One registry per process, reached from anywhere ([`global`]): the places
//! that count (the HTTP layer, the model call log, the embedding client, the
//! chat stream) are far apart, and threading a handle through each would
//! change every constructor for a counter. Counting never fails and never
//! blocks on I/O.
use prometheus_client::encoding::{text::encode, EncodeLabelSet};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::sync::atomic::AtomicU64;
use std::sync::OnceLock;
use std::time::Duration;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    pub method: String,
    /// The route's pattern (`/demandes/{id}`), never the raw path: one
    /// series per route, whatever the ids.
    pub route: String,
    /// `2xx`, `3xx`, `4xx` or `5xx`.
    pub status: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct TokenLabels {
    pub task: &'static str,
    /// `input`, `output`, `cache_read` or `cache_write`.
    pub kind: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct CallLabels {
    pub task: &'static str,
    /// `ok` or `failed` (the caller then fell back: offline answer,
    /// deterministic ranking…).
    pub outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct TaskLabels {
    pub task: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct LaneLabels {
    /// `venues`, `memory` or `training`.
    pub pipeline: &'static str,
    pub lane: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct QueueLabels {
    /// `queued` or `running`.
    pub state: String,
}

pub struct Metrics {
    registry: Registry,
    pub http_requests: Family<RouteLabels, Histogram>,
    pub llm_tokens: Family<TokenLabels, Counter>,
    pub llm_calls: Family<CallLabels, Counter>,
    pub llm_cost_usd: Family<TaskLabels, Counter<f64, AtomicU64>>,
    pub embedding_failures: Family<LaneLabels, Counter>,
    pub chat_streams_open: Gauge,
    // Read from the database when scraped.
    pub jobs: Family<QueueLabels, Gauge>,
    pub oldest_queued_job_seconds: Gauge,
    pub pending_approvals: Gauge,
    pub pool_connections: Gauge,
    pub pool_idle_connections: Gauge,
}

/// Request durations: 5 ms to 10 s, doubling.
fn latency_buckets() -> impl Iterator<Item = f64> {
    prometheus_client::metrics::histogram::exponential_buckets(0.005, 2.0, 12)
}

impl Metrics {
    fn new() -> Self {
        let mut registry = Registry::with_prefix("maxy");
        let http_requests = Family::<RouteLabels, Histogram>::new_with_constructor(|| {
            Histogram::new(latency_buckets())
        });
        registry.register(
            "http_request_duration_seconds",
            "Time to answer a request, per route and status class",
            http_requests.clone(),
        );
        let llm_tokens = Family::default();
        registry.register(
            "llm_tokens",
            "Model tokens by task and kind (cache read and write apart)",
            llm_tokens.clone(),
        );
        let llm_calls = Family::default();
        registry.register(
            "llm_calls",
            "Model calls by task and outcome; a failed call is a fallback taken",
            llm_calls.clone(),
        );
        let llm_cost_usd = Family::default();
        registry.register(
            "llm_cost_usd",
            "Model cost by task, in US dollars (the price table's unit)",
            llm_cost_usd.clone(),
        );
        let embedding_failures = Family::default();
        registry.register(
            "embedding_failures",
            "Embedding requests that failed after their retries, by pipeline and lane",
            embedding_failures.clone(),
        );
        let chat_streams_open = Gauge::default();
        registry.register(
            "chat_streams_open",
            "Chat event streams open on this process",
            chat_streams_open.clone(),
        );
        let jobs = Family::default();
        registry.register("jobs", "Jobs in the queue by state", jobs.clone());
        let oldest_queued_job_seconds = Gauge::default();
        registry.register(
            "oldest_queued_job_seconds",
            "Age of the oldest job waiting to run (0: none waits)",
            oldest_queued_job_seconds.clone(),
        );
        let pending_approvals = Gauge::default();
        registry.register(
            "pending_approvals",
            "Approval cards waiting for a decision",
            pending_approvals.clone(),
        );
        let pool_connections = Gauge::default();
        registry.register(
            "db_pool_connections",
            "Database connections this process holds",
            pool_connections.clone(),
        );
        let pool_idle_connections = Gauge::default();
        registry.register(
            "db_pool_idle_connections",
            "Of those, idle",
            pool_idle_connections.clone(),
        );
        Metrics {
            registry,
            http_requests,
            llm_tokens,
            llm_calls,
            llm_cost_usd,
            embedding_failures,
            chat_streams_open,
            jobs,
            oldest_queued_job_seconds,
            pending_approvals,
            pool_connections,
            pool_idle_connections,
        }
    }

    /// The Prometheus text exposition of everything registered.
    pub fn render(&self) -> String {
        let mut text = String::new();
        // Writing to a String cannot fail.
        let _ = encode(&mut text, &self.registry);
        text
    }

    pub fn request_answered(&self, method: &str, route: &str, status: u16, took: Duration) {
        self.http_requests
            .get_or_create(&RouteLabels {
                method: method.to_string(),
                route: route.to_string(),
                status: format!("{}xx", status / 100),
            })
            .observe(took.as_secs_f64());
    }

    /// One model call as the call log records it.
    pub fn model_called(&self, call: &crate::call_record::CallRecord) {
        let task = call.task.label();
        let usage = call.usage;
        for (kind, tokens) in [
            ("input", usage.input_tokens),
            ("output", usage.output_tokens),
            ("cache_read", usage.cache_read_tokens),
            ("cache_write", usage.cache_write_tokens),
        ] {
            if tokens > 0 {
                self.llm_tokens
                    .get_or_create(&TokenLabels { task, kind })
                    .inc_by(u64::from(tokens));
            }
        }
        let outcome = if call.error.is_some() { "failed" } else { "ok" };
        self.llm_calls
            .get_or_create(&CallLabels { task, outcome })
            .inc();
        if let Some(cost) = call.cost_usd.filter(|c| c.is_finite() && *c > 0.0) {
            self.llm_cost_usd
                .get_or_create(&TaskLabels { task })
                .inc_by(cost);
        }
    }

    pub fn embedding_failed(&self, pipeline: &'static str, lane: &'static str) {
        self.embedding_failures
            .get_or_create(&LaneLabels { pipeline, lane })
            .inc();
    }
}

/// The process's metrics.
pub fn global() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(Metrics::new)
}

/// Counts an open chat stream for as long as it lives.
pub struct OpenStream(());

impl OpenStream {
    pub fn opened() -> Self {
        global().chat_streams_open.inc();
        OpenStream(())
    }
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        global().chat_streams_open.dec();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call_record::{CallRecord, Task, Usage};

    #[test]
    fn calls_tokens_and_cost_are_counted_per_task() {
        let metrics = Metrics::new();
        let call = CallRecord {
            task: Task::Rank,
            provider: "anthropic",
            model: "m".into(),
            usage: Usage {
                input_tokens: 100,
                output_tokens: 20,
                cache_write_tokens: 0,
                cache_read_tokens: 900,
            },
            cost_usd: Some(0.25),
            latency: Duration::from_millis(800),
            error: None,
        };
        metrics.model_called(&call);
        metrics.model_called(&CallRecord {
            error: Some("HTTP 529".into()),
            cost_usd: None,
            usage: Usage::default(),
            ..call
        });
        metrics.request_answered("GET", "/demandes/{id}", 200, Duration::from_millis(12));
        metrics.embedding_failed("venues", "queries");
        let text = metrics.render();
        for line in [
            r#"maxy_llm_tokens_total{task="rank",kind="cache_read"} 900"#,
            r#"maxy_llm_tokens_total{task="rank",kind="input"} 100"#,
            r#"maxy_llm_calls_total{task="rank",outcome="ok"} 1"#,
            r#"maxy_llm_calls_total{task="rank",outcome="failed"} 1"#,
            r#"maxy_llm_cost_usd_total{task="rank"} 0.25"#,
            r#"maxy_http_request_duration_seconds_count{method="GET",route="/demandes/{id}",status="2xx"} 1"#,
            r#"maxy_embedding_failures_total{pipeline="venues",lane="queries"} 1"#,
        ] {
            assert!(text.contains(line), "{line} in\n{text}");
        }
        assert!(!text.contains("cache_write"), "no zero series: {text}");
    }

    #[test]
    fn an_open_stream_is_counted_until_dropped() {
        let before = global().chat_streams_open.get();
        let stream = OpenStream::opened();
        assert_eq!(global().chat_streams_open.get(), before + 1);
        drop(stream);
        assert_eq!(global().chat_streams_open.get(), before);
    }
}
