//! Building blocks shared by every page: the title block and the "coming" notice.
use leptos::prelude::*;
use leptos_meta::Title;

/// The page `<h1>`, its subtitle, and the document title.
#[component]
pub fn PageHeader(title: &'static str, subtitle: &'static str) -> impl IntoView {
    view! {
        <Title text=title />
        <div class="mb-8">
            <h1 class="text-2xl font-semibold tracking-tight">{title}</h1>
            <p class="mt-1 text-sm text-slate-500">{subtitle}</p>
        </div>
    }
}

/// An honest placeholder for a section whose feature has not landed yet.
#[component]
pub fn ComingSoon(what: &'static str) -> impl IntoView {
    view! {
        <div class="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-sm text-slate-500" data-testid="coming-soon">
            {what}
        </div>
    }
}
