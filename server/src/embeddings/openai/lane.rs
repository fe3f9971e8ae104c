//! One lane of the embedding client: where its requests go, how long one
//! may take, how it retries, and the slot that keeps its requests one at a
//! time. Queries and documents each have a lane (see the parent module).
use crate::config::redact_url;
use crate::outbound::RetryPolicy;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub(super) struct Lane {
    /// `queries` or `documents`, for logs.
    pub name: &'static str,
    /// `{base_url}/embeddings`.
    pub url: String,
    pub timeout: Duration,
    pub retry: RetryPolicy,
    /// One request at a time on this lane: the local server serves one at a
    /// time anyway, and a queue here is cheaper than one in its socket.
    pub slot: tokio::sync::Mutex<()>,
    /// The last attempt could not connect at all (nothing listens), as
    /// opposed to a slow or failing server.
    unreachable: AtomicBool,
}

impl Lane {
    pub fn new(name: &'static str, base_url: &str, timeout: Duration, retry: RetryPolicy) -> Lane {
        Lane {
            name,
            url: format!("{}/embeddings", base_url.trim_end_matches('/')),
            timeout,
            retry,
            slot: tokio::sync::Mutex::new(()),
            unreachable: AtomicBool::new(false),
        }
    }

    /// Records whether the last attempt reached the server at all.
    pub fn set_unreachable(&self, unreachable: bool) {
        self.unreachable.store(unreachable, Ordering::Relaxed);
    }

    pub fn is_unreachable(&self) -> bool {
        self.unreachable.load(Ordering::Relaxed)
    }

    pub fn same_server_as(&self, other: &Lane) -> bool {
        self.url == other.url
    }

    /// This lane's server, with the query lane's timeout and retries: where a
    /// query goes when its own lane is down. Its own slot, so the query does
    /// not wait for this process's document batches either.
    pub fn for_queries(&self, queries: &Lane) -> Lane {
        Lane::new(
            "queries (document server)",
            self.url.trim_end_matches("/embeddings"),
            queries.timeout,
            queries.retry,
        )
    }
}

impl std::fmt::Debug for Lane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lane")
            .field("url", &redact_url(&self.url))
            .field("timeout", &self.timeout)
            .finish()
    }
}
