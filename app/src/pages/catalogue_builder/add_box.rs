//! « Ajouter un lieu »: by code or name, with suggestions from every pool
//! as one types (the request's pool first; another pool is named).
use super::ops::{Builder, Op};
use crate::catalogue_builder::{lookup_catalogue_members, MemberOption, Tier};
use leptos::prelude::*;

#[component]
pub fn AddBox(builder: Builder, catalogue_id: i64) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let tier = RwSignal::new(Tier::Recommended);
    let suggestions = RwSignal::new(Vec::<MemberOption>::new());
    let lookup = Action::new(move |query: &String| {
        let query = query.clone();
        async move {
            let found = lookup_catalogue_members(catalogue_id, query)
                .await
                .unwrap_or_default();
            suggestions.set(found);
        }
    });
    let add = move |member: String| {
        if !member.trim().is_empty() {
            builder.act.dispatch(Op::Add {
                member,
                tier: tier.get_untracked(),
            });
            text.set(String::new());
            suggestions.set(Vec::new());
        }
    };
    view! {
        <div class="relative flex flex-wrap items-end gap-2">
            <label class="block font-medium text-slate-700">
                "Ajouter un lieu"
                <input type="search" data-testid="add-venue-input" placeholder="Code ou nom du lieu"
                    class="mt-1 block w-64 max-w-full rounded-md border border-slate-300 px-3 py-2"
                    prop:value=move || text.get()
                    on:input=move |ev| {
                        let value = event_target_value(&ev);
                        text.set(value.clone());
                        if value.trim().chars().count() >= 2 {
                            lookup.dispatch(value);
                        } else {
                            suggestions.set(Vec::new());
                        }
                    }
                    on:keydown=move |ev| {
                        if ev.key() == "Enter" {
                            ev.prevent_default();
                            add(text.get_untracked());
                        }
                    } />
            </label>
            <label class="block font-medium text-slate-700">
                "Rang"
                <select data-testid="add-venue-tier" class="mt-1 block rounded-md border border-slate-300 px-2 py-2"
                    on:change=move |ev| {
                        tier.set(if event_target_value(&ev) == "compatible" { Tier::Compatible } else { Tier::Recommended });
                    }>
                    <option value="recommended">"Fortement recommandé"</option>
                    <option value="compatible">"Compatible"</option>
                </select>
            </label>
            <button type="button" data-testid="add-venue"
                class="rounded-md border border-indigo-600 px-4 py-2 font-medium text-indigo-700 hover:bg-indigo-50"
                on:click=move |_| add(text.get_untracked())>"Ajouter"</button>
            <Show when=move || !suggestions.with(Vec::is_empty)>
                <ul class="absolute left-0 top-full z-10 mt-1 w-80 max-w-full rounded-md border border-slate-200 bg-white shadow" data-testid="add-venue-suggestions">
                    {move || suggestions.get().into_iter().map(|m| {
                        let code = m.code.clone();
                        view! {
                            <li>
                                <button type="button" class="block w-full px-3 py-2 text-left hover:bg-slate-50"
                                    on:click=move |_| add(code.clone())>
                                    <span class="font-medium">{m.name}</span> " " <span class="text-xs text-slate-500">{m.code} " · " {m.city} " · " {m.pool}</span>
                                </button>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            </Show>
        </div>
    }
}
