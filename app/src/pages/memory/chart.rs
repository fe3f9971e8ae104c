//! How the searches of the last 30 days were answered (seed 003, part 7):
//! one bar per source, drawn in SVG (no chart library, no script; widths
//! are SVG attributes because the page's CSP refuses inline styles). The
//! sources are said in a person's words ([`source_label`]).
use crate::fr;
use crate::memory::{source_label, SourceSplitView};
use leptos::prelude::*;

#[component]
pub fn SourceChart(split: SourceSplitView) -> impl IntoView {
    let total = split.total();
    let rows = [
        ("vector", split.vector, "fill-indigo-500"),
        ("fts", split.fts, "fill-amber-500"),
        ("recency", split.recency, "fill-slate-400"),
    ];
    view! {
        <section class="rounded-xl border border-slate-200 bg-white p-4 text-sm" data-testid="memory-chart">
            <h2 class="mb-1 text-lg font-medium">"Vos recherches (30 jours)"</h2>
            <p class="mb-3 text-xs text-slate-500">
                {match total {
                    0 => "Aucune recherche pour l'instant.".to_string(),
                    1 => "Sur 1 recherche :".to_string(),
                    n => format!("Sur {} recherches :", fr::int(n)),
                }}
            </p>
            <dl class="space-y-2">
                {rows.into_iter().map(|(source, count, color)| {
                    let share = if total > 0 { count * 100 / total } else { 0 };
                    view! {
                        <div data-testid=format!("memory-chart-{source}")>
                            <dt class="flex justify-between">
                                <span class="text-slate-700">{source_label(source)}</span>
                                <span class="text-xs text-slate-600" data-testid="memory-chart-count">{format!("{} ({share}\u{a0}%)", fr::int(count))}</span>
                            </dt>
                            <dd class="mt-1" aria-hidden="true">
                                <svg class="block h-2 w-full" viewBox="0 0 100 2" preserveAspectRatio="none">
                                    <rect width="100" height="2" rx="1" class="fill-slate-100"></rect>
                                    <rect width=share.to_string() height="2" rx="1" class=color data-testid="memory-chart-bar"></rect>
                                </svg>
                            </dd>
                        </div>
                    }
                }).collect_view()}
            </dl>
        </section>
    }
}
