//! Every request gets an `x-request-id`, echoed in the response and recorded
//! on the request's tracing span. A caller's own id is kept when it is short
//! and plain; anything else is replaced, so a header cannot forge log lines.
use axum::body::Body;
use axum::http::{HeaderName, Request};
use axum::Router;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tower_http::LatencyUnit;
use tracing::Level;

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Wraps `router` with the request-id and tracing layers (outermost first).
pub fn with_request_ids<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    router
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(request_span)
                .on_response(
                    DefaultOnResponse::new()
                        .level(Level::INFO)
                        .latency_unit(LatencyUnit::Millis),
                ),
        )
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        .layer(axum::middleware::map_request(drop_unsafe_request_id))
}

async fn drop_unsafe_request_id(mut request: Request<Body>) -> Request<Body> {
    let safe = request
        .headers()
        .get(&REQUEST_ID)
        .map(|v| is_safe_id(v.as_bytes()));
    if safe == Some(false) {
        request.headers_mut().remove(&REQUEST_ID);
    }
    request
}

fn is_safe_id(id: &[u8]) -> bool {
    (1..=64).contains(&id.len())
        && id
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'-' || *b == b'_')
}

/// The span carries the method, the path (never the query string, and never
/// a magic-link token, see [`super::paths::loggable`]) and the request id.
fn request_span(request: &Request<Body>) -> tracing::Span {
    let id = request
        .headers()
        .get(&REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-");
    let path = super::paths::loggable(request.uri().path());
    tracing::info_span!("request", method = %request.method(), path = %path, request.id = %id)
}

#[cfg(test)]
mod tests {
    use super::is_safe_id;

    #[test]
    fn only_short_plain_ids_are_kept() {
        assert!(is_safe_id(b"5f0c-2b_A9"));
        assert!(!is_safe_id(b""));
        assert!(!is_safe_id(b"a\nFAKE LOG LINE"));
        assert!(!is_safe_id(&[b'a'; 65]));
    }
}
