//! The search box and its results: a GET form (`?q=`), so a search works
//! without JavaScript and can be bookmarked; each result shows its kind,
//! the step that found it and its score, and the answer the step of the
//! chain that answered (seed 003, part 7).
//!
//! GET never writes: a page rendered for a GET searches without recording
//! the search, and one opened from another site does not search at all (it
//! shows the query and a button, like the venue search). With JavaScript
//! the form navigates inside the page, so the search is the server
//! function's POST, which records it in the member's source split.
use crate::memory::{search_memory, source_label, HitView};
use crate::pages::HeldSearch;
use leptos::prelude::*;
use leptos_router::components::Form;
use leptos_router::hooks::use_query_map;

#[component]
pub fn SearchBox() -> impl IntoView {
    let query = use_query_map();
    let q = Memo::new(move |_| {
        query
            .read()
            .get("q")
            .map(|q| q.trim().to_string())
            .filter(|q| !q.is_empty())
    });
    let results = Resource::new(
        move || q.get(),
        |q| async move {
            match q {
                Some(q) => Some(search_memory(q).await),
                None => None,
            }
        },
    );
    view! {
        <section aria-label="Recherche dans la mémoire">
            <Form method="get" action="/memoire" attr:class="flex items-end gap-2 text-sm" attr:data-testid="memory-search">
                <label class="block flex-1">
                    "Rechercher (par le sens : « médicaments cette semaine » retrouve « paracétamol »)"
                    <input type="search" name="q" value=move || q.get().unwrap_or_default() maxlength="500"
                        data-testid="memory-search-input"
                        class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5" />
                </label>
                <button type="submit" class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700" data-testid="memory-search-submit">
                    "Rechercher"
                </button>
            </Form>
            <Suspense fallback=|| ()>
                {move || results.get().flatten().map(|answer| match answer {
                    Ok(answer) if answer.held => view! { <HeldSearch on_run=move || results.refetch()
                        message="Cette recherche vient d'un lien extérieur : elle n'a pas été lancée. Vérifiez-la ci-dessus."
                        testid="memory-search-held" run_testid="memory-run-search" /> }.into_any(),
                    Ok(answer) => {
                        let badge = source_label(&answer.source);
                        view! {
                            <div class="mt-4 rounded-xl border border-slate-200 bg-white p-4 text-sm" data-testid="memory-results">
                                <p class="mb-2 text-slate-600">
                                    "Réponse par " <span class=source_class(&answer.source) data-testid="memory-source">{badge}</span>
                                </p>
                                {if answer.hits.is_empty() {
                                    view! { <p class="text-slate-500" data-testid="memory-no-hit">"Rien en mémoire pour l'instant."</p> }.into_any()
                                } else {
                                    view! {
                                        <ul class="space-y-2">
                                            {answer.hits.into_iter().map(|h| view! { <Hit hit=h /> }).collect_view()}
                                        </ul>
                                    }.into_any()
                                }}
                            </div>
                        }.into_any()
                    }
                    Err(e) => view! {
                        <p role="alert" class="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700" data-testid="memory-search-error">{e.to_string()}</p>
                    }.into_any(),
                })}
            </Suspense>
        </section>
    }
}

/// The badge of a source (`vector`, `fts`, `recency`).
pub fn source_class(source: &str) -> &'static str {
    match source {
        "vector" => "rounded bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-800",
        "fts" => "rounded bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800",
        _ => "rounded bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700",
    }
}

#[component]
fn Hit(hit: HitView) -> impl IntoView {
    let score = format!("{:.2}", hit.score);
    view! {
        <li class="rounded-lg border border-slate-100 p-3" data-testid="memory-hit" data-kind=hit.kind.clone()>
            <div class="flex flex-wrap items-center gap-2">
                <span class="rounded bg-slate-100 px-2 py-0.5 text-xs" data-testid="memory-hit-kind">{hit.kind_label.clone()}</span>
                <span class=source_class(&hit.matched_by) data-testid="memory-hit-source">{source_label(&hit.matched_by)}</span>
                <span class="text-xs text-slate-500" data-testid="memory-hit-score">"score " {score}</span>
                {hit.due_on.clone().map(|d| view! { <span class="text-xs text-slate-500">"échéance " {d}</span> })}
            </div>
            {(!hit.title.is_empty()).then(|| view! { <p class="mt-1 font-medium">{hit.title.clone()}</p> })}
            <p class="mt-1 whitespace-pre-line text-slate-700" data-testid="memory-hit-content">{hit.content.clone()}</p>
        </li>
    }
}
