//! Reading one's own writes with a replica: an organizer who has just
//! written through their link (a favourite, a comment) reads their page
//! from the primary for a short while, so the page they are sent back to
//! shows what they wrote even when the replica lags. Everyone else's
//! openings read the replica.
//!
//! A successful write through a catalogue link answers with a short-lived
//! cookie, scoped to the organizer pages; a page request carrying it reads
//! the primary. The cookie holds no secret, only the fact.
use super::form_errors::short_lived_cookie;
use axum::http::{header, HeaderMap, Method};
use axum::response::Response;

const COOKIE: &str = "maxy_link_wrote";

/// Longer than any replica lag worth serving pages through.
const WINDOW_SECS: i64 = 30;

/// The organizer's writes through their link (server functions).
const WRITE_PREFIX: &str = "/api/links/catalogue/";

/// A write through a catalogue link: what [`mark`] follows.
pub fn is_link_write(method: &Method, path: &str) -> bool {
    method == Method::POST && path.starts_with(WRITE_PREFIX)
}

/// The request comes from someone who wrote through their link within the
/// window: read the primary.
pub fn wrote_recently(headers: &HeaderMap) -> bool {
    crate::request_cookies::named(headers, COOKIE)
        .next()
        .is_some()
}

/// Marks a successful write's response (a 2xx, or the 303 back to the
/// page of a form posted without JavaScript). `secure`: the app is served
/// over https (`AuthSettings::secure_cookies`).
pub fn mark(response: &mut Response, secure: bool) {
    let status = response.status();
    if !(status.is_success() || status.is_redirection()) {
        return;
    }
    if let Some(cookie) = short_lived_cookie(COOKIE, "1", "/c/", WINDOW_SECS, secure) {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::{HeaderValue, StatusCode};
    use axum::response::IntoResponse;

    #[test]
    fn only_successful_link_writes_are_marked_and_the_mark_is_read_back() {
        assert!(is_link_write(
            &Method::POST,
            "/api/links/catalogue/favorite"
        ));
        assert!(!is_link_write(
            &Method::GET,
            "/api/links/catalogue/favorite"
        ));
        assert!(!is_link_write(&Method::POST, "/api/links/catalogue"));
        assert!(!is_link_write(&Method::POST, "/api/requests/save"));

        let mut refused = StatusCode::FORBIDDEN.into_response();
        mark(&mut refused, false);
        assert!(refused.headers().get(header::SET_COOKIE).is_none());

        let mut done = StatusCode::SEE_OTHER.into_response();
        mark(&mut done, false);
        let set = done.headers()[header::SET_COOKIE].to_str().unwrap();
        assert!(set.starts_with("maxy_link_wrote=1;"), "{set}");
        assert!(
            set.contains("Path=/c/") && set.contains("Max-Age=30"),
            "{set}"
        );
        assert!(set.contains("HttpOnly") && !set.contains("Secure"), "{set}");
        let mut over_tls = StatusCode::OK.into_response();
        mark(&mut over_tls, true);
        assert!(over_tls.headers()[header::SET_COOKIE]
            .to_str()
            .unwrap()
            .contains("Secure"));

        let mut headers = HeaderMap::new();
        assert!(!wrote_recently(&headers));
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("a=b; maxy_link_wrote=1"),
        );
        assert!(wrote_recently(&headers));
    }
}
