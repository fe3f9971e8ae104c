//! The console's audit journal: who did what, when (Paris time), on which
//! object (in words, linked to its page). Its filters are a GET form and its
//! pages are links, so a filtered view has an address to share and works
//! without JavaScript. The views by kind of actor stay as quick links.
use super::LoadError;
use crate::admin::{
    read_journal, AuditKind, JournalFilters, JournalObject, JournalPage, JournalRow, FAMILIES,
    PERIODS,
};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

#[component]
pub fn Journal() -> impl IntoView {
    let query = use_query_map();
    let filters = Memo::new(move |_| {
        let q = query.read();
        let get = |k: &str| q.get(k).unwrap_or_default().trim().to_string();
        JournalFilters {
            journal: get("journal"),
            member: get("membre"),
            family: get("quoi"),
            period: get("periode"),
            from: get("du"),
            to: get("au"),
            text: get("q"),
            page: get("page").parse().unwrap_or(1).max(1),
        }
    });
    let page = Resource::new(move || filters.get(), read_journal);
    view! {
        <section aria-labelledby="journal-title" class="mt-8">
            <h2 id="journal-title" class="mb-3 text-lg font-medium">"Journal d'audit"</h2>
            <JournalTabs filters />
            <Transition fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
                {move || page.get().map(|result| match result {
                    Ok(data) => view! { <Filtered data filters=filters.get_untracked() /> }.into_any(),
                    Err(error) => view! { <LoadError error /> }.into_any(),
                })}
            </Transition>
        </section>
    }
}

/// The views by kind of actor, as plain links (each starts a fresh view).
#[component]
fn JournalTabs(filters: Memo<JournalFilters>) -> impl IntoView {
    let current = move || AuditKind::parse(&filters.get().journal).ok();
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

/// `(value, label)` options with `current` selected, after « all ».
fn options(all: &'static str, choices: Vec<(String, String)>, current: &str) -> impl IntoView {
    let current = current.to_string();
    view! {
        <option value="">{all}</option>
        {choices.into_iter().map(|(value, label)| {
            let selected = value == current;
            view! { <option value=value selected=selected>{label}</option> }
        }).collect_view()}
    }
}

#[component]
fn Filtered(data: JournalPage, filters: JournalFilters) -> impl IntoView {
    let field = "mt-1 block w-full min-w-0 rounded-md border border-slate-300 px-2 py-1";
    let families = FAMILIES
        .iter()
        .map(|(k, l, _)| (k.to_string(), l.to_string()))
        .collect();
    let periods = PERIODS
        .iter()
        .map(|(k, l)| (k.to_string(), l.to_string()))
        .collect();
    let previous = (data.page > 1).then(|| filters.address(data.page - 1));
    let next = data.has_next.then(|| filters.address(data.page + 1));
    let journal = filters.journal.clone();
    view! {
        <form method="get" action="/console" data-testid="journal-filters"
            class="mb-4 grid grid-cols-1 gap-3 rounded-xl border border-slate-200 bg-white p-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
            <input type="hidden" name="journal" value=journal />
            <label class="block min-w-0">"Qui"
                <select name="membre" class=field data-testid="journal-who">{options("Tout le monde", data.members.clone(), &filters.member)}</select>
            </label>
            <label class="block min-w-0">"Quoi"
                <select name="quoi" class=field data-testid="journal-what">{options("Toutes les actions", families, &filters.family)}</select>
            </label>
            <label class="block min-w-0">"Quand"
                <select name="periode" class=field data-testid="journal-when">{options("Toute période", periods, &filters.period)}</select>
            </label>
            <label class="block min-w-0">"Mots"
                <input type="search" name="q" value=filters.text.clone() placeholder="Nom, action, demande…" class=field data-testid="journal-text" />
            </label>
            <label class="block min-w-0">"Du"
                <input type="date" name="du" value=filters.from.clone() class=field />
            </label>
            <label class="block min-w-0">"Au"
                <input type="date" name="au" value=filters.to.clone() class=field />
            </label>
            <div class="flex items-end gap-3 sm:col-span-2">
                <button type="submit" data-testid="journal-submit"
                    class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700">"Filtrer"</button>
                <a href="/console" class="py-1.5 text-indigo-700 hover:underline">"Tout effacer"</a>
            </div>
        </form>
        {if data.rows.is_empty() {
            view! { <p class="text-sm text-slate-500" data-testid="journal-empty">"Aucune action pour ces filtres."</p> }.into_any()
        } else {
            view! { <Rows rows=data.rows /> }.into_any()
        }}
        <nav aria-label="Pages du journal" class="mt-4 flex flex-wrap items-center gap-4 text-sm">
            {previous.map(|href| view! { <a href=href class="text-indigo-700 hover:underline" data-testid="journal-previous">"← Plus récentes"</a> })}
            <span class="text-slate-500" data-testid="journal-page">{format!("Page {}", data.page)}</span>
            {next.map(|href| view! { <a href=href class="text-indigo-700 hover:underline" data-testid="journal-next">"Plus anciennes →"</a> })}
        </nav>
    }
}

/// The rows: a table on wide screens, stacked lines on a phone (the same
/// markup, its cells becoming blocks below 640 px).
#[component]
fn Rows(rows: Vec<JournalRow>) -> impl IntoView {
    view! {
        <div class="rounded-xl border border-slate-200 bg-white">
            <table class="w-full text-left text-sm" data-testid="audit-log">
                <thead class="hidden border-b border-slate-200 text-xs uppercase text-slate-500 sm:table-header-group">
                    <tr><th class="px-4 py-2">"Quand"</th><th class="px-4 py-2">"Qui"</th><th class="px-4 py-2">"Action"</th><th class="px-4 py-2">"Objet"</th></tr>
                </thead>
                <tbody class="divide-y divide-slate-100">
                    {rows.into_iter().map(|row| view! { <Row row /> }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

#[component]
fn Row(row: JournalRow) -> impl IntoView {
    let cell = "block px-4 py-0.5 sm:table-cell sm:py-2";
    view! {
        <tr class="block py-2 sm:table-row sm:py-0" data-testid="journal-row">
            <td class=format!("{cell} whitespace-nowrap text-slate-500")>{row.at}</td>
            <td class=format!("{cell} break-words")>{row.actor}</td>
            {match row.summary {
                // A flood's excess: its count, in words.
                Some(summary) => view! { <td class=cell data-testid="audit-summary">{summary}</td> }.into_any(),
                None => view! { <td class=format!("{cell} font-medium sm:font-normal") data-action=row.action>{row.action_label}</td> }.into_any(),
            }}
            <td class=format!("{cell} break-words text-slate-600")>{row.object.map(|o| view! { <ObjectLink object=o /> })}</td>
        </tr>
    }
}

#[component]
fn ObjectLink(object: JournalObject) -> impl IntoView {
    match object.href {
        Some(href) => view! {
            <a href=href class="text-indigo-700 hover:underline" data-testid="journal-object">{object.label}</a>
        }
        .into_any(),
        None => view! { <span>{object.label}</span> }.into_any(),
    }
}
