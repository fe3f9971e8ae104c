//! « Demandes »: the team's list of requests (`/demandes`, filters in the
//! URL through a plain GET form, so it works without JavaScript) and one
//! request's page (`/demandes/:id`).
mod detail;
mod edit_forms;
mod emails;
mod filter_form;
mod list;
mod similar;
mod status_badge;

use crate::errors::AppError;
use leptos::prelude::*;

pub use detail::RequestDetailPage;
pub use list::RequestsPage;

/// An error in the page's words; on the server it also gives the page the
/// error's status (an unknown request is a real 404, a bad filter a 422).
#[component]
fn PageError(error: AppError) -> impl IntoView {
    #[cfg(feature = "ssr")]
    crate::errors::http::report(&error);
    let message = error.to_string();
    view! {
        <p role="alert" data-testid="requests-error" class="mt-6 rounded-md bg-red-50 px-4 py-3 text-sm text-red-700">{message}</p>
    }
}
