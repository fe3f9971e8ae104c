//! A request's status as a coloured badge.
use crate::requests::status_label;
use leptos::prelude::*;

/// The badge's classes for a status key (one static string: the list
/// renders 25 of them per page).
fn badge_class(status: &str) -> &'static str {
    match status {
        "new" => "inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium bg-sky-100 text-sky-800",
        "qualifying" => "inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium bg-amber-100 text-amber-800",
        "catalogue_sent" => "inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium bg-indigo-100 text-indigo-800",
        "won" => "inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium bg-emerald-100 text-emerald-800",
        "lost" => "inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium bg-rose-100 text-rose-800",
        _ => "inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium bg-slate-100 text-slate-700",
    }
}

/// The badge as a plain view (no component of its own: cheaper in a list).
pub fn status_badge(status: String) -> impl IntoView {
    let class = badge_class(&status);
    let label = status_label(&status).to_string();
    view! {
        <span data-testid="status-badge" data-status=status class=class>{label}</span>
    }
}

#[component]
pub fn StatusBadge(status: String) -> impl IntoView {
    status_badge(status)
}
