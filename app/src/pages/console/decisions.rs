//! `/console/decisions`: the decision log, newest first, 50 a page. Its
//! filters (station, mode after the cap, door, playbook) are a GET form and
//! the pages are links: the address says what is shown, without JavaScript
//! too. Each row's candidates (relevance, band, why) are behind a disclosure.
use super::{AdminOnly, ConsoleNav, LoadError};
use crate::pages::PageHeader;
use crate::playbook_console::{
    encode, list_decisions, CandidateView, DecisionFilters, DecisionPage, DecisionView, MODES,
    ORIGINS,
};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

#[component]
pub fn DecisionsPage() -> impl IntoView {
    view! { <AdminOnly><Decisions /></AdminOnly> }
}

#[component]
fn Decisions() -> impl IntoView {
    let query = use_query_map();
    let filters = Memo::new(move |_| {
        let q = query.read();
        let get = |k: &str| q.get(k).unwrap_or_default().trim().to_string();
        DecisionFilters {
            station: get("station"),
            band: get("mode"),
            origin: get("origine"),
            playbook: get("playbook"),
            page: get("page").parse().unwrap_or(1).max(1),
        }
    });
    let page = Resource::new(move || filters.get(), list_decisions);
    view! {
        <PageHeader title="Décisions" subtitle="Chaque évaluation des playbooks : candidats, pertinence, mode et ce qui a suivi." />
        <ConsoleNav current="/console/decisions" />
        <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
            {move || page.get().map(|result| match result {
                Ok(data) => view! { <Log data filters=filters.get_untracked() /> }.into_any(),
                Err(error) => view! { <LoadError error /> }.into_any(),
            })}
        </Suspense>
    }
}

/// The address of the log with `filters` at `page`.
fn address(filters: &DecisionFilters, page: u32) -> String {
    let mut url = String::from("/console/decisions?");
    for (key, value) in [
        ("station", &filters.station),
        ("mode", &filters.band),
        ("origine", &filters.origin),
        ("playbook", &filters.playbook),
    ] {
        if !value.is_empty() {
            url.push_str(&format!("{key}={}&", encode(value)));
        }
    }
    url.push_str(&format!("page={page}"));
    url
}

#[component]
fn Log(data: DecisionPage, filters: DecisionFilters) -> impl IntoView {
    let select_class = "mt-1 block w-full rounded-md border border-slate-300 px-2 py-1";
    let options = |all: &'static str, choices: Vec<(String, String)>, current: &str| {
        let current = current.to_string();
        view! {
            <option value="">{all}</option>
            {choices.into_iter().map(|(value, label)| {
                let selected = value == current;
                view! { <option value=value selected=selected>{label}</option> }
            }).collect_view()}
        }
    };
    let pairs = |table: &[(&str, &str)]| {
        table
            .iter()
            .map(|(k, l)| (k.to_string(), l.to_string()))
            .collect::<Vec<_>>()
    };
    let playbooks = data.playbooks.clone();
    let previous = (data.page > 1).then(|| address(&filters, data.page - 1));
    let next = data.has_next.then(|| address(&filters, data.page + 1));
    view! {
        <form method="get" action="/console/decisions" class="mb-4 grid grid-cols-2 gap-3 text-sm md:grid-cols-5" data-testid="decision-filters">
            <label class="block">"Station"<select name="station" class=select_class>{options("Toutes", data.stations.clone(), &filters.station)}</select></label>
            <label class="block">"Mode"<select name="mode" class=select_class>{options("Tous", pairs(MODES), &filters.band)}</select></label>
            <label class="block">"Origine"<select name="origine" class=select_class>{options("Toutes", pairs(ORIGINS), &filters.origin)}</select></label>
            <label class="block">"Playbook"<select name="playbook" class=select_class>{options("Tous", playbooks, &filters.playbook)}</select></label>
            <div class="flex items-end">
                <button type="submit" class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700">"Filtrer"</button>
            </div>
        </form>
        {if data.rows.is_empty() {
            view! { <p class="text-sm text-slate-500" data-testid="decisions-empty">"Aucune décision pour ces filtres."</p> }.into_any()
        } else {
            view! {
                <div class="overflow-x-auto rounded-xl border border-slate-200 bg-white">
                    <table class="min-w-full text-left text-sm" data-testid="decisions">
                        <thead class="border-b border-slate-200 text-xs uppercase text-slate-500">
                            <tr>
                                <th class="px-3 py-2">"Quand"</th><th class="px-3 py-2">"Qui"</th>
                                <th class="px-3 py-2">"Station"</th><th class="px-3 py-2">"Origine"</th>
                                <th class="px-3 py-2">"Action décrite"</th><th class="px-3 py-2">"Mode"</th>
                                <th class="px-3 py-2">"Ouvert"</th><th class="px-3 py-2">"Suite"</th>
                                <th class="px-3 py-2">"Candidats"</th>
                            </tr>
                        </thead>
                        <tbody class="divide-y divide-slate-100 align-top">
                            {data.rows.into_iter().map(|row| view! { <Row row /> }).collect_view()}
                        </tbody>
                    </table>
                </div>
            }.into_any()
        }}
        <nav aria-label="Pages du journal des décisions" class="mt-4 flex gap-4 text-sm">
            {previous.map(|href| view! { <a href=href class="text-indigo-700 hover:underline">"← Plus récentes"</a> })}
            <span class="text-slate-500">{format!("Page {}", data.page)}</span>
            {next.map(|href| view! { <a href=href class="text-indigo-700 hover:underline" data-testid="decisions-next">"Plus anciennes →"</a> })}
        </nav>
    }
}

