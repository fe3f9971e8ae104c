//! The answer of a search: what was understood (each criterion once),
//! the picks in two tiers, each a link to the venue's sheet (and, for a
//! search serving a request, one click into its catalogue), the candidates
//! left out with their reason, and — for admins, folded — the figures.
use super::pick_card::PickCard;
use crate::fr;
use crate::layout::is_admin;
use crate::pages::AppliedDefaults;
use crate::venue_search::{RequestTarget, SearchResults, SearchStats, VenuePick};
use leptos::prelude::*;
use leptos_router::hooks::use_location;

#[component]
pub fn ResultsView(results: SearchResults) -> impl IntoView {
    let location = use_location();
    let target = results.for_request.clone();
    let all_picks: Vec<VenuePick> = results
        .recommended
        .iter()
        .chain(&results.compatible)
        .cloned()
        .collect();
    let stats = results.stats.clone();
    view! {
        <div class="mt-6 space-y-4" data-testid="venue-results">
            <AppliedDefaults
                defaults=results.applied_defaults.clone()
                removed=results.removed_defaults.clone()
                path=location.pathname.get_untracked()
                search=location.search.get_untracked()
            />
            // Nothing was searched when a place could not be located: no pools to name.
            {stats.ran().then(|| view! {
                <p class="text-sm text-slate-600" data-testid="search-pools">{results.pools.sentence()}</p>
            })}
            {target.clone().map(|t| view! {
                <p class="text-sm text-slate-600" data-testid="search-for-request">
                    "Recherche pour la demande "
                    <a class="font-medium text-indigo-700 hover:underline" href=format!("/demandes/{}", t.request_id)>{t.reference.clone()}</a>
                    " : ajoutez un lieu à son catalogue d'un clic."
                </p>
            })}
            {(!results.recommended.is_empty() || !results.compatible.is_empty()).then(|| view! {
                <p class="text-sm text-slate-600" data-testid="search-order">{results.order.clone()}</p>
            })}
            {(!results.understood.is_empty()).then(|| view! {
                <p class="text-sm text-slate-600" data-testid="search-understood">"Compris : " {results.understood.join(" · ")}
                    {(!results.semantic_query.is_empty()).then(|| view! { <span>" · ambiance « " {results.semantic_query.clone()} " »"</span> })}
                </p>
            })}
            {results.notices.iter().map(|n| view! {
                <p role="status" class="rounded-md bg-amber-50 px-4 py-2 text-sm text-amber-900">{n.clone()}</p>
            }).collect_view()}
            {results.similar_request.clone().map(|s| view! {
                <p class="rounded-md bg-indigo-50 px-4 py-2 text-sm text-indigo-900" data-testid="similar-request">
                    "Demande similaire : "
                    {match s.request_id {
                        Some(id) => view! { <a class="font-medium underline" href=format!("/demandes/{id}")>{s.reference.clone()}</a> }.into_any(),
                        None => view! { <span>{s.reference.clone()}</span> }.into_any(),
                    }}
                    " — son catalogue peut être repris."
                </p>
            })}
            <PickSection title="Fortement recommandés" picks=results.recommended.clone() target=target.clone() />
            <PickSection title="Compatibles" picks=results.compatible.clone() target=target.clone() />
            <Excluded results=results.clone() />
            {move || is_admin().then(|| view! { <Details stats=stats.clone() picks=all_picks.clone() /> })}
        </div>
    }
    .into_any()
}

#[component]
fn PickSection(
    title: &'static str,
    picks: Vec<VenuePick>,
    target: Option<RequestTarget>,
) -> impl IntoView {
    (!picks.is_empty()).then(|| {
        view! {
            <section>
                <h2 class="mb-2 text-lg font-medium">{title}</h2>
                <ul class="grid gap-3 lg:grid-cols-2">
                    {picks.into_iter().map(|p| view! { <PickCard pick=p target=target.clone() /> }).collect_view()}
                </ul>
            </section>
        }
    })
}

/// « 13 autres candidats écartés », unfolding to each one and why.
#[component]
fn Excluded(results: SearchResults) -> impl IntoView {
    let n = results.rejected_reasons.len().max(results.rejected);
    (n > 0).then(|| {
        let summary = format!(
            "{} {} — voir pourquoi",
            fr::plural(n, "autre candidat", "autres candidats"),
            fr::agree(n, "écarté", "écartés")
        );
        view! {
            <details class="rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm" data-testid="excluded">
                <summary class="cursor-pointer font-medium text-slate-700" data-testid="excluded-summary">{summary}</summary>
                <ul class="mt-2 space-y-1 text-slate-700">
                    {results.rejected_reasons.into_iter().map(|r| view! {
                        <li data-testid="excluded-venue">
                            <a class="font-medium text-indigo-700 hover:underline" href=format!("/lieux/{}", r.member_id)>{r.name}</a>
                            " — " {r.reason}
                        </li>
                    }).collect_view()}
                </ul>
            </details>
        }
    })
}

/// Which stage-3 path answered, in the team's words.
fn ranking_label(source: &str) -> &str {
    match source {
        "llm" => "par l'IA",
        "deterministic" => "par les règles (sans IA)",
        "direct" => "lieux demandés par leur code",
        _ => "—",
    }
}

/// Where the likeness to the description came from, in the team's words.
fn likeness_label(source: &str) -> &str {
    match source {
        "vector" => "par le sens",
        "fts" => "par les mots (service du sens indisponible)",
        _ => "aucune (pas de description)",
    }
}

fn ms(v: f64) -> String {
    format!("{} ms", fr::decimal(v, 1))
}

/// For admins, folded: the time of each stage and each pick's figures.
#[component]
fn Details(stats: SearchStats, picks: Vec<VenuePick>) -> impl IntoView {
    view! {
        <details class="rounded-xl border border-slate-200 bg-white px-4 py-3 text-xs text-slate-600" data-testid="search-details">
            <summary class="cursor-pointer font-medium text-slate-700">"Détails"</summary>
            <ul class="mt-2 space-y-1" data-testid="search-stats">
                <li>"Filtres : " {ms(stats.sql_ms)} " — " {fr::plural(stats.sql_candidates, "candidat", "candidats")}</li>
                {stats.embed_ms.map(|t| view! { <li>"Lecture du sens de la demande : " {ms(t)}</li> })}
                {stats.vector_candidates.map(|n| view! { <li>"Rapprochement par le sens : " {fr::plural(n, "lieu retenu", "lieux retenus")}</li> })}
                <li>"Classement " {ranking_label(&stats.ranking_source).to_string()} " : " {ms(stats.rank_ms)}</li>
                <li>"Ressemblance à la description : " {likeness_label(&stats.similarity_source).to_string()}</li>
                <li>"Total : " {ms(stats.total_ms)}</li>
            </ul>
            <ul class="mt-2 space-y-1">
                {picks.into_iter().map(|p| view! {
                    <li>{p.name} " — note " {fr::decimal(p.score, 2)}
                        {p.similarity.map(|s| view! { <span>" · ressemblance " {fr::decimal(s, 3)}</span> })}
                    </li>
                }).collect_view()}
            </ul>
        </details>
    }
}
