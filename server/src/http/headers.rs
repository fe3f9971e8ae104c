//! Security headers on every response.
//!
//! Fixed ones come from `tower-http`'s `SetResponseHeaderLayer`:
//! `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY` (for browsers
//! that predate `frame-ancestors`), `Referrer-Policy: same-origin` (magic-link
//! tokens live in URLs), and HSTS when `MAXY_PUBLIC_URL` is https.
//!
//! The Content-Security-Policy needs one value per response: it allows only
//! our own scripts plus the inline ones carrying this response's nonce. Leptos
//! writes its hydration script and its streamed resource data as inline
//! scripts and stamps them with the nonce it finds in context, so
//! [`document_policy`] draws the nonce, hands it to Leptos through the request
//! ([`provide_request_nonce`]) and sends the matching header.
//!
//! Everything but static assets is `Cache-Control: no-store`: team pages and
//! link pages hold data that must not outlive the session in a shared cache
//! or the browser's history.
use super::middleware::is_static;
use crate::config::AuthSettings;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue};
use axum::middleware::{from_fn, Next};
use axum::response::Response;
use axum::Router;
use tower::util::option_layer;
use tower_http::set_header::SetResponseHeaderLayer;

/// This response's CSP nonce, in the request's extensions.
#[derive(Clone, Debug)]
pub struct CspNonce(pub String);

/// Adds every security header to `router`'s responses.
pub fn with_security_headers<S>(router: Router<S>, settings: &AuthSettings) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    let hsts = settings.secure_cookies().then(|| {
        SetResponseHeaderLayer::overriding(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000"),
        )
    });
    router
        .layer(from_fn(document_policy))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        .layer(option_layer(hsts))
}

/// The policy of a response whose inline scripts carry `nonce`.
///
/// `'wasm-unsafe-eval'` lets the page compile its WebAssembly (and nothing
/// else: `eval` stays forbidden); the bundle itself loads from `'self'`.
pub fn content_security_policy(nonce: &str) -> String {
    format!(
        "default-src 'self'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; \
         style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
         object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// Draws the nonce, runs the request, then sets the CSP and the cache policy.
pub async fn document_policy(mut request: Request<Body>, next: Next) -> Response {
    // Without randomness no inline script may run: the pages still work,
    // unhydrated (they are built to work without JavaScript).
    let nonce = crate::auth::tokens::random_token().unwrap_or_default();
    let cacheable = is_static(request.uri().path());
    request.extensions_mut().insert(CspNonce(nonce.clone()));
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    let policy = if nonce.is_empty() {
        content_security_policy("none").replace(" 'nonce-none'", "")
    } else {
        content_security_policy(&nonce)
    };
    if let Ok(value) = HeaderValue::from_str(&policy) {
        headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
    if !cacheable {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// Gives Leptos this request's nonce, so the inline scripts it writes carry
/// the one the CSP header names. Called where the server provides the
/// rendering context of a page.
pub fn provide_request_nonce() {
    use leptos::prelude::{provide_context, use_context};
    let nonce = use_context::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<CspNonce>().cloned());
    if let Some(CspNonce(nonce)) = nonce.filter(|n| !n.0.is_empty()) {
        provide_context(leptos::nonce::Nonce::from_value(nonce));
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_policy_forbids_framing_plugins_and_foreign_scripts() {
        let csp = super::content_security_policy("abc");
        assert!(csp.contains("frame-ancestors 'none'"));
        assert!(csp.contains("script-src 'self' 'nonce-abc' 'wasm-unsafe-eval';"));
        assert!(csp.contains("object-src 'none'"));
        assert!(!csp.contains("unsafe-inline"));
        assert!(!csp.contains("'unsafe-eval'"));
    }
}
