//! `/demandes/:id/catalogue`: the catalogue builder of a request (and, with
//! `?atelier=1`, its training catalogue in the workspace).
//!
//! Opening the page reads only: a request without a catalogue of that kind
//! shows « Préparer le catalogue » ([`prepare`]), which creates the draft.
//!
//! Every operation is saved at once (« Enregistré »). Each names the version
//! of the catalogue it was based on; when another team member changed it
//! meanwhile, the server refuses, the page says who and when, and reloads
//! their version: nobody's change is lost.
//!
//! Slots for other features, mounted by the integrator:
//! - `<div data-testid="pick-extras">` on each card (« Apprendre »); it
//!   carries `data-request-id`, `data-member-id`, `data-catalogue-id`,
//!   `data-member-name`, `data-event-type`, and the same values are in
//!   scope in [`pick_card::PickCard`] (`pick`, `context`);
//! - `<div data-testid="catalogue-outreach">` below the tiers (send and
//!   availability checks), with `data-catalogue-id` / `data-request-id`.
mod acceptance;
mod add_box;
mod ops;
mod pick_card;
mod prepare;
mod summary;

pub use acceptance::AcceptanceRate;

use crate::catalogue_builder::{
    find_catalogue, BuilderStart, CatalogueView, OpenCatalogue, Tier, SLOTS_PER_TIER,
};
use crate::errors::AppError;
use crate::fr;
use crate::pages::{outreach_state, CatalogueOutreach};
use acceptance::AcceptanceLine;
use add_box::AddBox;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};
use ops::{Builder, Op, SaveState};
use pick_card::{CardContext, PickCard};
use prepare::PrepareCatalogue;
use summary::RequestSummaryView;

#[component]
pub fn CatalogueBuilderPage() -> impl IntoView {
    let params = use_params_map();
    let query = use_query_map();
    let request_id = move || params.read().get("id").and_then(|s| s.parse::<i64>().ok());
    let training = move || query.read().get("atelier").is_some_and(|v| v == "1");
    // « Préparer le catalogue »: once it is done, the page finds the draft.
    let prepare = ServerAction::<OpenCatalogue>::new();
    let opened = Resource::new(
        move || (request_id(), training(), prepare.version().get()),
        |(id, training, _)| async move {
            match id {
                Some(id) => find_catalogue(id, training).await,
                None => Err(AppError::NotFound),
            }
        },
    );
    view! {
        <Title text="Catalogue" />
        <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement du catalogue…"</p> }>
            {move || opened.get().map(|result| match result {
                Ok(BuilderStart::Catalogue(initial)) => view! { <BuilderBody initial=*initial /> }.into_any(),
                Ok(BuilderStart::NotPrepared { request_id, training, request }) => view! {
                    <PrepareCatalogue request_id training request prepare />
                }.into_any(),
                Err(e) => view! {
                    <p role="alert" class="rounded-md bg-red-50 px-4 py-3 text-sm text-red-700">{e.to_string()}</p>
                }.into_any(),
            })}
        </Suspense>
    }
}

/// The board: the island that hydrates (every operation is a server call
/// whose answer redraws it). Its one prop, the catalogue as loaded, is
/// serialised into the page.
#[island]
fn BuilderBody(initial: CatalogueView) -> impl IntoView {
    let request_id = initial.request_id;
    let builder = Builder::new(initial);
    let view_signal = builder.view;
    let catalogue_id = Memo::new(move |_| view_signal.with(|v| v.catalogue_id));
    let (outreach, outreach_state) =
        outreach_state(request_id, Signal::derive(move || Some(catalogue_id.get())));
    let busy = builder.act.pending();
    view! {
        {move || {
            let v = view_signal.get();
            let title = if v.is_training() { "Catalogue d'entraînement" } else { "Catalogue" };
            let back = if v.is_training() { "/atelier".to_string() } else { format!("/demandes/{}", v.request_id) };
            view! {
                <div class="mb-6 flex flex-wrap items-start justify-between gap-4">
                    <div>
                        <a href=back class="text-sm text-indigo-700 hover:underline">"← Retour"</a>
                        <h1 class="mt-1 text-2xl font-semibold tracking-tight">{title} " · " {v.request.reference.clone()}</h1>
                        <p class="mt-1 text-sm text-slate-500" data-testid="catalogue-status" data-version=v.version.to_string()>
                            {status_line(&v)}
                            {v.last_edit.clone().map(|e| view! { <span>" · " {e}</span> })}
                        </p>
                    </div>
                    <div class="flex flex-col items-end gap-2">
                        <SaveStatus saved=builder.saved />
                        {v.acceptance.map(|a| view! { <AcceptanceLine acceptance=a /> })}
                    </div>
                </div>
                <RequestSummaryView summary=v.request.clone() />
            }
        }}
        <Toolbar builder busy />
        {move || {
            let v = view_signal.get();
            let context = CardContext {
                catalogue_id: v.catalogue_id,
                request_id: v.request_id,
                event_type: v.request.event_type.clone().unwrap_or_default(),
                read_only: v.read_only(),
                training: v.is_training(),
            };
            view! {
                {(!v.notices.is_empty()).then(|| view! {
                    <ul class="mb-4 space-y-1" data-testid="fill-notices">
                        {v.notices.iter().map(|n| view! {
                            <li role="status" class="rounded-md bg-amber-50 px-4 py-2 text-sm text-amber-900">{n.clone()}</li>
                        }).collect_view()}
                    </ul>
                })}
                {(!v.warnings.is_empty()).then(|| view! {
                    <ul class="mb-4 space-y-1" data-testid="catalogue-warnings">
                        {v.warnings.iter().map(|w| view! {
                            <li class="rounded-md border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900">"⚠ " {w.clone()}</li>
                        }).collect_view()}
                    </ul>
                })}
                <div class="grid gap-6 xl:grid-cols-2">
                    {Tier::BOTH.into_iter().map(|tier| view! {
                        <TierView tier picks=v.tier(tier).to_vec() context=context.clone() builder />
                    }).collect_view()}
                </div>
                // Sending and availability checks; a training catalogue is
                // never sent, so it has none.
                <div class="mt-6" data-testid="catalogue-outreach"
                    data-catalogue-id=v.catalogue_id.to_string()
                    data-request-id=v.request_id.to_string()>
                    {(!v.is_training()).then(|| view! {
                        <CatalogueOutreach actions=outreach state=outreach_state />
                    })}
                </div>
            }
        }}
    }
}

