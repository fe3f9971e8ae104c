//! A request without a catalogue of the kind asked: its summary and the
//! button that prepares one. Opening the page creates nothing (GET never
//! writes, and any site can link to it); the button posts
//! [`open_catalogue`](crate::catalogue_builder::open_catalogue). With
//! JavaScript the builder then takes the page's place; without, the post is
//! redirected back to this page, which now finds the draft.
use super::summary::RequestSummaryView;
use crate::catalogue_builder::{OpenCatalogue, RequestSummary};
use crate::pages::{failure, FormError};
use leptos::prelude::*;

#[component]
pub fn PrepareCatalogue(
    request_id: i64,
    training: bool,
    request: RequestSummary,
    prepare: ServerAction<OpenCatalogue>,
) -> impl IntoView {
    let (title, back, note, button) = if training {
        (
            "Catalogue d'entraînement",
            "/atelier".to_string(),
            "Pas encore de catalogue d'entraînement pour cette demande : jusqu'à 25 lieux, jamais envoyé.",
            "Commencer l'entraînement",
        )
    } else {
        (
            "Catalogue",
            format!("/demandes/{request_id}"),
            "Aucun catalogue n'est encore préparé pour cette demande.",
            "Préparer le catalogue",
        )
    };
    let busy = prepare.pending();
    view! {
        <div class="mb-6">
            <a href=back class="text-sm text-indigo-700 hover:underline">"← Retour"</a>
            <h1 class="mt-1 text-2xl font-semibold tracking-tight">{title} " · " {request.reference.clone()}</h1>
        </div>
        <RequestSummaryView summary=request />
        <ActionForm action=prepare attr:class="flex flex-wrap items-center gap-4 rounded-xl border border-slate-200 bg-white p-4 text-sm" attr:data-testid="prepare-form">
            <input type="hidden" name="request_id" value=request_id.to_string() />
            <input type="hidden" name="training" value=training.to_string() />
            <p class="text-slate-600">{note}</p>
            <button type="submit" data-testid="prepare-catalogue"
                class="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
                disabled=move || busy.get()>{button}</button>
        </ActionForm>
        <div class="mt-3">
            <FormError error=failure(prepare) testid="prepare-error" />
        </div>
    }
}
