//! Error messages carried in a URL show only when this server put them there.
//!
//! A form posted without JavaScript that fails is redirected back to its
//! page with the error in the query (`__path`, `__err`: Leptos'
//! `ServerFnUrlError`), and the page shows it. Anyone can write such a URL,
//! so a link on another site could make one of our pages (the organizer's
//! catalogue, a venue's availability page) show a message of its author's
//! choosing. The redirect therefore carries a short-lived cookie holding a
//! MAC of the error it encodes; a page request whose `__err` has no
//! matching cookie is redirected to the same URL without it.
use crate::state::AppState;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use cookie::{Cookie, SameSite};
use sha2::{Digest, Sha256};

const COOKIE: &str = "maxy_form_error";
/// The MAC's purpose: a form error's token opens nothing else.
const PURPOSE: &str = "form-error";
/// Long enough to follow the redirect and reload once.
const LIFETIME_SECS: i64 = 120;
const ERROR_PARAMS: [&str; 2] = ["__err", "__path"];

pub async fn vouch_for_form_errors(
    State(state): State<AppState>,
    request: Request<Body>,
    next: Next,
) -> Response {
    let method = request.method().clone();
    if matches!(method, Method::GET | Method::HEAD) {
        if let Some(error) = query_error(request.uri().query()) {
            if !vouched(&request, &state, &error) {
                return redirect_without_error(request.uri());
            }
        }
        return next.run(request).await;
    }
    let mut response = next.run(request).await;
    if method == Method::POST && response.status().is_redirection() {
        let error = response
            .headers()
            .get(header::LOCATION)
            .and_then(|l| l.to_str().ok())
            .and_then(|l| query_error(l.split_once('?').map(|(_, q)| q)));
        if let Some(error) = error {
            let secure = state.config.auth.secure_cookies();
            let value = token(&state, &error);
            if let Some(cookie) = short_lived_cookie(COOKIE, &value, "/", LIFETIME_SECS, secure) {
                response.headers_mut().append(header::SET_COOKIE, cookie);
            }
        }
    }
    response
}

/// A cookie that follows one redirect (or a few seconds of pages): sent to
/// `path` and below, HttpOnly, SameSite=Lax, Secure behind TLS, gone after
/// `max_age_secs` (0 clears it).
pub(super) fn short_lived_cookie(
    name: &str,
    value: &str,
    path: &str,
    max_age_secs: i64,
    secure: bool,
) -> Option<HeaderValue> {
    let cookie = Cookie::build((name.to_string(), value.to_string()))
        .path(path.to_string())
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .max_age(cookie::time::Duration::seconds(max_age_secs))
        .build()
        .to_string();
    HeaderValue::from_str(&cookie).ok()
}

/// The `__err` value of a query, decoded.
fn query_error(query: Option<&str>) -> Option<String> {
    form_urlencoded::parse(query?.as_bytes())
        .find(|(key, _)| key == "__err")
        .map(|(_, value)| value.into_owned())
}

/// The cookie's value for `error`: a digest of it, signed.
fn token(state: &AppState, error: &str) -> String {
    state.signing_key.sign(PURPOSE, &digest(error))
}

fn digest(error: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(error.as_bytes()))
}

/// Whether the browser holds this server's token for exactly `error`.
fn vouched(request: &Request<Body>, state: &AppState, error: &str) -> bool {
    let expected = digest(error);
    crate::request_cookies::named(request.headers(), COOKIE).any(|c| {
        let token = c.value();
        token.split_once('.').is_some_and(|(d, _)| d == expected)
            && state.signing_key.verify(PURPOSE, token)
    })
}

/// The same path and query, less the error's two parameters.
fn redirect_without_error(uri: &axum::http::Uri) -> Response {
    let kept: Vec<(String, String)> =
        form_urlencoded::parse(uri.query().unwrap_or_default().as_bytes())
            .filter(|(key, _)| !ERROR_PARAMS.contains(&key.as_ref()))
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
    let mut location = uri.path().to_string();
    if !kept.is_empty() {
        location.push('?');
        location.push_str(
            &form_urlencoded::Serializer::new(String::new())
                .extend_pairs(kept)
                .finish(),
        );
    }
    match HeaderValue::from_str(&location) {
        Ok(value) => (StatusCode::SEE_OTHER, [(header::LOCATION, value)]).into_response(),
        Err(_) => StatusCode::BAD_REQUEST.into_response(),
    }
}
