//! The search box and its results. The box posts the search
//! ([`search_memory`]: recorded, then `/memoire?q=…`); the results page
//! renders `?q=` with [`memory_results`] (never recorded). With JavaScript
//! the posted answer is shown as it came under its own URL, not searched a
//! second time. A page opened from another site does not search at all: it
//! shows the query and a button that posts it.
//!
//! Each hit says in words how sure the search is: « correspond »,
//! « peut-être », and « contient vos mots » when its words, not its meaning,
//! brought it up. When nothing matched, one sentence above the list says
//! so and the hits (the latest memories) carry no label. Never a score.
use crate::memory::{memory_results, HitView, SearchMemory, SearchView};
use crate::pages::{failure, FormError};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

#[component]
pub fn SearchBox(search: ServerAction<SearchMemory>) -> impl IntoView {
    let query = use_query_map();
    let q = Memo::new(move |_| {
        query
            .read()
            .get("q")
            .map(|q| q.trim().to_string())
            .filter(|q| !q.is_empty())
    });
    // The answer just posted, when it is this URL's (JavaScript: the page
    // goes to the results' URL once the post has answered).
    let posted = move |q: Option<&str>| {
        search.value().with(|v| match v {
            Some(Ok(answer)) if Some(answer.query.as_str()) == q => Some(answer.clone()),
            _ => None,
        })
    };
    let results = Resource::new(
        move || q.get(),
        move |q| {
            let already = search.value().with_untracked(|v| match v {
                Some(Ok(answer)) if Some(answer.query.as_str()) == q.as_deref() => {
                    Some(answer.clone())
                }
                _ => None,
            });
            async move {
                match (q, already) {
                    (_, Some(answer)) => Some(Ok(answer)),
                    (Some(q), None) => Some(memory_results(q).await),
                    (None, None) => None,
                }
            }
        },
    );
    let busy = search.pending();
    view! {
        <section aria-label="Recherche dans la mémoire">
            <ActionForm action=search attr:class="text-sm" attr:data-testid="memory-search">
                <label for="memory-search-input" class="block">"Rechercher dans vos souvenirs et rappels"</label>
                <p class="text-xs text-slate-500">"Par le sens, pas seulement les mots : « traiteur végétarien » retrouve « menu sans viande »."</p>
                <div class="mt-1 flex gap-2">
                    <input type="search" id="memory-search-input" name="query" value=move || q.get().unwrap_or_default() maxlength="500" required
                        data-testid="memory-search-input"
                        class="block min-w-0 flex-1 rounded-md border border-slate-300 px-2 py-1.5" />
                    <button type="submit" disabled=move || busy.get()
                        class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
                        data-testid="memory-search-submit">
                        "Rechercher"
                    </button>
                </div>
            </ActionForm>
            <div class="mt-2">
                <FormError error=failure(search) testid="memory-search-error" />
            </div>
            <Suspense fallback=|| view! { <p class="mt-4 text-sm text-slate-500">"Recherche…"</p> }>
                {move || {
                    let current = q.get();
                    let answer = match posted(current.as_deref()) {
                        Some(answer) => Some(Ok(answer)),
                        None => results.get().flatten(),
                    };
                    answer.map(|answer| match answer {
                        Ok(answer) if answer.held => view! { <Held query=answer.query search /> }.into_any(),
                        Ok(answer) => view! { <Answer answer /> }.into_any(),
                        Err(e) => view! {
                            <p role="alert" class="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700" data-testid="memory-search-failed">{e.to_string()}</p>
                        }.into_any(),
                    })
                }}
            </Suspense>
        </section>
    }
}

/// A search opened from another site: its query, not run, and a button
/// that posts it (recorded like any search the member runs).
#[component]
fn Held(query: String, search: ServerAction<SearchMemory>) -> impl IntoView {
    view! {
        <div role="status" class="mt-4 rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-900" data-testid="memory-search-held">
            <p>"Cette recherche vient d'un lien extérieur : elle n'a pas été lancée. Vérifiez-la ci-dessus."</p>
            <ActionForm action=search attr:class="mt-2">
                <input type="hidden" name="query" value=query />
                <button type="submit" data-testid="memory-run-search"
                    class="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700">
                    "Lancer la recherche"
                </button>
            </ActionForm>
        </div>
    }
}

