//! Every post of ours is a URL-encoded form: the pages' forms, and the
//! server functions, which Leptos sends and reads as forms. A body of any
//! other type was read as a form all the same, where a function whose
//! arguments are all optional took JSON, plain text or XML for a form with
//! every field empty (« clear my search preferences »). Such a body is
//! refused (400, in French) before any handler reads it; an empty post
//! (no length or a zero one) needs no type.
use app::errors::AppError;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderMap, Method};
use axum::middleware::Next;
use axum::response::Response;

/// What a client reads when its body is not a form.
pub const MESSAGE: &str =
    "Le format de la requête n'est pas pris en charge : envoyez un formulaire.";

pub async fn refuse_unread_bodies(request: Request<Body>, next: Next) -> Response {
    if *request.method() == Method::POST && !form_or_empty(request.headers()) {
        let error = AppError::BadRequest(MESSAGE.into());
        return super::errors::for_caller(request.headers(), error);
    }
    next.run(request).await
}

fn form_or_empty(headers: &HeaderMap) -> bool {
    match headers.get(header::CONTENT_TYPE) {
        Some(value) => value.to_str().is_ok_and(|v| {
            v.split(';').next().is_some_and(|essence| {
                essence
                    .trim()
                    .eq_ignore_ascii_case("application/x-www-form-urlencoded")
            })
        }),
        // No type: only without a body (no length or a zero one, nothing
        // chunked: HTTP/1.1 then has no body to read).
        None => {
            headers
                .get(header::CONTENT_LENGTH)
                .is_none_or(|l| l.as_bytes() == b"0")
                && !headers.contains_key(header::TRANSFER_ENCODING)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(header::HeaderName, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn forms_and_empty_posts_pass_other_bodies_do_not() {
        let form = header::CONTENT_TYPE;
        assert!(form_or_empty(&headers(&[(
            form.clone(),
            "application/x-www-form-urlencoded"
        )])));
        assert!(form_or_empty(&headers(&[(
            form.clone(),
            "Application/X-WWW-Form-Urlencoded; charset=UTF-8"
        )])));
        assert!(form_or_empty(&headers(&[(header::CONTENT_LENGTH, "0")])));
        for other in [
            "application/json",
            "text/plain",
            "multipart/form-data; boundary=x",
            "application/x-www-form-urlencodedx",
            "",
        ] {
            assert!(
                !form_or_empty(&headers(&[(form.clone(), other)])),
                "{other}"
            );
        }
        assert!(!form_or_empty(&headers(&[(header::CONTENT_LENGTH, "3")])));
        assert!(form_or_empty(&HeaderMap::new()));
        assert!(!form_or_empty(&headers(&[
            (header::CONTENT_LENGTH, "0"),
            (header::TRANSFER_ENCODING, "chunked")
        ])));
    }
}
