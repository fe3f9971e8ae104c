//! CSRF protection for every state-changing request (POST, PUT, PATCH,
//! DELETE): the browser must say the request comes from our own pages,
//! through `Sec-Fetch-Site` (modern browsers) or `Origin`. A request with
//! neither is refused: every browser sends one of them on a POST.
//!
//! When `MAXY_PUBLIC_URL` is set, an `Origin` must match its scheme, host and
//! port exactly, and the `Host` header is not consulted: behind a proxy it
//! says nothing about the address the browser used.
use super::paths::loggable;
use crate::state::AppState;
use app::errors::AppError;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, Method};
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
    tracing::warn!(path = %loggable(request.uri().path()), "refused a cross-site state-changing request");
    AppError::CrossSite.into_response()
}

fn is_same_origin(request: &Request<Body>, public_url: Option<&str>) -> bool {
    let headers = request.headers();
    let header = |name| headers.get(name).and_then(|v| v.to_str().ok());
    let fetch_site = header("sec-fetch-site");
    if fetch_site.is_some_and(|site| site != "same-origin" && site != "none") {
        return false;
    }
    let origin = header(header::ORIGIN.as_str());
    match (public_url, origin) {
        (Some(public), Some(origin)) => {
            Origin::parse(origin).is_some_and(|o| Some(o) == Origin::parse(public))
        }
        // Without a public URL, the browser's own `Sec-Fetch-Site` is enough
        // (a proxy may have rewritten `Host`); else `Origin` must name `Host`.
        (None, Some(origin)) if fetch_site.is_none() => {
            let host = header(header::HOST.as_str());
            Origin::parse(origin).is_some_and(|o| host.is_some_and(|h| o.authority_is(h)))
        }
        (_, _) => fetch_site.is_some(),
    }
}

/// `scheme://host[:port]`, with the scheme's default port made explicit.
#[derive(Debug, PartialEq, Eq)]
struct Origin {
    scheme: String,
    host: String,
    port: u16,
}

impl Origin {
    fn parse(url: &str) -> Option<Origin> {
        let (scheme, rest) = url.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        let authority = &rest[..rest.find('/').unwrap_or(rest.len())];
        if authority.is_empty() || authority.contains('@') {
            return None;
        }
        let default_port = match scheme.as_str() {
            "http" => 80,
            "https" => 443,
            _ => return None,
        };
        // `[::1]:3000` keeps its brackets; the port is after the last `:`
        // that follows them.
        let (host, port) = match authority.rfind(':') {
            Some(i) if !authority[i..].contains(']') => {
                (&authority[..i], authority[i + 1..].parse().ok()?)
            }
            _ => (authority, default_port),
        };
        Some(Origin {
            scheme,
            host: host.to_ascii_lowercase(),
            port,
        })
    }

    /// Whether a `Host` header names this origin's host and port.
    fn authority_is(&self, host: &str) -> bool {
        Origin::parse(&format!("{}://{host}", self.scheme)).as_ref() == Some(self)
    }
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

    #[test]
    fn with_a_public_url_the_origin_must_match_it_exactly() {
        let public = Some("https://maxy.example.org");
        let from = |origin: &str, host: &str| post(&[("host", host), ("origin", origin)]);
        for origin in [
            "https://maxy.example.org",
            "https://maxy.example.org:443",
            "HTTPS://Maxy.Example.org",
        ] {
            assert!(
                is_same_origin(&from(origin, "10.0.0.5:3000"), public),
                "{origin}"
            );
        }
        for origin in [
            "http://maxy.example.org",
            "https://maxy.example.org:8443",
            "https://maxy.example.org.evil.example",
            "https://evil.example",
            "https://user@maxy.example.org",
        ] {
            assert!(
                !is_same_origin(&from(origin, "maxy.example.org"), public),
                "{origin}"
            );
        }
        // The Host header is no fallback once the public URL is known.
        assert!(!is_same_origin(
            &from("http://10.0.0.5:3000", "10.0.0.5:3000"),
            public
        ));
        // Sec-Fetch-Site never overrides a mismatching Origin.
        assert!(!is_same_origin(
            &post(&[
                ("sec-fetch-site", "same-origin"),
                ("origin", "https://evil.example")
            ]),
            public
        ));
    }

    #[test]
    fn without_a_public_url_the_host_port_counts() {
        let from = |origin: &str| post(&[("host", "127.0.0.1:3000"), ("origin", origin)]);
        assert!(!is_same_origin(&from("http://127.0.0.1:3001"), None));
        assert!(!is_same_origin(&from("http://127.0.0.1"), None));
        assert!(is_same_origin(
            &post(&[("host", "maxy.local"), ("origin", "http://maxy.local:80")]),
            None
        ));
    }
}
