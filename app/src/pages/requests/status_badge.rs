//! A request's status as a coloured badge.
use crate::requests::status_label;
use leptos::prelude::*;

#[component]
pub fn StatusBadge(status: String) -> impl IntoView {
    let colours = match status.as_str() {
        "new" => "bg-sky-100 text-sky-800",
        "qualifying" => "bg-amber-100 text-amber-800",
        "catalogue_sent" => "bg-indigo-100 text-indigo-800",
        "won" => "bg-emerald-100 text-emerald-800",
        "lost" => "bg-rose-100 text-rose-800",
        _ => "bg-slate-100 text-slate-700",
    };
    let label = status_label(&status).to_string();
    view! {
        <span data-testid="status-badge" data-status=status
            class=format!("inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium {colours}")>
            {label}
        </span>
    }
}
