//! « Console » (admins): playbooks land here later; today, the audit log,
//! one view per kind of actor (`/console?journal=equipe`…).
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::{ComingSoon, PageHeader};
use crate::admin::{audit_events, AuditEvent, AuditKind};
use crate::errors::AppError;
use crate::llm_budget::LlmBudgetBanner;

#[component]
pub fn ConsolePage() -> impl IntoView {
    // The server's page guard refuses team members a full page load; this
    // covers client-side navigation, which never reaches the guard.
    move || {
        if crate::layout::is_admin() {
            view! { <AdminConsole /> }.into_any()
        } else {
            view! {
                <PageHeader title="Accès refusé" subtitle="La console est réservée aux administrateurs." />
            }
            .into_any()
        }
    }
}

#[component]
fn AdminConsole() -> impl IntoView {
    let query = use_query_map();
    let journal = Memo::new(move |_| query.read().get("journal").unwrap_or_default());
    let events = Resource::new(move || journal.get(), audit_events);
    view! {
        <LlmBudgetBanner />
        <PageHeader title="Console" subtitle="Playbooks, règles d'activation et suggestions (administrateurs)." />
        <ComingSoon what="La console des playbooks arrive bientôt ici." />
        <h2 class="mb-3 mt-10 text-lg font-medium">"Journal d'audit"</h2>
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
