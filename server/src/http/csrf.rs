//! CSRF protection for every state-changing request (POST, PUT, PATCH,
//! DELETE): the browser must say the request comes from our own pages,
//! through `Sec-Fetch-Site` (modern browsers) or `Origin`. A request with
//! neither is refused: every browser sends one of them on a POST.
//!
//! An `Origin`, when there is one, must name this server exactly, whatever
//! `Sec-Fetch-Site` says (a browser never sends a foreign `Origin` with
//! `same-origin`): when `MAXY_PUBLIC_URL` is set, its scheme, host and port,
//! and the `Host` header is not consulted (behind a proxy it says nothing
//! about the address the browser used); without it, `http://` and the `Host`
//! header, since this server speaks plain HTTP (behind a TLS proxy, set
//! `MAXY_PUBLIC_URL`). An origin has no path, and a request that repeats
//! `Origin`, `Sec-Fetch-Site` or `Host` is refused: no browser sends two.
//!
//! A plain form post (no JavaScript) to a server function is answered with a
//! redirect to its `Referer`: a `Referer` that names another site is dropped,
//! so that the redirect stays on this site.
use super::paths::loggable;
use crate::state::AppState;
use app::errors::AppError;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

pub async fn require_same_origin(
    State(state): State<AppState>,
    mut request: Request<Body>,
    next: Next,
) -> Response {
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    let public_url = state.config.auth.public_url.as_deref();
    if safe {
        return next.run(request).await;
    }
    if is_same_origin(&request, public_url) {
        keep_own_referer(&mut request, public_url);
        return next.run(request).await;
    }
    tracing::warn!(path = %loggable(request.uri().path()), "refused a cross-site state-changing request");
    AppError::CrossSite.into_response()
}

fn is_same_origin(request: &Request<Body>, public_url: Option<&str>) -> bool {
    let headers = request.headers();
    let (Some(fetch_site), Some(origin), Some(host)) = (
        single(headers, "sec-fetch-site"),
        single(headers, header::ORIGIN.as_str()),
        single(headers, header::HOST.as_str()),
    ) else {
        return false;
    };
    if fetch_site.is_some_and(|site| site != "same-origin" && site != "none") {
        return false;
    }
    match origin {
        Some(origin) => {
            let ours = own_origin(public_url, host);
            ours.is_some() && Origin::parse_header(origin) == ours
        }
        // No `Origin`: only a browser's own `Sec-Fetch-Site` vouches.
        None => fetch_site.is_some(),
    }
}

/// The header's one value (`Some(None)` when absent); `None` when it is
/// repeated or not text, which no browser sends.
fn single<'a>(headers: &'a HeaderMap, name: &str) -> Option<Option<&'a str>> {
    let mut values = headers.get_all(name).iter();
    match (values.next(), values.next()) {
        (None, _) => Some(None),
        (Some(value), None) => value.to_str().ok().map(Some),
        (Some(_), Some(_)) => None,
    }
}

/// This server's origin as browsers name it: the public URL's, else plain
/// HTTP on the `Host` the request was sent to.
fn own_origin(public_url: Option<&str>, host: Option<&str>) -> Option<Origin> {
    match public_url {
        Some(public) => Origin::parse_url(public),
        None => Origin::parse_header(&format!("http://{}", host?)),
    }
}

/// Keeps the request's `Referer` only when it names a page of this site:
/// the server function then redirects there (it needs the whole URL to add
/// an error to its query), never elsewhere.
fn keep_own_referer(request: &mut Request<Body>, public_url: Option<&str>) {
    let headers = request.headers();
    let ours = match single(headers, header::REFERER.as_str()) {
        Some(None) => return,
        Some(Some(referer)) => {
            let host = single(headers, header::HOST.as_str()).flatten();
            own_origin(public_url, host).is_some_and(|own| {
                url_origin(referer).and_then(Origin::parse_header).as_ref() == Some(&own)
            })
        }
        None => false,
    };
    if !ours {
        request.headers_mut().remove(header::REFERER);
    }
}