/// A search's answer.
#[component]
pub fn Answer(answer: SearchView) -> impl IntoView {
    let intro = if answer.hits.is_empty() {
        None
    } else if answer.nothing_matched {
        Some(
            view! {
                <p class="mb-3 font-medium text-slate-700" data-testid="memory-nothing-matched">
                    "Aucun souvenir ne correspond ; voici les plus récents."
                </p>
            }
            .into_any(),
        )
    } else {
        let n = answer.hits.len();
        let found = format!(
            "{} pour « {} »",
            crate::fr::plural(n, "résultat", "résultats"),
            answer.query
        );
        Some(
            view! { <p class="mb-3 text-slate-600" data-testid="memory-found">{found}</p> }
                .into_any(),
        )
    };
    view! {
        <div class="mt-4 rounded-xl border border-slate-200 bg-white p-4 text-sm" data-testid="memory-results"
            data-nothing-matched=answer.nothing_matched.to_string()>
            {intro}
            {if answer.hits.is_empty() {
                view! { <p class="text-slate-500" data-testid="memory-no-hit">"Rien en mémoire pour l'instant : ni souvenir ni rappel."</p> }.into_any()
            } else {
                view! {
                    <ul class="space-y-2">
                        {answer.hits.into_iter().map(|h| view! { <Hit hit=h /> }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </div>
    }
}

#[component]
fn Hit(hit: HitView) -> impl IntoView {
    let label = hit.confidence.label().map(|label| {
        let class = match hit.confidence {
            crate::memory::HitConfidence::Matches => {
                "rounded bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800"
            }
            _ => "rounded bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800",
        };
        view! { <span class=class data-testid="memory-hit-confidence">{label}</span> }
    });
    view! {
        <li class="rounded-lg border border-slate-100 p-3" data-testid="memory-hit" data-kind=hit.kind.clone()>
            <div class="flex flex-wrap items-center gap-2">
                {label}
                <span class="rounded bg-slate-100 px-2 py-0.5 text-xs" data-testid="memory-hit-kind">{hit.kind_label.clone()}</span>
                {hit.by_words.then(|| view! { <span class="text-xs text-slate-500" data-testid="memory-hit-words">"contient vos mots"</span> })}
                {hit.due_on.clone().map(|d| view! { <span class="text-xs text-slate-500">{format!("échéance : {d}")}</span> })}
            </div>
            {super::shown_title(&hit.title, &hit.content).map(|t| view! { <p class="mt-1 font-medium">{t}</p> })}
            <p class="mt-1 whitespace-pre-line text-slate-700" data-testid="memory-hit-content">{hit.content.clone()}</p>
        </li>
    }
}

// Rendered as the server renders it (`ssr`, as the workspace's tests build).
#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;
    use crate::memory::HitConfidence;

    fn hit(id: i64, confidence: HitConfidence, by_words: bool) -> HitView {
        HitView {
            kind: "memory".into(),
            kind_label: "souvenir".into(),
            id,
            title: String::new(),
            content: format!("Le Pavillon {id} ferme le dimanche"),
            confidence,
            by_words,
            due_on: None,
        }
    }

    fn rendered(answer: SearchView) -> String {
        let owner = Owner::new();
        owner.with(|| view! { <Answer answer /> }.to_html())
    }

    #[test]
    fn a_recency_answer_says_nothing_matched_and_labels_no_hit() {
        let html = rendered(SearchView {
            query: "piscine chauffée".into(),
            nothing_matched: true,
            hits: vec![
                hit(1, HitConfidence::Recent, false),
                hit(2, HitConfidence::Recent, false),
            ],
            held: false,
        });
        assert!(
            html.contains("Aucun souvenir ne correspond ; voici les plus récents."),
            "{html}"
        );
        assert!(!html.contains("memory-hit-confidence"), "{html}");
        for word in [
            "score",
            "correspond<",
            "peut-être",
            "récence",
            "vecteur",
            "plein texte",
            "recency",
        ] {
            assert!(!html.contains(word), "{word}: {html}");
        }
    }

    #[test]
    fn hits_say_how_sure_the_search_is_in_words() {
        let html = rendered(SearchView {
            query: "pavillon".into(),
            nothing_matched: false,
            hits: vec![
                hit(1, HitConfidence::Matches, false),
                hit(2, HitConfidence::Maybe, true),
            ],
            held: false,
        });
        assert!(html.contains(">correspond<"), "{html}");
        assert!(html.contains(">peut-être<"), "{html}");
        assert!(html.contains(">contient vos mots<"), "{html}");
        assert!(html.contains("2 résultats pour « "), "{html}");
        assert!(!html.contains("Aucun souvenir ne correspond"), "{html}");
        assert!(!html.contains("score"), "{html}");
    }
}
