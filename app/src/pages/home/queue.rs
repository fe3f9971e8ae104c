//! The queue itself: one group per kind of item, each item a link to where
//! it is handled; a kind word when there is nothing to do.
use crate::work_queue::{WorkItem, WorkKind, WorkQueue};
use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn QueueView(queue: WorkQueue) -> impl IntoView {
    if queue.items.is_empty() {
        return view! {
            <div data-testid="queue-empty" class="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
                <p class="font-medium text-slate-800">"Rien ne vous attend pour l'instant."</p>
                <p class="mt-1">"Les propositions à approuver, les retours des organisateurs, vos demandes à qualifier et vos rappels du jour apparaîtront ici."</p>
            </div>
        }
        .into_any();
    }
    let groups: Vec<(WorkKind, Vec<WorkItem>)> = WorkKind::ORDER
        .into_iter()
        .map(|kind| (kind, queue.of(kind)))
        .filter(|(_, items)| !items.is_empty())
        .collect();
    view! {
        <div class="space-y-6" data-testid="work-queue">
            {groups.into_iter().map(|(kind, items)| view! { <Group kind items /> }).collect_view()}
        </div>
    }
    .into_any()
}

#[component]
fn Group(kind: WorkKind, items: Vec<WorkItem>) -> impl IntoView {
    let count = items.len();
    view! {
        <section data-testid="queue-group" data-kind=kind.key() aria-label=kind.heading()>
            <h2 class="mb-2 flex items-baseline gap-2 text-sm font-semibold uppercase tracking-wide text-slate-500">
                {kind.heading()}
                <span class="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium normal-case text-slate-700">{count}</span>
            </h2>
            <ul class="divide-y divide-slate-100 overflow-hidden rounded-xl border border-slate-200 bg-white">
                {items.into_iter().map(|item| view! { <Item item /> }).collect_view()}
            </ul>
        </section>
    }
}

#[component]
fn Item(item: WorkItem) -> impl IntoView {
    let when_class = if item.urgent {
        "shrink-0 text-xs font-medium text-red-700"
    } else {
        "shrink-0 text-xs text-slate-500"
    };
    view! {
        <li data-testid="queue-item" data-kind=item.kind.key()>
            <A href=item.href
                attr:class="flex flex-col gap-1 px-4 py-3 hover:bg-slate-50 focus:bg-slate-50 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4">
                <span class="min-w-0 break-words text-sm text-slate-900">
                    {item.reference.map(|r| view! {
                        <span class="mr-2 rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-600" data-testid="queue-reference">{r}</span>
                    })}
                    {item.text}
                </span>
                <span class=when_class>{item.when}</span>
            </A>
        </li>
    }
}
