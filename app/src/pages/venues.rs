//! « Lieux »: the team's venue search. The form is a plain GET form, so a
//! search is a shareable URL (`/lieux?pool=…&q=…`) and works without
//! JavaScript; results come from the `search_venues` server function, which
//! holds the search back when the page was opened from another site.
//!
//! No pool is chosen by default: « Tous les pools » searches every pool
//! (issue 25: defaulting to the first pool of the list found 1 venue where
//! other pools had 6). The results say which pools were searched and how
//! they are ordered.
mod add_button;
mod pick_card;
mod results;
mod sheet;

pub use sheet::VenueSheetPage;

use crate::room_configurations::Configuration;
use crate::venue_search::{list_pools, search_venues, AppliedCriteria, SearchForm, MAX_TEXT_CHARS};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use results::ResultsView;

use super::{HeldSearch, MyPreferencesPanel, PageHeader};
use crate::raw_text::textarea_value;

/// The search text. An island for one reason: Enter in it submits the form,
/// as in a one-line field; Shift+Enter (and an input method composing) keeps
/// its newline. Without JavaScript it is a plain textarea.
#[island]
fn SearchText(text: String) -> impl IntoView {
    view! {
        <textarea name="q" rows="2" maxlength=MAX_TEXT_CHARS.to_string() data-testid="venue-search-text"
            placeholder="Rooftop festif dans le 8e pour 100 personnes avec vue sur Paris — ou collez l'e-mail de l'organisateur"
            class="mt-1 block w-full resize-y rounded-md border border-slate-300 px-3 py-2"
            on:keydown=submit_on_enter>{textarea_value(text)}</textarea>
    }
}

fn submit_on_enter(ev: leptos::ev::KeyboardEvent) {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        if ev.key() != "Enter" || ev.shift_key() || ev.is_composing() {
            return;
        }
        let form = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("form").ok().flatten())
            .and_then(|f| f.dyn_into::<web_sys::HtmlFormElement>().ok());
        if let Some(form) = form {
            ev.prevent_default();
            let _ = form.request_submit();
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = ev;
}

