//! The provider layer's call log ([`crate::llm::CallLog`]) on the database:
//! calls become `llm_calls` rows ([`db::llm_calls::insert`]) and the month's
//! spend is summed from them ([`db::llm_calls::spent_usd_since`]).
//!
//! The adapter is the pool itself, so whoever holds a `PgPool` wires the
//! port by passing it (`llm::for_server(&settings, db.clone())`,
//! `Recording::new(provider, db.clone(), context)`). It lives here, above
//! both: `llm` knows no table, and `db` knows no provider (ADR 0030).
use crate::call_record::{CallContext, CallRecord};
use crate::db;
use crate::llm::{CallLog, CallLogError};
use chrono::{DateTime, Utc};
use sqlx::PgPool;

#[async_trait::async_trait]
impl CallLog for PgPool {
    async fn record(&self, call: &CallRecord, context: CallContext) -> Result<i64, CallLogError> {
        crate::metrics::global().model_called(call);
        db::llm_calls::insert(self, call, context)
            .await
            .map_err(error)
    }

    async fn spent_usd_since(&self, since: DateTime<Utc>) -> Result<f64, CallLogError> {
        db::llm_calls::spent_usd_since(self, since)
            .await
            .map_err(error)
    }
}

/// The database's error: one that trying again may cure
/// ([`db::is_transient`]) is "unavailable", anything else failed.
fn error(e: sqlx::Error) -> CallLogError {
    if db::is_transient(&e) {
        CallLogError::Unavailable(e.into())
    } else {
        CallLogError::Failed(e.into())
    }
}
