//! The NUL character is refused at the edge, in every text a request carries.
//!
//! PostgreSQL stores no NUL in `text` or `jsonb`: a `%00` that reached a
//! query (a sign-in e-mail, a comment, a memory, a search) made it fail with
//! a 500, after which nothing was throttled or audited. No person types one,
//! so a request carrying one is refused (400, in French) before any handler
//! reads it: the query string of every request, and the body of form and
//! JSON posts. The sign-in form is the one exception: its handler refuses
//! the NUL itself, so that the attempt counts as a failed sign-in
//! (`auth_routes`).
use super::BODY_LIMIT;
use app::errors::AppError;
use axum::body::{to_bytes, Body};
use axum::extract::Request;
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::Response;
use serde_json::Value;

/// What a person reads when a text carried a NUL character.
pub const MESSAGE: &str = "Le texte envoyé contient un caractère invisible interdit \
     (caractère nul, souvent issu d'un copier-coller). Retirez-le puis réessayez.";

pub async fn refuse_nul_bytes(request: Request<Body>, next: Next) -> Response {
    let headers = request.headers().clone();
    let refuse = |error: AppError| super::errors::for_caller(&headers, error);
    if request.uri().query().is_some_and(form_has_nul) {
        return refuse(AppError::BadRequest(MESSAGE.into()));
    }
    let Some(kind) = body_kind(&request) else {
        return next.run(request).await;
    };
    let (parts, body) = request.into_parts();
    let Ok(bytes) = to_bytes(body, BODY_LIMIT).await else {
        return refuse(AppError::PayloadTooLarge);
    };
    let has_nul = match kind {
        BodyKind::Form => form_has_nul(&String::from_utf8_lossy(&bytes)),
        BodyKind::Json => json_has_nul(&bytes),
    };
    if has_nul {
        return refuse(AppError::BadRequest(MESSAGE.into()));
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

enum BodyKind {
    Form,
    Json,
}

/// The bodies that carry people's text: forms (server functions, plain form
/// posts) and JSON. The sign-in form is left to its handler.
fn body_kind(request: &Request<Body>) -> Option<BodyKind> {
    if matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) || request.uri().path() == "/connexion"
    {
        return None;
    }
    let content_type = request
        .headers()
        .get(header::CONTENT_TYPE)?
        .to_str()
        .ok()?
        .to_ascii_lowercase();
    if content_type.starts_with("application/x-www-form-urlencoded") {
        Some(BodyKind::Form)
    } else if content_type.starts_with("application/json") {
        Some(BodyKind::Json)
    } else {
        None
    }
}

/// Whether a URL-encoded form (or query string) has a NUL in a name or value,
/// raw or as `%00`.
pub fn form_has_nul(form: &str) -> bool {
    form.contains('\0')
        || form_urlencoded::parse(form.as_bytes())
            .any(|(k, v)| k.contains('\0') || v.contains('\0'))
}

/// Whether a JSON document has a NUL in a key or a string (`\u0000`). A body
/// that is not JSON is left to its handler, which says so.
fn json_has_nul(bytes: &[u8]) -> bool {
    fn walk(value: &Value) -> bool {
        match value {
            Value::String(s) => s.contains('\0'),
            Value::Array(items) => items.iter().any(walk),
            Value::Object(map) => map.iter().any(|(k, v)| k.contains('\0') || walk(v)),
            _ => false,
        }
    }
    bytes.contains(&0) || serde_json::from_slice::<Value>(bytes).is_ok_and(|v| walk(&v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nul_is_found_however_it_is_written() {
        assert!(form_has_nul("comment=Merci%00"));
        assert!(form_has_nul("a=1&b%00=2"));
        assert!(form_has_nul("q=x\0y"));
        assert!(!form_has_nul("comment=Merci%2500&x=%C3%A9"));
        assert!(!form_has_nul(""));
        assert!(json_has_nul(br#"{"text":"a\u0000b"}"#));
        assert!(json_has_nul(br#"{"a":[{"b\u0000":1}]}"#));
        assert!(json_has_nul(b"{\"text\":\"a\0b\"}"));
        // A backslash followed by `u0000` is text, not a NUL.
        assert!(!json_has_nul(br#"{"text":"a\\u0000b"}"#));
        assert!(!json_has_nul(b"not json"));
    }
}
