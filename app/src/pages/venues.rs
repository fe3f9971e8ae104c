//! « Lieux »: the team's venue search. The form is a plain GET form, so a
//! search is a shareable URL (`/lieux?pool=…&q=…`) and works without
//! JavaScript; results come from the `search_venues` server function, which
//! holds the search back when the page was opened from another site.
//!
//! No pool is chosen by default: « Tous les pools » searches every pool
//! (issue 25: defaulting to the first pool of the list found 1 venue where
//! other pools had 6). The results say which pools were searched and how
//! they are ordered.
use crate::room_configurations::{phrase_of, Configuration};
use crate::venue_search::{
    list_pools, search_venues, SearchForm, SearchResults, SearchStats, VenuePick, MAX_TEXT_CHARS,
};
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_query_map};

use super::{AppliedDefaults, HeldSearch, MyPreferencesPanel, PageHeader};
use crate::raw_text::textarea_value;

/// Enter in the search text submits the form, as in a one-line field;
/// Shift+Enter (and an input method composing) keeps its newline.
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
        <SearchFormView form=form pools=pools />
        <MyPreferencesPanel />
        <Suspense fallback=|| view! { <p class="mt-6 text-sm text-slate-500">"Recherche…"</p> }>
            {move || results.get().flatten().map(|r| match r {
                Ok(r) if r.held => view! { <HeldSearch on_run=move || results.refetch()
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
) -> impl IntoView {
    let f = form.get_untracked();
    let chosen = f.configurations.clone();
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
                    <textarea name="q" rows="2" maxlength=MAX_TEXT_CHARS.to_string() data-testid="venue-search-text"
                        placeholder="Rooftop festif dans le 8e pour 100 personnes avec vue sur Paris — ou collez l'e-mail de l'organisateur"
                        class="mt-1 block w-full resize-y rounded-md border border-slate-300 px-3 py-2"
                        on:keydown=submit_on_enter>{textarea_value(f.text.clone())}</textarea>
                </label>
            </div>
            <div class="grid gap-4 md:grid-cols-[12rem_12rem_1fr]">
                <label class="block font-medium text-slate-700">
                    "Participants"
                    <input type="number" name="participants" min="1" max="5000" value=f.participants.map(|p| p.to_string()).unwrap_or_default()
                        class="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2" />
                </label>
                <label class="block font-medium text-slate-700">
                    "Codes postaux"
                    <input type="text" name="cp" value=f.postal_codes.join(", ") placeholder="75008, 75017"
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
                                    <input type="checkbox" name="config" value=key checked=checked />
                                    {c.label()}
                                </label>
                            }
                        }).collect_view()}
                    </div>
                </fieldset>
            </div>
            // A new search keeps the request it serves and the defaults cleared.
            {f.request_id.map(|id| view! { <input type="hidden" name="demande" value=id.to_string() /> })}
            {f.skip_defaults.iter().map(|k| view! { <input type="hidden" name="sans" value=k.clone() /> }).collect_view()}
            <button type="submit" class="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700">"Rechercher"</button>
        </form>
    }
}

#[component]
fn ResultsView(results: SearchResults) -> impl IntoView {
    let stats = results.stats.clone();
    let location = use_location();
    view! {
        <div class="mt-6 space-y-4" data-testid="venue-results">
            <AppliedDefaults
                defaults=results.applied_defaults.clone()
                removed=results.removed_defaults.clone()
                path=location.pathname.get_untracked()
                search=location.search.get_untracked()
            />
            <p class="text-sm text-slate-600" data-testid="search-pools">{results.pools.sentence()}</p>
            {(!results.recommended.is_empty() || !results.compatible.is_empty()).then(|| view! {
                <p class="text-sm text-slate-600" data-testid="search-order">{results.order.clone()}</p>
            })}
            {(!results.understood.is_empty()).then(|| view! {
                <p class="text-sm text-slate-600">"Compris : " {results.understood.join(" · ")}
                    {(!results.semantic_query.is_empty()).then(|| view! { <span>" · ambiance « " {results.semantic_query.clone()} " »"</span> })}
                </p>
            })}
            {results.notices.iter().map(|n| view! {
                <p role="status" class="rounded-md bg-amber-50 px-4 py-2 text-sm text-amber-900">{n.clone()}</p>
            }).collect_view()}
            {results.similar_request.map(|s| view! {
                <p class="rounded-md bg-indigo-50 px-4 py-2 text-sm text-indigo-900">
                    "Demande similaire : " {s.reference} " — son catalogue peut être repris."
                </p>
            })}
            <PickSection title="Fortement recommandés" picks=results.recommended />
            <PickSection title="Compatibles" picks=results.compatible />
            {(results.rejected > 0).then(|| view! {
                <p class="text-xs text-slate-500">{results.rejected} " autres candidats écartés : pas assez convaincants."</p>
            })}
            {(!results.rejected_reasons.is_empty()).then(|| view! {
                <div data-testid="rejected-reasons" class="text-xs text-slate-600">
                    <p class="font-medium">"Écartés (par l'IA ou l'entraînement de l'équipe) :"</p>
                    <ul class="list-disc pl-5">
                        {results.rejected_reasons.into_iter().map(|r| view! {
                            <li>{r.code} " " {r.name} " — " {r.reason}</li>
                        }).collect_view()}
                    </ul>
                </div>
            })}
            <StatsView stats=stats />
        </div>
    }
}