fn status_line(v: &CatalogueView) -> String {
    let n = v.recommended.len() + v.compatible.len();
    let state = match v.status.as_str() {
        "sent" => format!(
            "Envoyé{} — lecture seule",
            v.sent_on
                .as_ref()
                .map_or_else(String::new, |d| format!(" le {d}"))
        ),
        "archived" => "Archivé — lecture seule".to_string(),
        _ => "Brouillon".to_string(),
    };
    // One count per place: the total here (its ceiling only in training,
    // where no tier has a norm), « n sur 4 » beside each tier.
    if v.is_training() {
        format!(
            "{state} · {} sur {} au plus",
            fr::plural(n, "lieu", "lieux"),
            v.max_picks
        )
    } else {
        format!("{state} · {}", fr::plural(n, "lieu", "lieux"))
    }
}

/// « Enregistré », « Enregistrement… », or why the last operation was refused.
#[component]
fn SaveStatus(saved: RwSignal<SaveState>) -> impl IntoView {
    move || {
        match saved.get() {
        SaveState::Idle => ().into_any(),
        SaveState::Saving => view! { <span role="status" class="text-sm text-slate-500" data-testid="save-status">"Enregistrement…"</span> }.into_any(),
        SaveState::Done => view! { <span role="status" class="text-sm font-medium text-emerald-700" data-testid="save-status">"Enregistré"</span> }.into_any(),
        SaveState::Stale(message) => view! {
            <p role="alert" class="max-w-md rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="stale-message">{message}</p>
        }.into_any(),
        SaveState::Failed(message) => view! {
            <p role="alert" class="max-w-md rounded-md bg-red-50 px-3 py-2 text-sm text-red-700" data-testid="save-error">{message}</p>
        }.into_any(),
    }
    }
}

/// Fill from the search, add a venue, or start a new version of a sent one.
#[component]
fn Toolbar(builder: Builder, busy: Memo<bool>) -> impl IntoView {
    let view_signal = builder.view;
    move || {
        let v = view_signal.get();
        if v.read_only() {
            return view! {
                <div class="mb-6 flex flex-wrap items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 text-sm">
                    <p class="text-slate-600">"Ce catalogue a été envoyé : il ne se modifie plus."</p>
                    <button type="button" data-testid="new-version"
                        class="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
                        disabled=move || busy.get()
                        on:click=move |_| { builder.act.dispatch(Op::NewVersion); }>"Nouvelle version"</button>
                </div>
            }
            .into_any();
        }
        view! {
            <div class="mb-6 flex flex-wrap items-end gap-4 rounded-xl border border-slate-200 bg-white p-4 text-sm">
                <button type="button" data-testid="fill-from-search"
                    class="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
                    disabled=move || busy.get()
                    on:click=move |_| { builder.act.dispatch(Op::Fill); }>
                    {move || if busy.get() { "Recherche…" } else { "Remplir depuis la recherche" }}
                </button>
                <AddBox builder catalogue_id=v.catalogue_id />
                <UndoButton builder busy />
            </div>
        }
        .into_any()
    }
}

/// « Annuler la dernière modification », while there is one to undo.
#[component]
fn UndoButton(builder: Builder, busy: Memo<bool>) -> impl IntoView {
    let undo = builder.undo;
    move || {
        undo.get().map(|ops| {
            view! {
                <button type="button" data-testid="undo"
                    class="rounded-md border border-slate-300 px-4 py-2 font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50"
                    disabled=move || busy.get()
                    on:click=move |_| { builder.act.dispatch(Op::Undo(ops.clone())); }>
                    "↶ Annuler la dernière modification"
                </button>
            }
        })
    }
}

#[component]
fn TierView(
    tier: Tier,
    picks: Vec<crate::catalogue_builder::PickView>,
    context: CardContext,
    builder: Builder,
) -> impl IntoView {
    let n = picks.len();
    let last = n.saturating_sub(1);
    let empty = if context.training {
        0
    } else {
        SLOTS_PER_TIER.saturating_sub(n)
    };
    let count = if context.training {
        format!("{n}")
    } else {
        format!("{n} sur {SLOTS_PER_TIER}")
    };
    view! {
        <section data-testid=format!("tier-{}", tier.key())>
            <h2 class="mb-2 text-lg font-medium">{tier.label()} " " <span class="text-sm text-slate-500">"(" {count} ")"</span></h2>
            <ol class="space-y-3">
                {picks.into_iter().enumerate().map(|(i, pick)| view! {
                    <PickCard pick context=context.clone() builder first=i == 0 last=i == last />
                }).collect_view()}
                {(0..empty).map(|_| view! {
                    <li class="rounded-xl border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-400" data-testid="empty-slot">
                        "Emplacement libre"
                    </li>
                }).collect_view()}
            </ol>
        </section>
    }
}
