//! « Console » (admins): the hub of its sections (accounts, playbooks,
//! stations, decisions, motifs, simulator, measures: one page each under
//! `/console/…`); its own page shows the assistant's state and the audit
//! journal, filtered and paged by its address (`/console?quoi=…&page=2`).
//!
//! Every section works without JavaScript: filters are links or GET forms,
//! changes are forms that post and come back to a page whose address says
//! what was done (`?fait=…`, see [`Done`]).
mod accounts;
mod assistant;
mod decisions;
mod done;
mod journal;
mod measure_rows;
mod measures;
mod motifs;
mod playbook;
mod playbooks;
mod simulator;
mod stations;

pub use accounts::AccountsPage;
pub use decisions::DecisionsPage;
pub use measure_rows::MeasureRowsPage;
pub use measures::MeasuresPage;
pub use motifs::MotifsPage;
pub use playbooks::PlaybooksPage;
pub use simulator::SimulatorPage;
pub use stations::StationsPage;

use assistant::AssistantCard;
use done::Done;
use journal::Journal;
use leptos::prelude::*;

use super::PageHeader;
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
    ("/console/comptes", "Comptes"),
    ("/console/playbooks", "Playbooks"),
    ("/console/stations", "Stations"),
    ("/console/decisions", "Décisions"),
    ("/console/motifs", "Motifs"),
    ("/console/simulateur", "Simulateur"),
    ("/console/mesures", "Mesures"),
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
    view! {
        <LlmBudgetBanner />
        <PageHeader title="Console" subtitle="L'assistant, le journal de ce qui s'est passé, les comptes et les playbooks (administrateurs)." />
        <ConsoleNav current="/console" />
        <AssistantCard />
        <Journal />
    }
}
