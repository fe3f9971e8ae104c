//! `/console/mesures/lignes?famille=…&jour=…` (or `&jours=30`): the rows a
//! chart of « Mesures » counts, newest first, as a plain table.
use super::{AdminOnly, ConsoleNav, LoadError};
use crate::measures::{read_measure_rows, RowsQuery, ROWS_SHOWN};
use crate::pages::PageHeader;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

#[component]
pub fn MeasureRowsPage() -> impl IntoView {
    view! { <AdminOnly><MeasureRows /></AdminOnly> }
}

#[component]
fn MeasureRows() -> impl IntoView {
    let query = use_query_map();
    let rows_query = Memo::new(move |_| {
        let q = query.read();
        let get = |k: &str| q.get(k).unwrap_or_default().trim().to_string();
        RowsQuery {
            family: get("famille"),
            day: get("jour"),
            days: get("jours").parse().unwrap_or(0),
        }
    });
    let rows = Resource::new(move || rows_query.get(), read_measure_rows);
    view! {
        <PageHeader title="Lignes des mesures" subtitle="Ce que compte un graphique de « Mesures », le plus récent d'abord." />
        <ConsoleNav current="/console/mesures" />
        <p class="mb-4 text-sm"><a href="/console/mesures" class="text-indigo-700 underline">"← Retour aux mesures"</a></p>
        <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
            {move || rows.get().map(|result| match result {
                Ok(rows) => {
                    let shown = rows.table.rows.len() as i64;
                    view! {
                        <section aria-labelledby="rows-title" class="min-w-0 rounded-xl border border-slate-200 bg-white p-4">
                            <h2 id="rows-title" class="text-lg font-medium">{rows.title}</h2>
                            <p class="mb-3 text-sm text-slate-500" data-testid="rows-count">
                                {format!("{} — {}", rows.period, crate::fr::plural(rows.total, "ligne", "lignes"))}
                                {(rows.total > shown).then(|| format!(" (les {} plus récentes)", crate::fr::int(ROWS_SHOWN)))}
                            </p>
                            {if rows.table.rows.is_empty() {
                                view! { <p class="text-sm text-slate-500">"Rien sur cette période."</p> }.into_any()
                            } else {
                                view! {
                                    <div class="overflow-x-auto">
                                        <table class="w-full text-left text-sm" data-testid="rows-table">
                                            <thead>
                                                <tr>{rows.table.columns.into_iter().map(|c| view! { <th scope="col" class="px-2 py-1 text-xs font-medium text-slate-500">{c}</th> }).collect_view()}</tr>
                                            </thead>
                                            <tbody>
                                                {rows.table.rows.into_iter().map(|row| view! {
                                                    <tr class="border-t border-slate-100 align-top">
                                                        {row.into_iter().map(|c| view! { <td class="px-2 py-1 break-words">{c}</td> }).collect_view()}
                                                    </tr>
                                                }).collect_view()}
                                            </tbody>
                                        </table>
                                    </div>
                                }.into_any()
                            }}
                        </section>
                    }.into_any()
                }
                Err(error) => view! { <LoadError error /> }.into_any(),
            })}
        </Suspense>
    }
}
