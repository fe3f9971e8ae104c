//! Per-request authentication, the page and server-function guard, and the
//! magic-link rate limit.
use super::errors;
use crate::auth::{sessions, tokens};
use crate::state::AppState;
use app::auth::access::require_role;
use app::auth::SessionUser;
use app::errors::AppError;
use app::routes::{page_access, server_fn_access, Access};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use std::net::IpAddr;

/// Paths that never need to know the caller (no session lookup).
pub fn is_static(path: &str) -> bool {
    path.starts_with("/pkg/")
        || matches!(
            path,
            "/healthz" | "/readyz" | "/favicon.svg" | "/favicon.ico"
        )
}

/// Looks the session cookie up and, when it is live, puts the
/// [`SessionUser`] in the request's extensions for everything downstream.
/// A database that does not answer is a 503: never "signed out", which would
/// send a signed-in user to the sign-in page for an outage.
pub async fn authenticate(
    State(state): State<AppState>,
    mut request: Request<Body>,
    next: Next,
) -> Response {
    if !is_static(request.uri().path()) {
        let auth = &state.config.auth;
        if let Some(token) = sessions::token_from(request.headers(), auth) {
            let (ttl, max_age) = (auth.session_ttl, auth.session_max_age);
            let hash = tokens::hash(&token);
            match crate::db::sessions::user_for(&state.db, &hash, ttl, max_age).await {
                Ok(Some(user)) => {
                    request.extensions_mut().insert(user);
                }
                Ok(None) => {}
                Err(e) => return refusal(request.uri().path(), crate::db::app_error(e)),
            }
        }
    }
    next.run(request).await
}

/// Pages of the team need a signed-in user with the right role: anonymous
/// visitors are sent to the sign-in page, others get a 403 page. Server
/// functions need a signed-in caller unless `app::routes` lists them as
/// public or magic-link ones: anonymous calls are refused before their
/// arguments are read.
pub async fn guard(request: Request<Body>, next: Next) -> Response {
    let path = request.uri().path();
    let user = request.extensions().get::<SessionUser>().cloned();
    if path.starts_with("/api/") {
        return match server_fn_access(path) {
            Access::Signed(role) => match require_role(user, role) {
                Ok(_) => next.run(request).await,
                Err(refused) => errors::json(refused),
            },
            Access::Public | Access::MagicLink => next.run(request).await,
        };
    }
    if !matches!(*request.method(), Method::GET | Method::HEAD) {
        return next.run(request).await;
    }
    match page_access(path) {
        Some(Access::Signed(role)) => match require_role(user, role) {
            Ok(_) => next.run(request).await,
            Err(AppError::SignInRequired) => {
                let wanted = request
                    .uri()
                    .path_and_query()
                    .map(|pq| pq.as_str())
                    .unwrap_or("/");
                Redirect::to(&format!("/connexion?suivant={}", url_encode(wanted))).into_response()
            }
            Err(refused) => errors::html_page(refused),
        },
        // Already signed in: the sign-in page has nothing to offer.
        Some(Access::Public) if path == "/connexion" && user.is_some() => {
            Redirect::to("/").into_response()
        }
        _ => next.run(request).await,
    }
}

/// An error in the shape the caller reads: JSON for server functions, a
/// page for everything else.
fn refusal(path: &str, error: AppError) -> Response {
    if path.starts_with("/api/") {
        errors::json(error)
    } else {
        errors::html_page(error)
    }
}

/// Magic-link pages and their data calls are rate-limited per client address
/// block, on refusals only: tokens cannot be guessed, but they should not even
/// be tried at speed, while organizers and venues opening valid links (all
/// behind the same proxy, perhaps) are never held back. A refused link is a
/// 404 (`AppError::InvalidLink`): a request is counted when it ends in a 404.
pub async fn limit_links(
    State(state): State<AppState>,
    request: Request<Body>,
    next: Next,
) -> Response {
    let path = request.uri().path();
    let is_link =
        path.starts_with("/c/") || path.starts_with("/v/") || path.starts_with("/api/links/");
    if !is_link {
        return next.run(request).await;
    }
    let ip = client_ip(&request);
    if !state.link_limits.try_link(ip) {
        let mut refused = refusal(path, AppError::TooManyRequests);
        refused
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
        return refused;
    }
    let response = next.run(request).await;
    if response.status() == StatusCode::NOT_FOUND {
        state.link_limits.link_refused(ip);
    }
    response
}

/// The client's address: the socket's peer, or what trusted proxies say
/// (see [`super::client_addr`]).
pub fn client_ip(request: &Request<Body>) -> IpAddr {
    super::client_addr::of(request)
}

/// Percent-encodes everything but unreserved characters and `/`.
pub fn url_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn next_paths_are_encoded() {
        assert_eq!(
            super::url_encode("/lieux?q=a b&x=1"),
            "/lieux%3Fq%3Da%20b%26x%3D1"
        );
    }
}
