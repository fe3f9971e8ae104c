//! « Console » (admins): the hub of its sections (playbooks, stations,
//! decisions, motifs, simulator: one page each under `/console/…`) and the
//! audit log, one view per kind of actor (`/console?journal=equipe`…).
//!
//! Every section works without JavaScript: filters are links or GET forms,
//! changes are forms that post and come back to a page whose address says
//! what was done (`?fait=…`, see [`Done`]).
mod decisions;
mod done;
mod motifs;
mod playbook;
mod playbooks;
mod simulator;
mod stations;

pub use decisions::DecisionsPage;
pub use motifs::MotifsPage;
pub use playbooks::PlaybooksPage;
pub use simulator::SimulatorPage;
pub use stations::StationsPage;

use done::Done;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::PageHeader;
use crate::admin::{audit_events, AuditEvent, AuditKind};
use crate::errors::AppError;
use crate::llm_budget::LlmBudgetBanner;

#[component]
pub fn ConsolePage() -> impl IntoView {
    view! { <AdminOnly><AdminConsole /></AdminOnly> }
}

/// A console page, for admins only. The server's page guard refuses team
/// members a full page load; this covers client-side navigation, which
/// never reaches the guard.
#[component]
fn AdminOnly(children: ChildrenFn) -> impl IntoView {
    move || {
        if crate::layout::is_admin() {
            children().into_any()
        } else {
            view! {
                <PageHeader title="Accès refusé" subtitle="La console est réservée aux administrateurs." />
            }
            .into_any()
        }
    }
}

/// The console's sections: (address, label).
const SECTIONS: &[(&str, &str)] = &[
    ("/console", "Journal"),
    ("/console/playbooks", "Playbooks"),
    ("/console/stations", "Stations"),
    ("/console/decisions", "Décisions"),
    ("/console/motifs", "Motifs"),
    ("/console/simulateur", "Simulateur"),
];

/// The console's sections as plain links; `current` is the page's address.
#[component]
fn ConsoleNav(current: &'static str) -> impl IntoView {
    view! {
        <nav aria-label="Sections de la console" data-testid="console-sections" class="-mt-4 mb-6 flex flex-wrap gap-2 text-sm">
            {SECTIONS.iter().map(|(href, label)| view! {
                <a href=*href aria-current=(*href == current).then_some("page")
                    class="rounded-md border border-slate-200 bg-white px-3 py-1.5 text-slate-700 hover:bg-slate-50 aria-[current=page]:border-indigo-600 aria-[current=page]:bg-indigo-600 aria-[current=page]:text-white">
                    {*label}
                </a>
            }).collect_view()}
        </nav>
    }
}

/// How a failed read shows on a console page (its cause is logged once).
#[component]
fn LoadError(error: crate::errors::AppError) -> impl IntoView {
    #[cfg(feature = "ssr")]
    crate::errors::http::report(&error);
    view! { <p role="alert" class="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700" data-testid="console-error">{error.to_string()}</p> }
}

#[component]
fn AdminConsole() -> impl IntoView {
    let query = use_query_map();
    let journal = Memo::new(move |_| query.read().get("journal").unwrap_or_default());
    let events = Resource::new(move || journal.get(), audit_events);
    view! {
        <LlmBudgetBanner />
        <PageHeader title="Console" subtitle="Playbooks, règles d'activation et suggestions (administrateurs)." />
        <ConsoleNav current="/console" />
        <h2 class="mb-3 mt-6 text-lg font-medium">"Journal d'audit"</h2>
        <JournalTabs journal />
        <Transition fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
            {move || events.get().map(|result| match result {
                Ok(list) => view! { <AuditTable events=list /> }.into_any(),
                Err(error) => view! { <JournalError error /> }.into_any(),
            })}
        </Transition>
    }
}

/// The views of the journal as plain links: they work without JavaScript,
/// and only read (the address says which view).
#[component]
fn JournalTabs(journal: Memo<String>) -> impl IntoView {
    let current = move || AuditKind::parse(&journal.get()).ok();
    view! {
        <nav aria-label="Filtrer le journal" data-testid="audit-kinds" class="mb-3 flex flex-wrap gap-2 text-sm">
            {AuditKind::EVERY.into_iter().map(|kind| view! {
                <a href=format!("/console?journal={}", kind.param())
                    aria-current=move || (current() == Some(kind)).then_some("page")
                    class="rounded-full border border-slate-200 px-3 py-1 text-slate-600 hover:bg-slate-50 aria-[current=page]:border-indigo-600 aria-[current=page]:bg-indigo-50 aria-[current=page]:text-indigo-700">
                    {kind.label()}
                </a>
            }).collect_view()}
        </nav>
    }
}

#[component]
fn JournalError(error: AppError) -> impl IntoView {
    #[cfg(feature = "ssr")]
    crate::errors::http::report(&error);
    view! { <p role="alert" class="text-sm text-red-700">{error.to_string()}</p> }
}

#[component]
fn AuditTable(events: Vec<AuditEvent>) -> impl IntoView {
    view! {
        <div class="overflow-x-auto rounded-xl border border-slate-200 bg-white">
            <table class="min-w-full text-left text-sm" data-testid="audit-log">
                <thead class="border-b border-slate-200 text-xs uppercase text-slate-500">
                    <tr><th class="px-4 py-2">"Quand"</th><th class="px-4 py-2">"Qui"</th><th class="px-4 py-2">"Action"</th><th class="px-4 py-2">"Objet"</th></tr>
                </thead>
                <tbody class="divide-y divide-slate-100">
                    {events.into_iter().map(|e| view! {
                        <tr>
                            <td class="whitespace-nowrap px-4 py-2 text-slate-500">{e.at}</td>
                            <td class="px-4 py-2">{e.actor}</td>
                            {match e.summary {
                                // A flood's excess: its count, in words.
                                Some(summary) => view! { <td class="px-4 py-2" data-testid="audit-summary">{summary}</td> }.into_any(),
                                None => view! { <td class="px-4 py-2" data-action=e.action>{e.action_label}</td> }.into_any(),
                            }}
                            <td class="px-4 py-2 text-slate-500">{e.object.unwrap_or_default()}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
