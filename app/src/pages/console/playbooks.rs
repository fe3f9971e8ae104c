//! `/console/playbooks`: every playbook (name, goal, status, version, last
//! change) and the « Nouveau playbook » form; `?nom=…` opens one playbook
//! ([`super::playbook`]).
use super::{playbook::PlaybookView, AdminOnly, ConsoleNav, Done, LoadError};
use crate::pages::{failure, FormError, PageHeader};
use crate::playbook_console::{
    label_of, list_playbooks, playbook_url, PlaybookRow, SavePlaybook, SetPlaybookStatus, STATUSES,
};
use crate::raw_text::textarea_value;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

/// What the « Nouveau playbook » textarea suggests writing.
const TEMPLATE: &str = "name: mon-parcours\ngoal: \"ce que le parcours obtient, en une phrase\"\nactivation:\n  intent: \"ce que l'agent décrit quand il faut l'ouvrir\"\nsteps:\n  - skill: get_request\n";

#[component]
pub fn PlaybooksPage() -> impl IntoView {
    view! { <AdminOnly><Playbooks /></AdminOnly> }
}

#[component]
fn Playbooks() -> impl IntoView {
    let query = use_query_map();
    let name = Memo::new(move |_| {
        query
            .read()
            .get("nom")
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty())
    });
    let save = ServerAction::<SavePlaybook>::new();
    let status = ServerAction::<SetPlaybookStatus>::new();
    view! {
        <PageHeader title="Playbooks" subtitle="Les parcours que le serveur fait respecter à l'assistant." />
        <ConsoleNav current="/console/playbooks" />
        <Done />
        {move || match name.get() {
            Some(name) => view! { <PlaybookView name save status /> }.into_any(),
            None => view! { <PlaybookList save /> }.into_any(),
        }}
    }
}

#[component]
fn PlaybookList(save: ServerAction<SavePlaybook>) -> impl IntoView {
    let rows = Resource::new(move || save.version().get(), |_| list_playbooks());
    view! {
        <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
            {move || rows.get().map(|result| match result {
                Ok(rows) => view! { <PlaybookTable rows /> }.into_any(),
                Err(error) => view! { <LoadError error /> }.into_any(),
            })}
        </Suspense>
        <section class="mt-10 max-w-3xl">
            <h2 class="mb-2 text-lg font-medium">"Nouveau playbook"</h2>
            <p class="mb-2 text-xs text-slate-500">"Un nouveau playbook commence en observation : il est évalué et journalisé, sans jamais s'ouvrir, jusqu'à ce que vous l'activiez."</p>
            <ActionForm action=save attr:class="space-y-2 text-sm" attr:data-testid="playbook-new">
                <label class="block">
                    "Définition (YAML)"
                    <textarea name="yaml" rows="10" required spellcheck="false" data-testid="playbook-new-yaml"
                        class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1 font-mono text-xs">
                        {textarea_value(TEMPLATE)}
                    </textarea>
                </label>
                <FormError error=failure(save) testid="playbook-new-error" />
                <button type="submit" class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700" data-testid="playbook-new-submit">
                    "Créer le playbook"
                </button>
            </ActionForm>
        </section>
    }
}

#[component]
fn PlaybookTable(rows: Vec<PlaybookRow>) -> impl IntoView {
    if rows.is_empty() {
        return view! { <p class="text-sm text-slate-500" data-testid="playbooks-empty">"Aucun playbook pour l'instant."</p> }.into_any();
    }
    view! {
        <div class="overflow-x-auto rounded-xl border border-slate-200 bg-white">
            <table class="min-w-full text-left text-sm" data-testid="playbooks">
                <thead class="border-b border-slate-200 text-xs uppercase text-slate-500">
                    <tr>
                        <th class="px-4 py-2">"Nom"</th>
                        <th class="px-4 py-2">"Objectif"</th>
                        <th class="px-4 py-2">"Statut"</th>
                        <th class="px-4 py-2">"Version"</th>
                        <th class="px-4 py-2">"Dernière modification"</th>
                    </tr>
                </thead>
                <tbody class="divide-y divide-slate-100">
                    {rows.into_iter().map(|row| view! {
                        <tr data-testid="playbook-row" data-name=row.name.clone()>
                            <td class="whitespace-nowrap px-4 py-2">
                                <a href=playbook_url(&row.name, "") class="font-medium text-indigo-700 hover:underline">{row.title.clone()}</a>
                                <code class="block text-xs text-slate-500">{row.name.clone()}</code>
                            </td>
                            <td class="min-w-[16rem] px-4 py-2 text-slate-700">{row.goal}</td>
                            <td class="whitespace-nowrap px-4 py-2" data-testid="playbook-status">
                                <StatusBadge status=row.status />
                            </td>
                            <td class="px-4 py-2 text-slate-500">{row.version}</td>
                            <td class="whitespace-nowrap px-4 py-2 text-slate-500">{row.updated_at}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
    .into_any()
}

/// A playbook's status in words, coloured by what it does.
#[component]
pub fn StatusBadge(status: String) -> impl IntoView {
    let class = match status.as_str() {
        "active" => "bg-emerald-50 text-emerald-800",
        "observe" => "bg-amber-50 text-amber-900",
        _ => "bg-slate-100 text-slate-600",
    };
    view! {
        <span class=format!("rounded-full px-2 py-0.5 text-xs font-medium {class}") data-status=status.clone()>
            {label_of(STATUSES, &status)}
        </span>
    }
}
