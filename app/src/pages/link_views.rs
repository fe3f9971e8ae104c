//! Pieces shared by the magic-link pages: the frame and the event summary.
use crate::room_configurations::label_of;
use leptos::prelude::*;

/// A light frame without the team navigation: link holders see nothing else.
#[component]
pub fn LinkFrame(children: Children) -> impl IntoView {
    view! {
        <div class="min-h-screen bg-slate-50">
            <header class="border-b border-slate-200 bg-white px-6 py-4">
                <span class="text-lg font-semibold tracking-tight">"Reciprok"</span>
            </header>
            <main class="mx-auto max-w-3xl px-6 py-8">{children()}</main>
        </div>
    }
}

/// The event: participants, dates, configurations, and the organizer's own words.
#[component]
pub fn EventSummary(
    reference: String,
    summary: String,
    participants: i32,
    dates: Option<String>,
    configurations: Vec<String>,
) -> impl IntoView {
    let configurations = configurations
        .iter()
        .map(|c| label_of(c).to_string())
        .collect::<Vec<_>>()
        .join(", ");
    view! {
        <section class="rounded-xl border border-slate-200 bg-white p-5 text-sm">
            <p class="text-xs uppercase tracking-wide text-slate-500">"Demande " {reference}</p>
            <p class="mt-2 text-slate-800">{summary}</p>
            <dl class="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-slate-600">
                <div><dt class="inline">"Participants : "</dt><dd class="inline font-medium">{crate::fr::int(participants)}</dd></div>
                {dates.map(|d| {
                    // « du … au … » is a span; a single day is one date.
                    let label = if d.starts_with("du ") { "Dates : " } else { "Date : " };
                    view! { <div><dt class="inline">{label}</dt><dd class="inline font-medium">{d}</dd></div> }
                })}
                {(!configurations.is_empty()).then(|| view! {
                    <div><dt class="inline">"Configurations : "</dt><dd class="inline font-medium">{configurations}</dd></div>
                })}
            </dl>
        </section>
    }
}

/// The message shown when a link is refused (or anything else failed).
/// Rendered on the server, it also gives the page the error's status (a
/// refused link is a real 404) and hands the error to the logging layer.
#[component]
pub fn LinkError(error: crate::errors::AppError) -> impl IntoView {
    #[cfg(feature = "ssr")]
    crate::errors::http::report(&error);
    let message = error.to_string();
    view! {
        <div role="alert" class="rounded-xl border border-amber-200 bg-amber-50 p-5 text-sm text-amber-900">{message}</div>
    }
}
