//! « Enregistré » after a form posted without JavaScript.
//!
//! Every form outside an island (ADR 0038) posts to its server function and
//! Leptos redirects the browser back to the page, which then has no answer
//! to show. When such a post succeeds, this layer sets a short-lived cookie
//! naming the server function (`app::pages::FORM_DONE_COOKIE`); the page
//! shows that form's confirmation (`app::pages::posted_to`), and the page's
//! response clears the cookie, so it is said once. A cookie, not the URL: a
//! link from elsewhere cannot make a page claim something was saved.
use super::errors::accepts_html;
use super::form_errors::short_lived_cookie;
use crate::state::AppState;
use app::pages::FORM_DONE_COOKIE;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method};
use axum::middleware::Next;
use axum::response::Response;

/// Where Leptos mounts the server functions.
const SERVER_FN_PREFIX: &str = "/api/";
/// Long enough to follow the redirect.
const LIFETIME_SECS: i64 = 60;

pub async fn confirm_plain_posts(
    State(state): State<AppState>,
    request: Request<Body>,
    next: Next,
) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let plain_form = accepts_html(request.headers());
    let carries_cookie = has_cookie(request.headers());
    let mut response = next.run(request).await;
    let secure = state.config.auth.secure_cookies();
    if method == Method::POST
        && plain_form
        && path.starts_with(SERVER_FN_PREFIX)
        && response.status().is_redirection()
        && !redirects_with_error(response.headers())
    {
        set_cookie(&mut response, &path, LIFETIME_SECS, secure);
    } else if method == Method::GET && carries_cookie && is_html(response.headers()) {
        // The page that showed the confirmation: once is enough.
        set_cookie(&mut response, "", 0, secure);
    }
    response
}

fn has_cookie(headers: &HeaderMap) -> bool {
    crate::request_cookies::named(headers, FORM_DONE_COOKIE)
        .next()
        .is_some()
}

/// A refused post comes back with `__err` in its address (form_errors.rs).
fn redirects_with_error(headers: &HeaderMap) -> bool {
    headers
        .get(header::LOCATION)
        .and_then(|l| l.to_str().ok())
        .and_then(|l| l.split_once('?'))
        .is_some_and(|(_, query)| {
            form_urlencoded::parse(query.as_bytes()).any(|(key, _)| key == "__err")
        })
}

fn is_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"))
}

fn set_cookie(response: &mut Response, value: &str, max_age_secs: i64, secure: bool) {
    if let Some(cookie) = short_lived_cookie(FORM_DONE_COOKIE, value, "/", max_age_secs, secure) {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(name.clone(), HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn a_refused_post_is_not_said_done() {
        assert!(redirects_with_error(&headers(&[(
            header::LOCATION,
            "/memoire?__path=%2Fapi%2Fx&__err=abc"
        )])));
        assert!(!redirects_with_error(&headers(&[(
            header::LOCATION,
            "/memoire"
        )])));
        assert!(!redirects_with_error(&headers(&[(
            header::LOCATION,
            "/memoire?q=err"
        )])));
    }

    #[test]
    fn only_a_browser_navigation_is_a_plain_form() {
        assert!(accepts_html(&headers(&[(
            header::ACCEPT,
            "text/html,application/xhtml+xml;q=0.9"
        )])));
        assert!(!accepts_html(&headers(&[(
            header::ACCEPT,
            "application/json"
        )])));
        assert!(!accepts_html(&HeaderMap::new()));
    }

    #[test]
    fn the_cookie_is_found_among_others() {
        assert!(has_cookie(&headers(&[(
            header::COOKIE,
            "a=1; maxy_form_done=/api/memory/add"
        )])));
        assert!(!has_cookie(&headers(&[(header::COOKIE, "a=1")])));
    }
}
