//! `/demandes`: the filtered, paged list of requests.
use super::filter_form::FilterForm;
use super::status_badge::status_badge;
use super::PageError;
use crate::fr;
use crate::pages::PageHeader;
use crate::requests::{list_request_pools, list_requests, RequestRow, RequestsList, RequestsQuery};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

#[component]
pub fn RequestsPage() -> impl IntoView {
    let query = use_query_map();
    let filters = Memo::new(move |_| {
        let q = query.read();
        let get = |name: &str| q.get(name).unwrap_or_default();
        RequestsQuery {
            status: get("status"),
            pool: get("pool"),
            from: get("from"),
            to: get("to"),
            month: get("month"),
            q: get("q"),
            mine: matches!(q.get("mine").as_deref(), Some("1" | "on" | "true")),
            page: get("page"),
        }
    });
    let pools = Resource::new(|| (), |_| list_request_pools());
    let list = Resource::new(move || filters.get(), list_requests);
    view! {
        <PageHeader title="Demandes" subtitle="Les demandes des organisateurs et leurs catalogues." />
        <FilterForm filters pools />
        <Transition fallback=|| view! { <p class="mt-6 text-sm text-slate-500">"Chargement…"</p> }>
            {move || list.get().map(|result| match result {
                Ok(page) => view! { <RequestsTable page filters=filters.get_untracked() /> }.into_any(),
                Err(error) => view! { <PageError error /> }.into_any(),
            })}
        </Transition>
    }
}

#[component]
fn RequestsTable(page: RequestsList, filters: RequestsQuery) -> impl IntoView {
    if page.rows.is_empty() {
        let text = if page.page > 1 {
            "Plus aucune demande au-delà de cette page."
        } else {
            "Aucune demande ne correspond à ces filtres."
        };
        return view! {
            <div data-testid="requests-empty" class="mt-6 rounded-xl border border-dashed border-slate-300 bg-white p-8 text-sm text-slate-500">
                <p>{text}</p>
                {(page.page > 1).then(|| view! {
                    <a href=href(&filters, 1) class="mt-2 inline-block font-medium text-indigo-700 hover:underline">"Revenir à la première page"</a>
                })}
            </div>
        }
        .into_any();
    }
    // The cells' classes are set once on the table (descendant variants)
    // rather than on each of the 250 cells: a lighter page to render and send.
    view! {
        <div class="mt-6 overflow-x-auto rounded-xl border border-slate-200 bg-white">
            <table data-testid="requests-table"
                class="min-w-full divide-y divide-slate-200 text-sm tabular-nums [&_th]:px-3 [&_th]:py-2 [&_th]:text-left [&_th]:font-medium [&_td]:px-3 [&_td]:py-2 [&_td]:align-top [&_tbody_tr:hover]:bg-slate-50">
                <thead class="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
                    <tr>
                        <th>"Référence"</th>
                        <th>"Organisateur"</th>
                        <th>"Événement"</th>
                        <th>"Pers."</th>
                        <th>"Date"</th>
                        <th>"Pool"</th>
                        <th>"Statut"</th>
                        <th>"Suivi par"</th>
                        <th>"Catalogue"</th>
                        <th>"Reçue le"</th>
                    </tr>
                </thead>
                <tbody class="divide-y divide-slate-100">
                    {page.rows.into_iter().map(row).collect_view()}
                </tbody>
            </table>
        </div>
        <Pager page=page.page has_previous=page.has_previous has_next=page.has_next filters />
    }
    .into_any()
}

/// One request as a table row: a plain view, not a component (one reactive
/// owner less per row).
fn row(row: RequestRow) -> impl IntoView {
    let dash = || "—".to_string();
    let picks = if row.picks == 0 {
        dash()
    } else {
        fr::plural(row.picks, "lieu", "lieux")
    };
    view! {
        <tr data-testid="request-row" data-id=row.id>
            <td class="whitespace-nowrap">
                <a href=format!("/demandes/{}", row.id) data-testid="request-link"
                    class="font-medium text-indigo-700 hover:underline">{row.reference}</a>
            </td>
            <td>{row.organizer.unwrap_or_else(dash)}</td>
            <td>{row.event_type.map_or_else(dash, |t| fr::event_type(&t))}</td>
            <td>{row.participants.map_or_else(dash, fr::int)}</td>
            <td class="whitespace-nowrap">{row.event_dates.unwrap_or_else(dash)}</td>
            <td>{row.pool}</td>
            <td>{status_badge(row.status)}</td>
            <td>{row.assigned_to.unwrap_or_else(dash)}</td>
            <td data-testid="request-picks">{picks}</td>
            <td class="whitespace-nowrap text-slate-500">{row.created_on}</td>
        </tr>
    }
}

/// `/demandes` with `filters` at `page`.
fn href(filters: &RequestsQuery, page: u32) -> String {
    let query = filters.to_query_string(page);
    if query.is_empty() {
        "/demandes".to_string()
    } else {
        format!("/demandes?{query}")
    }
}

#[component]
fn Pager(page: u32, has_previous: bool, has_next: bool, filters: RequestsQuery) -> impl IntoView {
    let link = "rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-50";
    view! {
        <nav class="mt-4 flex items-center justify-between text-sm" aria-label="Pages">
            <div>
                {has_previous.then(|| view! {
                    <a href=href(&filters, page - 1) rel="prev" data-testid="previous-page" class=link>"← Précédentes"</a>
                })}
            </div>
            <span class="text-slate-500" data-testid="page-number">"Page " {page}</span>
            <div>
                {has_next.then(|| view! {
                    <a href=href(&filters, page + 1) rel="next" data-testid="next-page" class=link>"Suivantes →"</a>
                })}
            </div>
        </nav>
    }
    .into_any()
}
