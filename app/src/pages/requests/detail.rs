//! `/demandes/:id`: one request — the organizer's need, the team's memo
//! and search hints (editable), the status, the e-mails and the most
//! similar past requests with their catalogues.
use super::edit_forms::{NotesForm, StatusForm};
use super::emails::Emails;
use super::similar::SimilarRequests;
use super::status_badge::StatusBadge;
use super::PageError;
use crate::errors::AppError;
use crate::fr;
use crate::pages::{failure, AcceptanceRate, GuidelineForm, RequestPreferencesPanel};
use crate::requests::{find_request, is_reference, load_request, EditRequest, RequestDetail};
use crate::training::AddGuideline;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

#[component]
pub fn RequestDetailPage() -> impl IntoView {
    let params = use_params_map();
    // The address names the request by id (« /demandes/7 ») or by
    // reference (« /demandes/D-2025-00007 », as the assistant links it).
    let key = move || params.read().get("id").unwrap_or_default();
    let edit = ServerAction::<EditRequest>::new();
    let request = Resource::new(
        move || (key(), edit.version().get()),
        |(key, _)| async move {
            let id = match key.parse::<i64>() {
                Ok(id) => id,
                Err(_) if is_reference(&key) => find_request(key).await?,
                Err(_) => return Err(AppError::NotFound),
            };
            load_request(id).await
        },
    );
    view! {
        <Transition fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
            {move || request.get().map(|result| match result {
                Ok(detail) => view! { <RequestView detail edit /> }.into_any(),
                Err(error) => view! {
                    <Title text="Demande" />
                    <PageError error />
                    <a href="/demandes" class="mt-4 inline-block text-sm font-medium text-indigo-700 hover:underline">"Retour aux demandes"</a>
                }.into_any(),
            })}
        </Transition>
    }
}

#[component]
fn RequestView(detail: RequestDetail, edit: ServerAction<EditRequest>) -> impl IntoView {
    let id = detail.id;
    let button = "rounded-md px-4 py-2 text-sm font-medium";
    // The guideline form's action (GuidelineForm takes it from the context):
    // its disclosure opens on a refused post, whose message is inside.
    let guideline = ServerAction::<AddGuideline>::new();
    provide_context(guideline);
    let guideline_refused = failure(guideline);
    view! {
        <Title text=format!("Demande {}", detail.reference) />
        <div class="mb-6 flex flex-wrap items-start justify-between gap-4">
            <div>
                <p class="text-sm"><a href="/demandes" class="text-indigo-700 hover:underline">"← Demandes"</a></p>
                <h1 class="mt-1 flex items-center gap-3 text-2xl font-semibold tracking-tight">
                    <span data-testid="request-reference">{detail.reference.clone()}</span>
                    <StatusBadge status=detail.status.clone() />
                </h1>
                <p class="mt-1 text-sm text-slate-500">
                    {detail.pool.clone()} " · reçue le " {detail.created_on.clone()}
                    {detail.assigned_to.clone().map(|a| view! { <span>" · suivie par " {a}</span> })}
                </p>
            </div>
            <div class="flex flex-col items-end gap-3">
                <div class="flex gap-2">
                    <a href=format!("/demandes/{id}/catalogue") data-testid="build-catalogue"
                        class=format!("{button} bg-indigo-600 text-white hover:bg-indigo-700")>"Construire le catalogue"</a>
                    <a href=format!("/chat?request={id}") data-testid="open-in-chat"
                        class=format!("{button} border border-slate-300 bg-white text-slate-700 hover:bg-slate-50")>"Ouvrir dans le chat"</a>
                </div>
                // What the team kept of the search, and a guideline for Maxy.
                <div data-testid="request-extras" data-request-id=id class="flex flex-col items-end gap-2">
                    <AcceptanceRate request_id=id />
                    <details class="w-80 text-sm" data-testid="request-guideline" open=move || guideline_refused.with(Option::is_some)>
                        <summary class="cursor-pointer text-right text-xs font-medium text-indigo-700">"Donner une consigne à Maxy"</summary>
                        <div class="mt-2"><GuidelineForm request_id=Some(id) /></div>
                    </details>
                </div>
            </div>
        </div>
        <div class="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
            <div class="space-y-6">
                <Need detail=detail.clone() />
                <Emails emails=detail.emails.clone() />
            </div>
            <div class="space-y-6">
                <StatusForm request_id=id status=detail.status.clone() edit />
                <NotesForm request_id=id memo=detail.team_memo.clone() hints=detail.search_hints.clone() edit />
                <RequestPreferencesPanel request_id=id />
                <SimilarRequests similar=detail.similar.clone() source=detail.similar_source.clone() />
            </div>
        </div>
    }
    .into_any()
}

/// One line of the need, when the organizer said it.
#[component]
fn Fact(label: &'static str, value: Option<String>) -> impl IntoView {
    value.filter(|v| !v.trim().is_empty()).map(|value| {
        view! {
            <div class="grid grid-cols-[10rem_1fr] gap-2">
                <dt class="text-slate-500">{label}</dt>
                <dd class="whitespace-pre-line text-slate-900">{value}</dd>
            </div>
        }
    })
}

#[component]
fn Need(detail: RequestDetail) -> impl IntoView {
    let organizer = [
        detail.organizer_name.clone(),
        detail.organizer_company.clone(),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" · ");
    let contact = [
        detail.organizer_email.clone(),
        detail.organizer_phone.clone(),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" · ");
    let dates = detail.event_dates.clone().map(|d| {
        if detail.date_flexible {
            format!("{d} (dates flexibles)")
        } else {
            d
        }
    });
    let budget = match (detail.budget_eur, detail.budget_note.clone()) {
        (Some(eur), Some(note)) => Some(format!("{} ({note})", fr::euros(f64::from(eur)))),
        (Some(eur), None) => Some(fr::euros(f64::from(eur))),
        (None, note) => note,
    };
    let list = |v: &[String]| (!v.is_empty()).then(|| v.join(", "));
    view! {
        <section class="rounded-xl border border-slate-200 bg-white p-5 text-sm" data-testid="request-need">
            <h2 class="mb-3 text-lg font-medium">"Le besoin"</h2>
            <p class="whitespace-pre-line text-slate-800" data-testid="request-description">{detail.description.clone()}</p>
            <dl class="mt-4 space-y-1">
                <Fact label="Organisateur" value=Some(organizer) />
                <Fact label="Contact" value=Some(contact) />
                <Fact label="Type d'événement" value=detail.event_type.as_deref().map(fr::event_type) />
                <Fact label="Participants" value=detail.participants.map(fr::int) />
                <Fact label="Configurations" value=list(&detail.configurations) />
                <Fact label="Dates" value=dates />
                <Fact label="Précisions sur les dates" value=detail.date_notes.clone() />
                <Fact label="Budget" value=budget />
                <Fact label="Zone" value=detail.area.clone() />
                <Fact label="Codes postaux" value=list(&detail.postal_codes) />
                <Fact label="Rayon" value=detail.radius.clone() />
                <Fact label="Compléments" value=detail.complementary_info.clone() />
                <Fact label="Source" value=Some(fr::request_source(&detail.source).to_string()) />
            </dl>
        </section>
    }
    .into_any()
}