#[component]
pub fn VenuesPage() -> impl IntoView {
    let query = use_query_map();
    let form = Memo::new(move |_| {
        let q = query.read();
        SearchForm {
            pool: q.get("pool").unwrap_or_default(),
            text: q.get("q").unwrap_or_default(),
            participants: q.get("participants").and_then(|p| p.trim().parse().ok()),
            configurations: q.get_all("config").unwrap_or_default(),
            postal_codes: q
                .get("cp")
                .map(|cp| {
                    cp.split([',', ' '])
                        .filter(|c| !c.is_empty())
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
            // The request this search serves (« Chercher des lieux pour
            // cette demande »): its search preferences apply.
            request_id: q.get("demande").and_then(|d| d.trim().parse().ok()),
            // Defaults cleared for this search (« retirer »).
            skip_defaults: q.get_all("sans").unwrap_or_default(),
            ..SearchForm::default()
        }
    });
    let pools = Resource::new(|| (), |_| list_pools());
    // The form always sends `pool` (empty for every pool) and `q`: a page
    // opened bare shows the form alone, a submitted one searches.
    let submitted = Memo::new(move |_| {
        let q = query.read();
        ["pool", "q", "participants", "config", "cp", "demande"]
            .iter()
            .any(|key| q.get(key).is_some())
    });
    let results = Resource::new(
        move || (submitted.get(), form.get()),
        |(submitted, form)| async move {
            if submitted {
                Some(search_venues(form).await)
            } else {
                None
            }
        },
    );
    view! {
        <PageHeader title="Lieux" subtitle="Cherchez parmi les lieux de tous les pools, ou d'un seul, par zone, configuration et jauge, puis par ambiance." />
        // The form shows what the search understood (the text's reading
        // where a field was left empty), for the user to correct and re-run.
        <Transition fallback=move || view! { <SearchFormView form=form pools=pools applied=None /> }>
            {move || {
                let applied = results.get().flatten().and_then(Result::ok).filter(|r| !r.held).map(|r| r.applied);
                view! { <SearchFormView form=form pools=pools applied=applied /> }
            }}
        </Transition>
        <MyPreferencesPanel />
        <Suspense fallback=|| view! { <p class="mt-6 text-sm text-slate-500">"Recherche…"</p> }>
            {move || results.get().flatten().map(|r| match r {
                Ok(r) if r.held => view! { <HeldSearch
                    message="Cette recherche vient d'un lien extérieur : elle n'a pas été lancée. Vérifiez les critères ci-dessus."
                    testid="search-held" run_testid="run-search" /> }.into_any(),
                Ok(r) => view! { <ResultsView results=r /> }.into_any(),
                Err(e) => view! { <p role="alert" class="mt-6 rounded-md bg-red-50 px-4 py-3 text-sm text-red-700">{e.to_string()}</p> }.into_any(),
            })}
        </Suspense>
    }
}

#[component]
fn SearchFormView(
    form: Memo<SearchForm>,
    pools: Resource<Result<Vec<crate::venue_search::PoolOption>, crate::errors::AppError>>,
    applied: Option<AppliedCriteria>,
) -> impl IntoView {
    let f = form.get_untracked();
    let applied = applied.unwrap_or_default();
    // A field the user left empty shows what the text was read as.
    let participants = f
        .participants
        .map(|p| p.to_string())
        .or_else(|| applied.participants.map(|p| p.to_string()))
        .unwrap_or_default();
    let postal_codes = if f.postal_codes.is_empty() {
        applied.postal_codes.join(", ")
    } else {
        f.postal_codes.join(", ")
    };
    let chosen = if f.configurations.is_empty() {
        applied.configurations.clone()
    } else {
        f.configurations.clone()
    };
    let read_from_text = (f.participants.is_none() && applied.participants.is_some())
        || (f.postal_codes.is_empty() && !applied.postal_codes.is_empty())
        || (f.configurations.is_empty() && !applied.configurations.is_empty());
    let zone = applied.zone.clone();
    let selected_pool = f.pool.clone();
    view! {
        <form method="get" action="/lieux" class="space-y-4 rounded-xl border border-slate-200 bg-white p-5 text-sm" data-testid="venue-search-form">
            <div class="grid gap-4 md:grid-cols-[12rem_1fr]">
                <label class="block font-medium text-slate-700">
                    "Pool"
                    <select name="pool" class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-2">
                        <option value="" selected=f.pool.is_empty()>"Tous les pools"</option>
                        <Suspense fallback=|| ()>
                            {move || {
                                let selected_pool = selected_pool.clone();
                                pools.get().and_then(Result::ok).map(|list| {
                                    list.into_iter().map(|p| {
                                        let selected = p.slug == selected_pool;
                                        view! { <option value=p.slug selected=selected>{p.name}</option> }
                                    }).collect_view()
                                })
                            }}
                        </Suspense>
                    </select>
                </label>
                <label class="block font-medium text-slate-700">
                    "Recherche libre ou e-mail collé"
                    // A textarea: a pasted e-mail keeps its lines, which is how
                    // its signature and quoted thread are told from its body.
                    // Enter searches, Shift+Enter goes to a new line.
                    <SearchText text=f.text.clone() />
                </label>
            </div>
            <div class="grid gap-4 md:grid-cols-[12rem_12rem_1fr]">
                <label class="block font-medium text-slate-700">
                    "Participants"
                    <input type="number" name="participants" min="1" max="5000" value=participants data-testid="form-participants"
                        class="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2" />
                </label>
                <label class="block font-medium text-slate-700">
                    "Codes postaux"
                    <input type="text" name="cp" value=postal_codes placeholder="75008, 75017" data-testid="form-postal-codes"
                        class="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2" />
                </label>
                <fieldset>
                    <legend class="font-medium text-slate-700">"Configurations"</legend>
                    <div class="mt-2 flex flex-wrap gap-x-4 gap-y-1">
                        {Configuration::ALL.iter().map(|c| {
                            let key = c.key();
                            let checked = chosen.iter().any(|k| k == key);
                            view! {
                                <label class="flex items-center gap-1">
                                    <input type="checkbox" name="config" value=key checked=checked data-testid=format!("form-config-{key}") />
                                    {c.label()}
                                </label>
                            }
                        }).collect_view()}
                    </div>
                </fieldset>
            </div>
            {zone.map(|z| view! {
                <p class="text-slate-600" data-testid="form-zone">"Zone comprise : " {z}
                    <span class="text-slate-500">" — pour la changer, donnez des codes postaux ou précisez-la dans le texte."</span></p>
            })}
            {read_from_text.then(|| view! {
                <p class="text-xs text-slate-500" data-testid="form-read-from-text">"Champs remplis d'après votre texte : corrigez-les puis relancez la recherche."</p>
            })}
            // A new search keeps the request it serves and the defaults cleared.
            {f.request_id.map(|id| view! { <input type="hidden" name="demande" value=id.to_string() /> })}
            {f.skip_defaults.iter().map(|k| view! { <input type="hidden" name="sans" value=k.clone() /> }).collect_view()}
            <button type="submit" class="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700">"Rechercher"</button>
        </form>
    }
}