/// The `scheme://authority` part of an absolute URL; `None` when what
/// follows it is not a path, a query or nothing.
fn url_origin(url: &str) -> Option<&str> {
    let authority_start = url.find("://")? + 3;
    let end = url[authority_start..]
        .find(['/', '?', '#', '\\'])
        .map_or(url.len(), |i| authority_start + i);
    let rest = &url[end..];
    let sane = rest.is_empty()
        || (rest.starts_with(['/', '?', '#']) && !rest.starts_with("//") && !rest.contains('\\'));
    sane.then_some(&url[..end])
}

/// `scheme://host[:port]`, with the scheme's default port made explicit.
#[derive(Debug, PartialEq, Eq)]
struct Origin {
    scheme: String,
    host: String,
    port: u16,
}

impl Origin {
    /// An `Origin` header: exactly `scheme://host[:port]`, nothing after.
    fn parse_header(origin: &str) -> Option<Origin> {
        let (_, authority) = origin.split_once("://")?;
        if authority.contains(['/', '?', '#']) {
            return None;
        }
        Origin::parse_url(origin)
    }

    /// The origin of a configured URL (which may end with a path).
    fn parse_url(url: &str) -> Option<Origin> {
        let (scheme, rest) = url.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
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

    #[test]
    fn what_no_browser_sends_is_refused() {
        let host = ("host", "127.0.0.1:3000");
        // This server speaks plain HTTP: an https origin is not ours.
        assert!(!is_same_origin(
            &post(&[host, ("origin", "https://127.0.0.1:3000")]),
            None
        ));
        // A foreign Origin beside `same-origin`, with or without a public URL.
        for public in [None, Some("http://127.0.0.1:3000")] {
            assert!(!is_same_origin(
                &post(&[
                    host,
                    ("sec-fetch-site", "same-origin"),
                    ("origin", "https://evil.example")
                ]),
                public
            ));
        }
        // An origin has no path, no query, no fragment.
        for origin in [
            "http://127.0.0.1:3000/path",
            "http://127.0.0.1:3000/",
            "http://127.0.0.1:3000?x",
        ] {
            assert!(
                !is_same_origin(&post(&[host, ("origin", origin)]), None),
                "{origin}"
            );
        }
        // Two Origin (or Sec-Fetch-Site, or Host) headers.
        let ours = ("origin", "http://127.0.0.1:3000");
        for repeated in [
            post(&[host, ours, ("origin", "https://evil.example")]),
            post(&[host, ("origin", "https://evil.example"), ours]),
            post(&[host, ours, ours]),
            post(&[
                host,
                ("sec-fetch-site", "same-origin"),
                ("sec-fetch-site", "cross-site"),
            ]),
            post(&[host, ("host", "evil.example"), ours]),
        ] {
            assert!(!is_same_origin(&repeated, None));
        }
        assert!(is_same_origin(&post(&[host, ours]), None));
    }

    #[test]
    fn only_a_referer_on_this_site_is_kept() {
        let host = ("host", "127.0.0.1:3000");
        let referer_after = |referer: &str, public: Option<&str>| {
            let mut request = post(&[host, ("referer", referer)]);
            keep_own_referer(&mut request, public);
            request
                .headers()
                .get(header::REFERER)
                .map(|v| v.to_str().unwrap().to_string())
        };
        for own in [
            "http://127.0.0.1:3000/memoire?q=x",
            "http://127.0.0.1:3000",
            "http://127.0.0.1:3000/c/abc#avis",
        ] {
            assert_eq!(referer_after(own, None).as_deref(), Some(own));
        }
        for foreign in [
            "https://evil.example/page",
            "https://127.0.0.1:3000/memoire",
            "http://127.0.0.1:3000@evil.example/",
            "http://127.0.0.1:3000\\@evil.example/",
            "http://127.0.0.1:3000//evil.example/",
            "/memoire",
            "null",
        ] {
            assert_eq!(referer_after(foreign, None), None, "{foreign}");
        }
        let public = Some("https://maxy.example.org");
        assert_eq!(
            referer_after("https://maxy.example.org/demandes/3", public).as_deref(),
            Some("https://maxy.example.org/demandes/3")
        );
        assert_eq!(
            referer_after("http://127.0.0.1:3000/demandes/3", public),
            None
        );
    }
}
