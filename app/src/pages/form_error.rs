//! The message of a refused form post, shown under its form the same way
//! with JavaScript and without.
//!
//! With JavaScript, the `ActionForm` calls the server function and the
//! action's value is the error. Without, the browser posts the form;
//! server_fn answers with a redirect back to the page carrying the error in
//! the URL (`__path`, `__err`), and while the page renders, leptos_router
//! hands it to the `ServerAction` of that server function as its first
//! value. Either way [`FormError`] shows the error's French message (the
//! user-safe `AppError` text: its cause never leaves the server).
//!
//! A post that succeeds without JavaScript — the way every form outside an
//! island posts (ADR 0038) — also comes back by a redirect, with no answer
//! to show. The server then sets a short-lived cookie naming the server
//! function that succeeded ([`FORM_DONE_COOKIE`]) and clears it with the
//! next page; [`posted_to`] reads it, so the form says « Enregistré » on the
//! page it came back to, exactly once.
use crate::errors::AppError;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;

/// The cookie that names the server function a plain form post just
/// succeeded with (its path, `/api/…`); set and cleared by the server.
pub const FORM_DONE_COOKIE: &str = "maxy_form_done";

/// Whether the page is the one a plain form post to `action`'s server
/// function came back to, after succeeding. Read on the server from the
/// request; in the browser (islands), the action's own value says it.
pub fn posted_to<S>(action: ServerAction<S>) -> bool
where
    S: ServerFn + Clone + Send + Sync + 'static,
    S::Output: Send + Sync + 'static,
{
    let _ = action;
    #[cfg(feature = "ssr")]
    {
        use_context::<http::request::Parts>()
            .is_some_and(|parts| cookie_names(&parts.headers, S::PATH))
    }
    #[cfg(not(feature = "ssr"))]
    {
        false
    }
}

/// Whether the request's cookies say a post to `path` succeeded.
#[cfg(feature = "ssr")]
fn cookie_names(headers: &http::HeaderMap, path: &str) -> bool {
    headers
        .get_all(http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .any(|(name, value)| name == FORM_DONE_COOKIE && value == path)
}

/// The error of `action`'s last call, if it failed.
pub fn failure<S>(action: ServerAction<S>) -> Signal<Option<AppError>>
where
    S: ServerFn<Error = AppError> + Clone + Send + Sync + 'static,
    S::Output: Send + Sync + 'static,
{
    Signal::derive(move || {
        action
            .value()
            .with(|v| v.as_ref().and_then(|r| r.as_ref().err().cloned()))
    })
}

/// The message of a refused post as an alert, or nothing.
#[component]
pub fn FormError(
    /// The error to show (see [`failure`]).
    #[prop(into)]
    error: Signal<Option<AppError>>,
    /// The alert's `data-testid`.
    #[prop(into)]
    testid: String,
) -> impl IntoView {
    move || {
        error.get().map(|e| {
            view! {
                <p role="alert" class="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700" data-testid=testid.clone()>
                    {e.to_string()}
                </p>
            }
        })
    }
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::{cookie_names, FORM_DONE_COOKIE};

    #[test]
    fn only_the_named_server_function_is_said_done() {
        let mut headers = http::HeaderMap::new();
        headers.insert(
            http::header::COOKIE,
            format!("maxy_session=abc; {FORM_DONE_COOKIE}=/api/memory/add; other=1")
                .parse()
                .unwrap(),
        );
        assert!(cookie_names(&headers, "/api/memory/add"));
        assert!(!cookie_names(&headers, "/api/memory/delete"));
        assert!(!cookie_names(&http::HeaderMap::new(), "/api/memory/add"));
    }
}
