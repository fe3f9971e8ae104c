//! Per-request authentication, the page guard, and the magic-link rate limit.
use crate::auth::{sessions, tokens};
use crate::state::AppState;
use app::auth::access::{require_role, Denied};
use app::auth::SessionUser;
use app::routes::{page_access, Access};
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Redirect, Response};
use std::net::{IpAddr, SocketAddr};

/// Paths that never need to know the caller (no session lookup).
fn is_static(path: &str) -> bool {
    path.starts_with("/pkg/")
        || matches!(
            path,
            "/healthz" | "/readyz" | "/favicon.svg" | "/favicon.ico"
        )
}

/// Looks the session cookie up and, when it is live, puts the
/// [`SessionUser`] in the request's extensions for everything downstream.
pub async fn authenticate(
    State(state): State<AppState>,
    mut request: Request<Body>,
    next: Next,
) -> Response {
    if !is_static(request.uri().path()) {
        if let Some(token) = sessions::token_from(request.headers()) {
            let ttl = state.config.auth.session_ttl;
            match crate::db::sessions::user_for(&state.db, &tokens::hash(&token), ttl).await {
                Ok(Some(user)) => {
                    request.extensions_mut().insert(user);
                }
                Ok(None) => {}
                Err(e) => tracing::error!(error = %e, "session lookup failed"),
            }
        }
    }
    next.run(request).await
}

/// Pages of the team need a signed-in user with the right role: anonymous
/// visitors are sent to the sign-in page, others get a 403 page.
pub async fn guard_pages(request: Request<Body>, next: Next) -> Response {
    if !matches!(*request.method(), Method::GET | Method::HEAD) {
        return next.run(request).await;
    }
    let path = request.uri().path();
    let user = request.extensions().get::<SessionUser>().cloned();
    match page_access(path) {
        Some(Access::Signed(role)) => match require_role(user, role) {
            Ok(_) => next.run(request).await,
            Err(Denied::SignInRequired) => {
                let wanted = request
                    .uri()
                    .path_and_query()
                    .map(|pq| pq.as_str())
                    .unwrap_or("/");
                Redirect::to(&format!("/connexion?suivant={}", url_encode(wanted))).into_response()
            }
            Err(denied) => forbidden_page(denied),
        },
        // Already signed in: the sign-in page has nothing to offer.
        Some(Access::Public) if path == "/connexion" && user.is_some() => {
            Redirect::to("/").into_response()
        }
        _ => next.run(request).await,
    }
}

fn forbidden_page(denied: Denied) -> Response {
    let body = format!(
        "<!DOCTYPE html><html lang=\"fr\"><head><meta charset=\"utf-8\"><title>Accès refusé · Maxy</title></head>\
         <body><h1>Accès refusé</h1><p>{}</p><p><a href=\"/\">Retour à l'accueil</a></p></body></html>",
        denied.message()
    );
    (denied.status(), Html(body)).into_response()
}

/// Magic-link pages and their data calls are rate-limited per client address:
/// tokens cannot be guessed, but they should not even be tried at speed.
pub async fn limit_links(
    State(state): State<AppState>,
    request: Request<Body>,
    next: Next,
) -> Response {
    let path = request.uri().path();
    let is_link =
        path.starts_with("/c/") || path.starts_with("/v/") || path.starts_with("/api/links/");
    if is_link && !state.rate_limits.allow_link(client_ip(&request)) {
        let denied = Denied::TooManyRequests;
        return (
            denied.status(),
            [(header::RETRY_AFTER, "60")],
            denied.message(),
        )
            .into_response();
    }
    next.run(request).await
}

/// The client's address as the socket saw it (no proxy headers are trusted).
pub fn client_ip(request: &Request<Body>) -> IpAddr {
    request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip())
        .unwrap_or(IpAddr::from([0, 0, 0, 0]))
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
