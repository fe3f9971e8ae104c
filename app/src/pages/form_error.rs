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
use crate::errors::AppError;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;

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