#[component]
fn PickSection(title: &'static str, picks: Vec<VenuePick>) -> impl IntoView {
    (!picks.is_empty()).then(|| {
        view! {
            <section>
                <h2 class="mb-2 text-lg font-medium">{title}</h2>
                <ul class="grid gap-3 lg:grid-cols-2">
                    {picks.into_iter().map(|p| view! { <PickCard pick=p /> }).collect_view()}
                </ul>
            </section>
        }
    })
}

#[component]
fn PickCard(pick: VenuePick) -> impl IntoView {
    let room = pick.matched_room.map(|r| {
        format!(
            "{} · {} places {}",
            r.name,
            r.capacity,
            phrase_of(&r.configuration)
        )
    });
    let distance = pick
        .distance_km
        .map(|d| format!("{d:.1} km").replace('.', ","));
    view! {
        <li class="rounded-xl border border-slate-200 bg-white p-4" data-testid="venue-pick">
            <div class="flex items-baseline justify-between gap-3">
                <p class="font-medium text-slate-900">{pick.name}</p>
                <span class="text-xs text-slate-500">{pick.code}</span>
            </div>
            <p class="text-sm text-slate-500" data-testid="pick-place">{pick.postal_code} " " {pick.city} {distance.map(|d| view! { <span>" · " {d}</span> })}</p>
            {room.map(|r| view! { <p class="mt-1 text-sm text-slate-700" data-testid="matched-room">{r}</p> })}
            <p class="mt-2 text-sm text-slate-700">{pick.reason}</p>
            <p class="mt-2 text-xs text-slate-400">"score " {format!("{:.2}", pick.score)}
                {pick.similarity.map(|s| view! { <span>" · similarité " {format!("{s:.3}")}</span> })}
            </p>
        </li>
    }
}

/// Which stage-3 path answered, in the team's words.
fn ranking_label(source: &str) -> &str {
    match source {
        "llm" => "IA",
        "deterministic" => "score déterministe",
        "direct" => "lieux demandés",
        other => other,
    }
}

/// Where the similarity came from, in the team's words.
fn similarity_label(source: &str) -> &str {
    match source {
        "vector" => "sémantique",
        "fts" => "mots-clés (service d'embedding indisponible)",
        "none" => "aucune (pas de description)",
        other => other,
    }
}

#[component]
fn StatsView(stats: SearchStats) -> impl IntoView {
    let ms = |v: f64| format!("{v:.1} ms");
    // Stage 2 runs inside stage 1's statement: its time is in the SQL figure.
    let vector = match stats.vector_candidates {
        Some(n) => format!("vecteurs dans la même requête ({n} retenus)"),
        None => "vecteurs : étape sautée".to_string(),
    };
    view! {
        <p class="text-xs text-slate-400" data-testid="search-stats">
            "SQL " {ms(stats.sql_ms)} " (" {stats.sql_candidates} " candidats) · "
            {stats.embed_ms.map(|t| format!("embedding {} · ", ms(t)))}
            {vector} " · classement " {ms(stats.rank_ms)} " (" {ranking_label(&stats.ranking_source).to_string()} ") · total " {ms(stats.total_ms)}
            " · similarité : " {similarity_label(&stats.similarity_source).to_string()}
        </p>
    }
}
