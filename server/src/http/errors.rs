//! The one place where failed requests are logged.
//!
//! Handlers and middleware return an `AppError` (it travels in the
//! response's extensions); server functions and pages report theirs to the
//! request's `ErrorSlot`. This layer, inside the request span (so every line
//! carries `request.id`), logs the error once with `duration_ms`: its cause
//! at `error` level for a 500, `warn` for a 503, and a short `info` line for
//! a refusal. Call sites never log what they return, so nothing is logged
//! twice or forgotten.
use app::errors::http::{attach, ErrorSlot};
use app::errors::AppError;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use std::time::Instant;

pub async fn log_errors(mut request: Request<Body>, next: Next) -> Response {
    let started = Instant::now();
    let slot = ErrorSlot::default();
    request.extensions_mut().insert(slot.clone());
    let mut response = next.run(request).await;
    let duration_ms = started.elapsed().as_millis() as u64;
    let error = response.extensions_mut().remove::<AppError>();
    match error.or_else(|| slot.take()) {
        Some(error) => log(&error, response.status(), duration_ms),
        // A 500 nobody described (a panic caught upstream, a framework
        // error): still one line, so it cannot pass unseen.
        None if response.status().is_server_error() => {
            let status = response.status().as_u16();
            tracing::error!(status, duration_ms, "request failed")
        }
        None => {}
    }
    response
}

/// The level follows the error (a page may show a 500 inline and still
/// answer 200); `status` is what the response said.
fn log(error: &AppError, status: StatusCode, duration_ms: u64) {
    let status = status.as_u16();
    let code = error.code();
    match (error.status_code(), error.cause()) {
        (503, Some(cause)) => {
            tracing::warn!(status, duration_ms, error.code = code, error.cause = %cause, "request failed")
        }
        (_, Some(cause)) => {
            tracing::error!(status, duration_ms, error.code = code, error.cause = %cause, "request failed")
        }
        (500.., None) => tracing::error!(status, duration_ms, error.code = code, "request failed"),
        (_, None) => tracing::info!(status, duration_ms, error.code = code, "request refused"),
    }
}

/// The error as a small French HTML page (full page loads of the site).
pub fn html_page(error: AppError) -> Response {
    let body = format!(
        "<!DOCTYPE html><html lang=\"fr\"><head><meta charset=\"utf-8\"><title>{title} · Maxy</title></head>\
         <body><h1>{title}</h1><p>{message}</p><p><a href=\"/\">Retour à l'accueil</a></p></body></html>",
        title = match error.status_code() {
            401 | 403 => "Accès refusé",
            400..=499 => "Requête refusée",
            _ => "Erreur",
        },
        message = error,
    );
    attach((error.status(), Html(body)).into_response(), error)
}

/// A browser's page load or plain form post (no JavaScript), rather than a
/// client that reads JSON.
pub fn accepts_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("text/html"))
}

/// The error in the shape the caller asked for: a page for a browser's
/// page load or plain form post, JSON for everything else (a refusal made
/// before any route is chosen, from the request's headers alone).
pub fn for_caller(headers: &HeaderMap, error: AppError) -> Response {
    if accepts_html(headers) {
        html_page(error)
    } else {
        json(error)
    }
}

/// The error as `{"error": code, "message": …}`: what server functions send,
/// so their clients decode it, and what JSON clients of server routes get.
pub fn json(error: AppError) -> Response {
    attach((error.status(), Json(error.clone())).into_response(), error)
}
