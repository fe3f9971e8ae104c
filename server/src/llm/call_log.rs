//! The port through which this layer keeps its calls and reads what they
//! cost: the recording wrapper ([`super::Recording`]) hands it each call as
//! it ends, the routing ([`super::Routed`]) and the budget read the month's
//! spend from it. The server implements it on the `llm_calls` table (its
//! top-level `call_log` module), tests with whatever they need; the
//! provider layer itself knows no table and holds no query (ADR 0030).
use super::CallRecord;
use crate::call_record::CallContext;
use chrono::{DateTime, Utc};
use std::sync::Arc;

/// Why the log could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum CallLogError {
    /// The store cannot serve now (no connection, pool exhausted, a retry
    /// asked for): the same request may succeed later.
    #[error(transparent)]
    Unavailable(Box<dyn std::error::Error + Send + Sync>),
    #[error(transparent)]
    Failed(Box<dyn std::error::Error + Send + Sync>),
}

/// Where the calls of this layer are kept.
#[async_trait::async_trait]
pub trait CallLog: Send + Sync {
    /// Keeps one call made for `context`; its id in the log.
    async fn record(&self, call: &CallRecord, context: CallContext) -> Result<i64, CallLogError>;

    /// What the calls made since `since` cost, in USD (failed calls
    /// included: they were billed too).
    async fn spent_usd_since(&self, since: DateTime<Utc>) -> Result<f64, CallLogError>;
}

/// A shared log is a log: the server shares one between its wrappers.
#[async_trait::async_trait]
impl<L: CallLog + ?Sized> CallLog for Arc<L> {
    async fn record(&self, call: &CallRecord, context: CallContext) -> Result<i64, CallLogError> {
        (**self).record(call, context).await
    }

    async fn spent_usd_since(&self, since: DateTime<Utc>) -> Result<f64, CallLogError> {
        (**self).spent_usd_since(since).await
    }
}
