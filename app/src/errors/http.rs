//! An [`AppError`] as an HTTP response, and the hand-off of its cause to the
//! server's error layer, which logs it once with the request id.
//!
//! Two roads lead to a response, and both end in the same layer:
//! - server routes and middleware return the error: [`IntoResponse`] puts it
//!   in the response's extensions;
//! - server functions (and pages rendering an error) [`report`] it: the
//!   status goes to Leptos' `ResponseOptions`, the error to the request's
//!   [`ErrorSlot`].
use super::AppError;
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use leptos::prelude::use_context;
use std::sync::{Arc, Mutex};

impl AppError {
    pub fn status(&self) -> StatusCode {
        StatusCode::from_u16(self.status_code()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }
}

/// Plain French text with the error's status; the error itself rides along
/// in the extensions for the logging layer (its cause never reaches the body).
impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let response = (self.status(), self.to_string()).into_response();
        attach(response, self)
    }
}

/// Finishes a response that carries `error` (whatever its body): the headers
/// the error calls for, and the error itself for the logging layer.
pub fn attach(mut response: Response, error: AppError) -> Response {
    if error == AppError::TooManyRequests {
        response.headers_mut().insert(
            http::header::RETRY_AFTER,
            http::HeaderValue::from_static("60"),
        );
    }
    response.extensions_mut().insert(error);
    response
}

/// Where a server function leaves its error for the logging layer: the layer
/// puts one in every request's extensions, Leptos hands a copy of them to
/// server functions and pages as `http::request::Parts`.
#[derive(Clone, Default)]
pub struct ErrorSlot(Arc<Mutex<Option<AppError>>>);

impl ErrorSlot {
    /// Keeps the first error reported with a cause, else the latest one: the
    /// same error may be encoded twice (form posts redirect with it).
    fn put(&self, error: &AppError) {
        if let Ok(mut slot) = self.0.lock() {
            let keep = slot.as_ref().is_some_and(|e| e.cause().is_some());
            if !keep {
                *slot = Some(error.clone());
            }
        }
    }

    /// The reported error, if any (taken: it is logged once).
    pub fn take(&self) -> Option<AppError> {
        self.0.lock().ok().and_then(|mut slot| slot.take())
    }
}

/// Sets the current response's status to the error's and hands the error to
/// the logging layer. Idempotent. Outside a request (a test, a job) it does
/// nothing.
pub fn report(error: &AppError) {
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        if !is_plain_form_post() {
            response.set_status(error.status());
        }
    }
    note(error);
}

/// A server function posted by a form without JavaScript (it accepts
/// HTML): server_fn answers with a redirect back to the form's page, the
/// error in its URL for the page to show. Setting the error's status would
/// replace the redirect's and leave the browser on a JSON body.
fn is_plain_form_post() -> bool {
    use_context::<http::request::Parts>().is_some_and(|parts| {
        parts.method == http::Method::POST
            && parts.uri.path().starts_with("/api/")
            && parts
                .headers
                .get(http::header::ACCEPT)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.contains("text/html"))
    })
}

/// Hands the error to the logging layer without touching the status.
pub(super) fn note(error: &AppError) {
    if let Some(parts) = use_context::<http::request::Parts>() {
        if let Some(slot) = parts.extensions.get::<ErrorSlot>() {
            slot.put(error);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_follow_the_variants() {
        let cases = [
            (AppError::malformed(), 400),
            (AppError::SignInRequired, 401),
            (AppError::Forbidden, 403),
            (AppError::CrossSite, 403),
            (AppError::InvalidLink, 404),
            (AppError::Conflict("déjà".into()), 409),
            (AppError::PayloadTooLarge, 413),
            (AppError::Invalid("non".into()), 422),
            (AppError::TooManyRequests, 429),
            (AppError::internal("boom"), 500),
            (AppError::unavailable("pool closed"), 503),
        ];
        for (error, status) in cases {
            assert_eq!(error.status().as_u16(), status, "{error:?}");
        }
    }

    #[test]
    fn the_cause_never_reaches_the_wire() {
        let error = AppError::internal("password authentication failed for user maxy");
        let wire = serde_json::to_string(&error).unwrap_or_default();
        assert_eq!(
            wire,
            r#"{"error":"internal","message":"Une erreur est survenue. Réessayez dans un instant."}"#,
            "no cause, and the message comes from the variant"
        );
        assert_eq!(
            error.to_string(),
            "Une erreur est survenue. Réessayez dans un instant."
        );
        let back: AppError = serde_json::from_str(&wire).unwrap_or(AppError::NotFound);
        assert_eq!(
            back,
            AppError::Internal {
                cause: Default::default()
            }
        );
    }

    #[test]
    fn messages_travel_with_the_variants_that_have_one() {
        let error = AppError::Invalid("Le commentaire dépasse 2000 caractères.".into());
        let wire = serde_json::to_string(&error).unwrap_or_default();
        let back: AppError = serde_json::from_str(&wire).unwrap_or(AppError::NotFound);
        assert_eq!(back, error);
    }
}
