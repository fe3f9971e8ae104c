//! Marks page requests that come from another site.
//!
//! `SameSite=Lax` sends the session cookie on a top-level GET from anywhere,
//! so a link on another site can make a signed-in browser open any page of
//! ours. Pages must not do costly work on such a visit: the marker
//! ([`app::auth::CrossSiteNavigation`]) tells them (the venue search then
//! shows its form filled in, with a button, instead of running).
use crate::state::AppState;
use app::auth::CrossSiteNavigation;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method};
use axum::middleware::Next;
use axum::response::Response;

pub async fn mark_cross_site(
    State(state): State<AppState>,
    mut request: Request<Body>,
    next: Next,
) -> Response {
    let public_url = state.config.auth.public_url.as_deref();
    if matches!(*request.method(), Method::GET | Method::HEAD)
        && is_cross_site(request.headers(), public_url)
    {
        request.extensions_mut().insert(CrossSiteNavigation);
    }
    next.run(request).await
}

/// `Sec-Fetch-Site` when the browser sends it (`same-site` counts as another
/// site: a sibling sub-domain is not us); otherwise an `Origin` or `Referer`
/// naming another host. A request with none of them (typed URL, bookmark, an
/// old client) is not marked.
pub fn is_cross_site(headers: &HeaderMap, public_url: Option<&str>) -> bool {
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(site) = text(header::HeaderName::from_static("sec-fetch-site")) {
        return matches!(site, "cross-site" | "same-site");
    }
    let Some(from) = text(header::ORIGIN).or_else(|| text(header::REFERER)) else {
        return false;
    };
    let from = authority(from);
    let host = text(header::HOST);
    let public = public_url.and_then(authority);
    from.is_none() || (from != host && from != public)
}

/// `host[:port]` of `scheme://host[:port]/…`.
fn authority(url: &str) -> Option<&str> {
    let (_, rest) = url.split_once("://")?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Some(&rest[..end]).filter(|a| !a.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_static("127.0.0.1:3000"));
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn navigations_from_elsewhere_are_marked() {
        for cross in [
            headers(&[("sec-fetch-site", "cross-site")]),
            headers(&[("sec-fetch-site", "same-site")]),
            headers(&[("referer", "https://evil.example/page")]),
            headers(&[("origin", "https://evil.example")]),
            headers(&[("origin", "null")]),
        ] {
            assert!(is_cross_site(&cross, None), "{cross:?}");
        }
        for own in [
            headers(&[]),
            headers(&[("sec-fetch-site", "same-origin")]),
            headers(&[("sec-fetch-site", "none")]),
            headers(&[("referer", "http://127.0.0.1:3000/lieux?q=x")]),
        ] {
            assert!(!is_cross_site(&own, None), "{own:?}");
        }
        let proxied = headers(&[("referer", "https://maxy.example.org/chat")]);
        assert!(!is_cross_site(&proxied, Some("https://maxy.example.org")));
    }
}