#[component]
fn Row(row: DecisionView) -> impl IntoView {
    let mode = match &row.uncapped {
        Some(before) => format!("{} (selon la pertinence : {before})", row.mode),
        None => row.mode.clone(),
    };
    let outcome = match (row.outcome, row.suggested.is_empty()) {
        (Some(o), _) => o,
        (None, false) => format!("suggéré : {}", row.suggested.join(", ")),
        (None, true) => String::new(),
    };
    let count = row.candidates.len();
    view! {
        <tr data-testid="decision" data-id=row.id.to_string()>
            <td class="whitespace-nowrap px-3 py-2 text-slate-500">{row.at}</td>
            <td class="whitespace-nowrap px-3 py-2">{row.who}</td>
            <td class="whitespace-nowrap px-3 py-2">{row.station}</td>
            <td class="whitespace-nowrap px-3 py-2">{row.origin}</td>
            <td class="min-w-[14rem] px-3 py-2 text-slate-700">{row.action}</td>
            <td class="whitespace-nowrap px-3 py-2" data-testid="decision-mode">{mode}</td>
            <td class="whitespace-nowrap px-3 py-2">{row.opened.unwrap_or_else(|| "—".into())}</td>
            <td class="min-w-[10rem] px-3 py-2 text-slate-600">{outcome}</td>
            <td class="px-3 py-2">
                <details>
                    <summary class="cursor-pointer whitespace-nowrap text-indigo-700">{format!("{count} candidat{}", if count > 1 { "s" } else { "" })}</summary>
                    <Candidates candidates=row.candidates />
                </details>
            </td>
        </tr>
    }
}

/// Candidates by their French label (the internal name stays in
/// `data-name`), with their relevance, band and the reason of an ineligible one.
#[component]
pub fn Candidates(candidates: Vec<CandidateView>) -> impl IntoView {
    view! {
        <ul class="mt-2 space-y-1 text-xs" data-testid="candidates">
            {candidates.into_iter().map(|c| {
                let key = c.name.clone();
                view! {
                <li class="min-w-[16rem]" data-testid="candidate" data-name=key>
                    <span class="font-medium">{c.label}</span>
                    {format!(" · pertinence {} · {}", c.score, c.band)}
                    {(!c.eligible).then_some(" · non admissible")}
                    {c.reason.map(|r| view! { <span class="text-slate-500">{format!(" · {r}")}</span> })}
                </li>
            }}).collect_view()}
        </ul>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_keep_their_filters() {
        let filters = DecisionFilters {
            station: "chat".into(),
            band: "suggest".into(),
            ..Default::default()
        };
        assert_eq!(
            address(&filters, 2),
            "/console/decisions?station=chat&mode=suggest&page=2"
        );
        assert_eq!(
            address(&DecisionFilters::default(), 1),
            "/console/decisions?page=1"
        );
    }
}
