//! CSRF protection for every state-changing request (POST, PUT, PATCH,
//! DELETE): the browser must say the request comes from our own pages,
//! through `Sec-Fetch-Site` (modern browsers) or `Origin`. A request with
//! neither is refused: every browser sends one of them on a POST.
use crate::state::AppState;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

pub async fn require_same_origin(
    State(state): State<AppState>,
    request: Request<Body>,
    next: Next,
) -> Response {
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if safe || is_same_origin(&request, state.config.auth.public_url.as_deref()) {
        return next.run(request).await;
    }
    tracing::warn!(path = %request.uri().path(), "refused a cross-site state-changing request");
    (
        StatusCode::FORBIDDEN,
        "Requête refusée : elle ne vient pas d'une page de Maxy.",
    )
        .into_response()
}

fn is_same_origin(request: &Request<Body>, public_url: Option<&str>) -> bool {
    let headers = request.headers();
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        return site == "same-origin" || site == "none";
    }
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let origin_authority = authority(origin);
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let public = public_url.and_then(authority);
    origin_authority.is_some() && (origin_authority == host || origin_authority == public)
}

/// `host[:port]` of `scheme://host[:port]`.
fn authority(url: &str) -> Option<&str> {
    let (_, rest) = url.split_once("://")?;
    let end = rest.find('/').unwrap_or(rest.len());
    Some(&rest[..end]).filter(|a| !a.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(headers: &[(&str, &str)]) -> Request<Body> {
        let mut builder = Request::post("/connexion");
        for (k, v) in headers {
            builder = builder.header(*k, *v);
        }
        builder.body(Body::empty()).unwrap()
    }

    #[test]
    fn same_origin_requests_pass_and_cross_site_ones_do_not() {
        assert!(is_same_origin(
            &post(&[("sec-fetch-site", "same-origin")]),
            None
        ));
        assert!(!is_same_origin(
            &post(&[("sec-fetch-site", "cross-site")]),
            None
        ));
        assert!(!is_same_origin(
            &post(&[("sec-fetch-site", "same-site")]),
            None
        ));
        assert!(is_same_origin(
            &post(&[
                ("host", "127.0.0.1:3000"),
                ("origin", "http://127.0.0.1:3000")
            ]),
            None
        ));
        assert!(!is_same_origin(
            &post(&[
                ("host", "127.0.0.1:3000"),
                ("origin", "https://evil.example")
            ]),
            None
        ));
        assert!(!is_same_origin(
            &post(&[("host", "127.0.0.1:3000"), ("origin", "null")]),
            None
        ));
        assert!(
            !is_same_origin(&post(&[("host", "127.0.0.1:3000")]), None),
            "no header at all"
        );
        let behind_proxy = post(&[
            ("host", "10.0.0.5:3000"),
            ("origin", "https://maxy.example.org"),
        ]);
        assert!(is_same_origin(
            &behind_proxy,
            Some("https://maxy.example.org")
        ));
    }
}
