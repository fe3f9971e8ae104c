//! How the searches of the last 30 days were answered (seed 003, part 7):
//! one bar per source, as plain HTML widths (no chart library, no script).
use super::search::source_class;
use crate::memory::{source_label, SourceSplitView};
use leptos::prelude::*;

#[component]
pub fn SourceChart(split: SourceSplitView) -> impl IntoView {
    let total = split.total();
    let rows = [
        ("vector", split.vector, "bg-indigo-500"),
        ("fts", split.fts, "bg-amber-500"),
        ("recency", split.recency, "bg-slate-400"),
    ];
    view! {
        <section class="rounded-xl border border-slate-200 bg-white p-4 text-sm" data-testid="memory-chart">
            <h2 class="mb-1 text-lg font-medium">"Vos recherches (30 jours)"</h2>
            <p class="mb-3 text-xs text-slate-500">
                {match total {
                    0 => "Aucune recherche pour l'instant.".to_string(),
                    1 => "1 recherche, par source de la réponse.".to_string(),
                    n => format!("{n} recherches, par source de la réponse."),
                }}
            </p>
            <dl class="space-y-2">
                {rows.into_iter().map(|(source, count, color)| {
                    let share = if total > 0 { count * 100 / total } else { 0 };
                    view! {
                        <div data-testid=format!("memory-chart-{source}")>
                            <dt class="flex justify-between">
                                <span class=source_class(source)>{source_label(source)}</span>
                                <span class="text-xs text-slate-600" data-testid="memory-chart-count">{format!("{count} ({share} %)")}</span>
                            </dt>
                            <dd class="mt-1 h-2 w-full rounded bg-slate-100" aria-hidden="true">
                                <div class=format!("h-2 rounded {color}") style=format!("width: {share}%")></div>
                            </dd>
                        </div>
                    }
                }).collect_view()}
            </dl>
        </section>
    }
}
