//! « Console » (admins): playbooks land here later; today, the audit log.
use leptos::prelude::*;

use super::{ComingSoon, PageHeader};
use crate::admin::{audit_events, AuditEvent};
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
    let events = Resource::new(|| (), |_| audit_events());
    view! {
        <LlmBudgetBanner />
        <PageHeader title="Console" subtitle="Playbooks, règles d'activation et suggestions (administrateurs)." />
        <ComingSoon what="La console des playbooks arrive bientôt ici." />
        <h2 class="mb-3 mt-10 text-lg font-medium">"Journal d'audit"</h2>
        <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
            {move || events.get().map(|result| match result {
                Ok(list) => view! { <AuditTable events=list /> }.into_any(),
                Err(e) => view! { <p role="alert" class="text-sm text-red-700">{e.to_string()}</p> }.into_any(),
            })}
        </Suspense>
    }
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
                            <td class="px-4 py-2 font-mono text-xs">{e.action}</td>
                            <td class="px-4 py-2 text-slate-500">{e.object.unwrap_or_default()}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
