//! The short summary of the request above the tiers.
use crate::catalogue_builder::RequestSummary;
use leptos::prelude::*;

#[component]
pub fn RequestSummaryView(summary: RequestSummary) -> impl IntoView {
    let mut facts: Vec<String> = Vec::new();
    if let Some(t) = &summary.event_type {
        facts.push(crate::fr::event_type(t));
    }
    if let Some(n) = summary.participants {
        facts.push(crate::fr::plural(n, "personne", "personnes"));
    }
    if !summary.configurations.is_empty() {
        facts.push(summary.configurations.join(" ou "));
    }
    if !summary.area.is_empty() {
        facts.push(summary.area.clone());
    }
    if let Some(d) = &summary.dates {
        facts.push(d.clone());
    }
    facts.push(format!("pool {}", summary.pool));
    view! {
        <section class="mb-6 rounded-xl border border-slate-200 bg-white p-4 text-sm" data-testid="request-summary">
            <p class="font-medium text-slate-800">{facts.join(" · ")}
                {summary.workspace_scenario.then(|| view! { <span class="ml-2 rounded bg-violet-100 px-2 py-0.5 text-xs text-violet-800">"scénario d'atelier"</span> })}
            </p>
            // Third-party text: shown as text (escaped), never as HTML.
            <p class="mt-1 line-clamp-3 text-slate-600">{summary.description}</p>
        </section>
    }
}
