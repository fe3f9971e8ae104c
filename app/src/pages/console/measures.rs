//! `/console/mesures`: what the assistant costs and how well it serves,
//! one chart per question (cost, budget, tokens, venue search, catalogues,
//! memory, approvals, playbooks). The charts are SVG drawn by the server
//! and the period is a link (`?jours=7`): the page reads the same with
//! JavaScript off. Each chart has its numbers day by day behind a
//! disclosure, and a link to the rows it counts.
use super::{AdminOnly, ConsoleNav, LoadError};
use crate::measures::{period, read_measures, ChartView, RowsQuery, PERIODS};
use crate::pages::PageHeader;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

#[component]
pub fn MeasuresPage() -> impl IntoView {
    view! { <AdminOnly><Measures /></AdminOnly> }
}

#[component]
fn Measures() -> impl IntoView {
    let query = use_query_map();
    let days = Memo::new(move |_| {
        period(
            query
                .read()
                .get("jours")
                .and_then(|d| d.trim().parse().ok())
                .unwrap_or(PERIODS[0]),
        )
    });
    let measures = Resource::new(move || days.get(), read_measures);
    view! {
        <PageHeader title="Mesures" subtitle="Ce que coûte l'assistant et comment il sert, jour par jour (administrateurs)." />
        <ConsoleNav current="/console/mesures" />
        <PeriodLinks days />
        <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
            {move || measures.get().map(|result| match result {
                Ok(view) => view! {
                    <div class="grid gap-6 xl:grid-cols-2">
                        {view.charts.into_iter().map(|chart| view! { <Chart chart /> }).collect_view()}
                    </div>
                }.into_any(),
                Err(error) => view! { <LoadError error /> }.into_any(),
            })}
        </Suspense>
    }
}

/// The periods, as links.
#[component]
fn PeriodLinks(days: Memo<u32>) -> impl IntoView {
    let mut offered = PERIODS;
    offered.sort_unstable();
    view! {
        <nav aria-label="Période" data-testid="measure-periods" class="mb-6 flex flex-wrap items-center gap-2 text-sm">
            <span class="text-slate-500">"Période :"</span>
            {offered.into_iter().map(|n| view! {
                <a href=format!("/console/mesures?jours={n}")
                    aria-current=move || (days.get() == n).then_some("page")
                    class="rounded-full border border-slate-200 px-3 py-1 text-slate-600 hover:bg-slate-50 aria-[current=page]:border-indigo-600 aria-[current=page]:bg-indigo-50 aria-[current=page]:text-indigo-700">
                    {format!("{n} jours")}
                </a>
            }).collect_view()}
        </nav>
    }
}

#[component]
fn Chart(chart: ChartView) -> impl IntoView {
    let ChartView {
        id,
        title,
        period,
        summary,
        svg,
        legend,
        numbers,
        days,
        family,
        rows_href,
        rows_label,
    } = chart;
    let (heading, labelled_by) = (format!("{id}-titre"), format!("{id}-titre"));
    let anchor = id.clone();
    let day_link = move |i: usize, label: String| match (&family, days.get(i)) {
        (Some(family), Some(day)) => {
            let href = RowsQuery {
                family: family.clone(),
                day: day.clone(),
                days: 0,
            }
            .href();
            view! { <a href=href class="text-indigo-700 underline">{label}</a> }.into_any()
        }
        _ => label.into_any(),
    };
    view! {
        <section id=anchor aria-labelledby=labelled_by data-testid="measure-chart" data-chart=id
            class="min-w-0 rounded-xl border border-slate-200 bg-white p-4">
            <h2 id=heading class="text-base font-medium">{title}</h2>
            <p class="text-xs text-slate-500" data-testid="measure-period">{period}</p>
            <p class="mt-2 text-sm text-slate-800" data-testid="measure-summary">{summary}</p>
            {if svg.is_empty() {
                view! { <p class="mt-3 text-sm text-slate-500">"Graphique indisponible : les chiffres sont ci-dessous."</p> }.into_any()
            } else {
                view! { <div class="mt-3" data-testid="measure-svg" inner_html=svg></div> }.into_any()
            }}
            <ul class="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600" aria-label="Légende">
                {legend.into_iter().map(|(label, color)| view! {
                    <li class="flex items-center gap-1.5">
                        <svg width="10" height="10" aria-hidden="true"><rect width="10" height="10" rx="2" fill=color></rect></svg>
                        {label}
                    </li>
                }).collect_view()}
            </ul>
            <details class="mt-3 text-sm">
                <summary class="cursor-pointer text-indigo-700">"Les chiffres, jour par jour"</summary>
                <div class="mt-2 max-h-80 overflow-auto">
                    <table class="w-full text-left text-xs" data-testid="measure-numbers">
                        <thead>
                            <tr>{numbers.columns.into_iter().map(|c| view! { <th scope="col" class="px-2 py-1 font-medium text-slate-500">{c}</th> }).collect_view()}</tr>
                        </thead>
                        <tbody>
                            {numbers.rows.into_iter().enumerate().map(|(i, row)| {
                                let mut cells = row.into_iter();
                                let day = cells.next().unwrap_or_default();
                                view! {
                                    <tr class="border-t border-slate-100">
                                        <th scope="row" class="px-2 py-1 font-normal">{day_link(i, day)}</th>
                                        {cells.map(|c| view! { <td class="px-2 py-1 tabular-nums">{c}</td> }).collect_view()}
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
            </details>
            <a href=rows_href data-testid="measure-rows" class="mt-2 inline-block text-sm text-indigo-700 underline">{rows_label}</a>
        </section>
    }
}
