//! The 404 page; on the server it also sets the HTTP status.
use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn NotFoundPage() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(http::StatusCode::NOT_FOUND);
    }
    view! {
        <super::PageHeader title="Page introuvable" subtitle="Cette adresse ne correspond à aucune page de Maxy." />
        <A href="/" attr:class="text-sm font-medium text-indigo-700 hover:underline">"Retour à l'accueil"</A>
    }
}
