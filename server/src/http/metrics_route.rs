//! `GET /metrics` for Prometheus (issue #30), readable only from the
//! addresses an operator lists (`MAXY_METRICS_ALLOW`, loopback by default;
//! everyone else gets the 404 of an unknown page), and the layer that times
//! every request per route.
use super::client_addr;
use super::route_table::RouteTable;
use crate::metrics::global;
use crate::state::AppState;
use app::errors::AppError;
use axum::body::Body;
use axum::extract::{MatchedPath, Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::HashSet;
use std::sync::OnceLock;
use std::time::Instant;

pub fn routes() -> RouteTable {
    RouteTable::default().get("/metrics", scrape)
}

async fn scrape(State(state): State<AppState>, request: Request<Body>) -> Response {
    if !state
        .config
        .auth
        .may_read_metrics(client_addr::of(&request))
    {
        return super::errors::html_page(AppError::NotFound);
    }
    let metrics = global();
    match crate::db::operations::backlog(&state.db).await {
        Ok(backlog) => {
            for (label, count) in [
                ("queued", backlog.queued_jobs),
                ("running", backlog.running_jobs),
            ] {
                metrics
                    .jobs
                    .get_or_create(&crate::metrics::QueueLabels {
                        state: label.into(),
                    })
                    .set(count);
            }
            metrics
                .oldest_queued_job_seconds
                .set(backlog.oldest_queued_seconds.round() as i64);
            metrics.pending_approvals.set(backlog.pending_approvals);
        }
        // The process's own figures still answer; the database's are stale.
        Err(e) => tracing::warn!(error = %e, "metrics: cannot read the job queue"),
    }
    metrics.pool_connections.set(i64::from(state.db.size()));
    metrics
        .pool_idle_connections
        .set(i64::try_from(state.db.num_idle()).unwrap_or(i64::MAX));
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        metrics.render(),
    )
        .into_response()
}

/// Times every request under its route's pattern. Unknown paths share one
/// series, so a client inventing paths cannot grow the metrics.
pub async fn time_requests(request: Request<Body>, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let route = route_label(&request);
    let response = next.run(request).await;
    global().request_answered(
        method.as_str(),
        &route,
        response.status().as_u16(),
        started.elapsed(),
    );
    response
}

fn route_label(request: &Request<Body>) -> String {
    let path = request.uri().path();
    if server_functions().contains(path) {
        return path.to_string();
    }
    match request.extensions().get::<MatchedPath>() {
        // Patterns are the router's own, a fixed set; Leptos' catch-all for
        // server functions counts only the known paths above.
        Some(matched) if !matched.as_str().contains("{*") => matched.as_str().to_string(),
        _ => "unmatched".to_string(),
    }
}

fn server_functions() -> &'static HashSet<&'static str> {
    static PATHS: OnceLock<HashSet<&'static str>> = OnceLock::new();
    PATHS.get_or_init(|| {
        leptos::server_fn::axum::server_fn_paths()
            .map(|(path, _)| path)
            .collect()
    })
}
