//! The three most similar past requests of the same pool, with the picks
//! of their latest catalogue (a good past answer can be reused).
use super::status_badge::StatusBadge;
use crate::requests::{SimilarPick, SimilarRequest};
use leptos::prelude::*;

fn names(picks: &[SimilarPick], tier: &str) -> Option<String> {
    let list: Vec<String> = picks
        .iter()
        .filter(|p| p.tier == tier)
        .map(|p| format!("{} ({})", p.name, p.code))
        .collect();
    (!list.is_empty()).then(|| list.join(", "))
}

#[component]
pub fn SimilarRequests(similar: Vec<SimilarRequest>, source: String) -> impl IntoView {
    let how = match source.as_str() {
        "vector" => "Rapprochées par leur description",
        "fts" => "Rapprochées par leurs mots",
        _ => "",
    };
    view! {
        <section class="rounded-xl border border-slate-200 bg-white p-5 text-sm" data-testid="similar-requests" data-source=source.clone()>
            <h2 class="mb-1 text-lg font-medium">"Demandes similaires"</h2>
            {(!how.is_empty()).then(|| view! { <p class="mb-3 text-xs text-slate-500">{how} ", dans le même pool."</p> })}
            {if similar.is_empty() {
                view! { <p class="text-slate-500">"Aucune demande passée assez proche."</p> }.into_any()
            } else {
                view! {
                    <ul class="space-y-4">
                        {similar.into_iter().map(|s| {
                            let recommended = names(&s.picks, "recommended");
                            let compatible = names(&s.picks, "compatible");
                            let empty = s.picks.is_empty();
                            view! {
                                <li data-testid="similar-request" data-id=s.id data-pool=s.pool.clone()>
                                    <p class="flex items-center gap-2">
                                        <a href=format!("/demandes/{}", s.id) class="font-medium text-indigo-700 hover:underline">{s.reference}</a>
                                        <StatusBadge status=s.status />
                                    </p>
                                    <p class="mt-1 text-slate-700">{s.summary}</p>
                                    {recommended.map(|r| view! { <p class="mt-1 text-xs text-slate-600">"Recommandés : " {r}</p> })}
                                    {compatible.map(|c| view! { <p class="text-xs text-slate-600">"Compatibles : " {c}</p> })}
                                    {empty.then(|| view! { <p class="mt-1 text-xs text-slate-400">"Pas de catalogue."</p> })}
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </section>
    }
    .into_any()
}
