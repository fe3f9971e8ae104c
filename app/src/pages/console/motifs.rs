//! `/console/motifs`: what the assistant did outside any playbook this
//! week, as patterns with their counts and a sentence each; their trend over
//! eight weeks (a chart the server draws, with its table as the text
//! alternative); « Analyser la semaine maintenant »; and the suggested
//! playbooks to accept (in observe), edit or dismiss.
use super::{AdminOnly, ConsoleNav, Done, LoadError};
use crate::pages::{failure, FormError, PageHeader};
use crate::playbook_console::{
    week_motifs, DismissSuggestion, MineWeek, MotifsView, ReviewSuggestion, SuggestionView,
};
use crate::raw_text::textarea_value;
use leptos::prelude::*;

#[derive(Clone, Copy)]
struct Actions {
    mine: ServerAction<MineWeek>,
    review: ServerAction<ReviewSuggestion>,
    dismiss: ServerAction<DismissSuggestion>,
}

#[component]
pub fn MotifsPage() -> impl IntoView {
    view! { <AdminOnly><Motifs /></AdminOnly> }
}

#[component]
fn Motifs() -> impl IntoView {
    let a = Actions {
        mine: ServerAction::new(),
        review: ServerAction::new(),
        dismiss: ServerAction::new(),
    };
    let data = Resource::new(
        move || {
            (
                a.mine.version().get(),
                a.review.version().get(),
                a.dismiss.version().get(),
            )
        },
        |_| week_motifs(),
    );
    let busy = a.mine.pending();
    view! {
        <PageHeader title="Motifs" subtitle="Ce que l'assistant fait hors parcours, semaine après semaine, et les playbooks qui en naissent." />
        <ConsoleNav current="/console/motifs" />
        <Done />
        <ActionForm action=a.mine attr:class="mb-4" attr:data-testid="mine-form">
            <button type="submit" disabled=move || busy.get() data-testid="mine-now"
                class="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700 disabled:opacity-50">
                "Analyser la semaine maintenant"
            </button>
        </ActionForm>
        <FormError error=failure(a.mine) testid="mine-error" />
        <FormError error=failure(a.review) testid="suggestion-error" />
        <FormError error=failure(a.dismiss) testid="dismiss-error" />
        <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
            {move || data.get().map(|result| match result {
                Ok(view) => view! { <Board data=view actions=a /> }.into_any(),
                Err(error) => view! { <LoadError error /> }.into_any(),
            })}
        </Suspense>
    }
}

#[component]
fn Board(data: MotifsView, actions: Actions) -> impl IntoView {
    let MotifsView {
        week,
        patterns,
        chart_svg,
        weeks,
        trends,
        suggestions,
    } = data;
    view! {
        <section class="mb-10">
            <h2 class="text-lg font-medium">"Motifs de la semaine"</h2>
            <p class="mb-3 text-xs text-slate-500">{week}</p>
            {if patterns.is_empty() {
                view! { <p class="text-sm text-slate-500" data-testid="patterns-empty">"Aucun appel hors parcours cette semaine."</p> }.into_any()
            } else {
                view! {
                    <ul class="space-y-2 text-sm" data-testid="patterns">
                        {patterns.into_iter().map(|p| view! {
                            <li class="flex gap-3 rounded-lg border border-slate-200 bg-white px-3 py-2" data-testid="pattern" data-key=p.key>
                                <span class="w-10 shrink-0 text-right text-lg font-semibold tabular-nums" data-testid="pattern-count">{p.count}</span>
                                <span class="min-w-0 break-words text-slate-700" data-testid="pattern-sentence">{p.sentence}</span>
                            </li>
                        }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </section>
        <section class="mb-10">
            <h2 class="mb-2 text-lg font-medium">"Tendance (8 semaines)"</h2>
            // Drawn by the server (no script); scrolls inside its box on a phone.
            <figure class="overflow-x-auto rounded-xl border border-slate-200 bg-white p-2" data-testid="trend-chart">
                <div class="min-w-[36rem]" inner_html=chart_svg></div>
            </figure>
            <details class="mt-2 text-sm">
                <summary class="cursor-pointer text-indigo-700">"Les chiffres du graphique"</summary>
                <div class="mt-2 overflow-x-auto">
                    <table class="min-w-full text-left text-xs" data-testid="trend-table">
                        <thead><tr>
                            <th class="px-2 py-1">"Motif"</th>
                            {weeks.into_iter().map(|w| view! { <th class="whitespace-nowrap px-2 py-1 text-right">{w}</th> }).collect_view()}
                        </tr></thead>
                        <tbody class="divide-y divide-slate-100">
                            {trends.into_iter().map(|t| view! {
                                <tr>
                                    <td class="min-w-[14rem] px-2 py-1">{t.label}</td>
                                    {t.counts.into_iter().map(|c| view! { <td class="px-2 py-1 text-right tabular-nums">{c}</td> }).collect_view()}
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
            </details>
        </section>
        <section>
            <h2 class="mb-2 text-lg font-medium">"Playbooks suggérés"</h2>
            {if suggestions.is_empty() {
                view! { <p class="text-sm text-slate-500" data-testid="suggestions-empty">"Aucune suggestion en attente."</p> }.into_any()
            } else {
                view! {
                    <div class="space-y-4" data-testid="suggestions">
                        {suggestions.into_iter().map(|s| view! { <Suggestion suggestion=s actions /> }).collect_view()}
                    </div>
                }.into_any()
            }}
        </section>
    }
}

#[component]
fn Suggestion(suggestion: SuggestionView, actions: Actions) -> impl IntoView {
    let s = suggestion;
    let id = s.id.to_string();
    let (id_review, id_dismiss) = (id.clone(), id.clone());
    let button = "rounded-md px-3 py-1.5 text-sm font-medium";
    view! {
        <article class="rounded-xl border border-slate-200 bg-white p-4 text-sm" data-testid="suggestion" data-id=id>
            <p class="mb-2 text-slate-700" data-testid="suggestion-sentence">{s.sentence}</p>
            <ActionForm action=actions.review attr:class="space-y-2">
                <input type="hidden" name="id" value=id_review />
                <textarea name="yaml" rows="12" required spellcheck="false" aria-label="Brouillon du playbook (YAML)" data-testid="suggestion-yaml"
                    class="block w-full rounded-md border border-slate-300 px-2 py-1 font-mono text-xs">
                    {textarea_value(s.yaml)}
                </textarea>
                <div class="flex flex-wrap gap-2">
                    <button type="submit" name="decision" value="accepter" data-testid="suggestion-accept"
                        class=format!("{button} bg-indigo-600 text-white hover:bg-indigo-700")>
                        "Accepter"
                    </button>
                    <button type="submit" name="decision" value="enregistrer" data-testid="suggestion-save"
                        class=format!("{button} border border-slate-300 bg-white hover:bg-slate-50")>
                        "Enregistrer la modification"
                    </button>
                </div>
            </ActionForm>
            <ActionForm action=actions.dismiss attr:class="mt-2">
                <input type="hidden" name="id" value=id_dismiss />
                <button type="submit" data-testid="suggestion-dismiss" class=format!("{button} text-red-700 hover:bg-red-50")>
                    "Écarter"
                </button>
            </ActionForm>
        </article>
    }
}
