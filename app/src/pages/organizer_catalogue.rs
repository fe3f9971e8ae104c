//! `/c/:token`: the catalogue an organizer received, read-only.
use super::link_views::{EventSummary, LinkError, LinkFrame};
use crate::links::{load_organizer_catalogue, CataloguePick, OrganizerCatalogue};
use leptos::prelude::*;
use leptos_meta::{Meta, Title};
use leptos_router::hooks::use_params_map;

#[component]
pub fn OrganizerCataloguePage() -> impl IntoView {
    let params = use_params_map();
    let catalogue = Resource::new(
        move || params.read().get("token").unwrap_or_default(),
        load_organizer_catalogue,
    );
    view! {
        <Title text="Votre sélection de lieux" />
        // The URL holds the token: never send it to other sites.
        <Meta name="referrer" content="same-origin" />
        <LinkFrame>
            <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
                {move || catalogue.get().map(|result| match result {
                    Ok(c) => view! { <CatalogueView catalogue=c /> }.into_any(),
                    Err(e) => view! { <LinkError error=e /> }.into_any(),
                })}
            </Suspense>
        </LinkFrame>
    }
}

#[component]
fn CatalogueView(catalogue: OrganizerCatalogue) -> impl IntoView {
    let (recommended, compatible): (Vec<_>, Vec<_>) = catalogue
        .picks
        .into_iter()
        .partition(|p| p.tier == "recommended");
    view! {
        <h1 class="mb-4 text-2xl font-semibold tracking-tight">"Votre sélection de lieux"</h1>
        <EventSummary
            reference=catalogue.request_reference
            summary=catalogue.event_summary
            participants=catalogue.participants
            dates=catalogue.event_dates
            configurations=catalogue.configurations
        />
        <PickList title="Fortement recommandés" picks=recommended />
        <PickList title="Compatibles" picks=compatible />
    }
}

#[component]
fn PickList(title: &'static str, picks: Vec<CataloguePick>) -> impl IntoView {
    (!picks.is_empty()).then(|| view! {
        <h2 class="mb-3 mt-8 text-lg font-medium">{title}</h2>
        <ul class="space-y-3">
            {picks.into_iter().map(|p| view! {
                <li class="rounded-xl border border-slate-200 bg-white p-4" data-testid="catalogue-pick">
                    <div class="flex items-baseline justify-between gap-4">
                        <p class="font-medium text-slate-900">{p.name}</p>
                        <span class="text-xs text-slate-500">{p.code}</span>
                    </div>
                    <p class="text-sm text-slate-500">{p.postal_code} " " {p.city}
                        {p.room.map(|r| view! { <span>" · salle « " {r} " »"</span> })}
                    </p>
                    {p.explanation.map(|e| view! { <p class="mt-2 text-sm text-slate-700">{e}</p> })}
                </li>
            }).collect_view()}
        </ul>
    })
}
