//! A link to pass on by hand (or a copy of the one e-mailed): shown once, absolute,
//! selectable, with a copy button.
use leptos::prelude::*;

#[component]
pub fn CopyLink(
    /// `/c/<token>` or `/v/<token>`.
    path: String,
    #[prop(into)] testid: String,
) -> impl IntoView {
    // The site's address is the browser's: the server may sit behind any
    // proxy. Rendered on the server, the path alone is shown.
    let origin = RwSignal::new(String::new());
    Effect::new(move |_| {
        #[cfg(feature = "hydrate")]
        origin.set(window().location().origin().unwrap_or_default());
    });
    let copied = RwSignal::new(false);
    let url = {
        let path = path.clone();
        move || format!("{}{}", origin.get(), path)
    };
    let copy = {
        let url = url.clone();
        move |_| {
            let text = url();
            #[cfg(feature = "hydrate")]
            {
                let _ = window().navigator().clipboard().write_text(&text);
            }
            let _ = text;
            copied.set(true);
        }
    };
    view! {
        <div class="flex flex-wrap items-center gap-2">
            <input
                type="text"
                readonly
                data-testid=testid
                value=url
                class="min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-2 py-1 font-mono text-xs"
            />
            <button
                type="button"
                on:click=copy
                class="rounded-md border border-slate-300 bg-white px-3 py-1 text-xs font-medium hover:bg-slate-100"
            >
                {move || if copied.get() { "Copié" } else { "Copier" }}
            </button>
        </div>
    }
}
