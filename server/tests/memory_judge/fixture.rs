//! What the judge's tests share: candidates as the memory search returns
//! them, a call log kept in memory, a provider that counts its calls, and
//! readers of the request the fake Anthropic server received.
use chrono::{TimeZone, Utc};
use server::llm::{
    CallContext, CallLog, CallLogError, CallRecord, Completion, CompletionRequest, LlmError,
    LlmProvider,
};
use server::memory::{Confidence, Hit, HitKind, SearchSource};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A memory hit as the fused search would give it.
pub fn hit(id: i64, title: &str, content: &str) -> Hit {
    Hit {
        kind: HitKind::Memory,
        id,
        title: title.into(),
        content: content.into(),
        score: 0.61,
        matched_by: SearchSource::Vector,
        confidence: Confidence::Maybe,
        due_at: None,
        created_at: Utc.with_ymd_and_hms(2025, 5, 20, 9, 0, 0).unwrap(),
    }
}

/// `n` distinct memories (`Souvenir 1` … with a content naming its number).
pub fn hits(n: usize) -> Vec<Hit> {
    (1..=n)
        .map(|i| {
            hit(
                i as i64,
                &format!("Souvenir {i}"),
                &format!("Contenu numéro {i}."),
            )
        })
        .collect()
}

/// The calls a `Recording` handed over, with whom they served.
#[derive(Clone, Default)]
pub struct MemLog(pub Arc<Mutex<Vec<(CallRecord, CallContext)>>>);

impl MemLog {
    pub fn records(&self) -> Vec<(CallRecord, CallContext)> {
        self.0.lock().unwrap().clone()
    }
}

#[async_trait::async_trait]
impl CallLog for MemLog {
    async fn record(&self, call: &CallRecord, context: CallContext) -> Result<i64, CallLogError> {
        let mut calls = self.0.lock().unwrap();
        calls.push((call.clone(), context));
        Ok(calls.len() as i64)
    }

    async fn spent_usd_since(&self, _since: chrono::DateTime<Utc>) -> Result<f64, CallLogError> {
        Ok(0.0)
    }
}

/// A provider passing calls on to `inner`, counting them.
pub struct Counting {
    pub inner: Arc<dyn LlmProvider>,
    pub calls: AtomicUsize,
}

impl Counting {
    pub fn new(inner: Arc<dyn LlmProvider>) -> Self {
        Counting {
            inner,
            calls: AtomicUsize::new(0),
        }
    }

    pub fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }
}

#[async_trait::async_trait]
impl LlmProvider for Counting {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn model(&self) -> &str {
        self.inner.model()
    }

    async fn complete(&self, request: &CompletionRequest) -> Result<Completion, LlmError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.inner.complete(request).await
    }
}

/// The system prompt of a recorded request (a string, or text blocks).
pub fn system(body: &serde_json::Value) -> String {
    match &body["system"] {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The numbers the prompt lists its candidates with (`[1] souvenir …`).
pub fn listed(prompt: &str) -> Vec<usize> {
    prompt
        .lines()
        .filter_map(|l| l.strip_prefix('['))
        .filter_map(|l| l.split_once(']'))
        .filter_map(|(n, _)| n.parse().ok())
        .collect()
}
