//! The console's « Assistant » card: who answers (provider and model, or
//! the offline planner and why), the month's spend against its cap, and
//! whether search by meaning is available.
use super::LoadError;
use crate::admin::{read_assistant_status, AssistantStatus, EmbeddingState};
use crate::fr::euros;
use crate::llm_budget::{BudgetLevel, LlmBudgetStatus};
use leptos::prelude::*;

#[component]
pub fn AssistantCard() -> impl IntoView {
    let status = Resource::new(|| (), |_| read_assistant_status());
    view! {
        <section aria-labelledby="assistant-title" data-testid="assistant-status"
            class="rounded-xl border border-slate-200 bg-white p-4 text-sm">
            <h2 id="assistant-title" class="mb-3 text-lg font-medium">"Assistant"</h2>
            <Suspense fallback=|| view! { <p class="text-slate-500">"Chargement…"</p> }>
                {move || status.get().map(|result| match result {
                    Ok(status) => view! { <Facts status /> }.into_any(),
                    Err(error) => view! { <LoadError error /> }.into_any(),
                })}
            </Suspense>
        </section>
    }
}

#[component]
fn Facts(status: AssistantStatus) -> impl IntoView {
    let answers = if status.offline {
        "Planificateur hors ligne"
    } else {
        "Modèle de langage"
    };
    let embeddings_ok = status.embeddings == EmbeddingState::Ok;
    view! {
        <dl class="grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
            <dt class="text-slate-500">"Fournisseur"</dt>
            <dd data-testid="assistant-provider">{status.provider}</dd>
            {status.model.map(|model| view! {
                <dt class="text-slate-500">"Modèle"</dt>
                <dd class="break-words" data-testid="assistant-model">{model}</dd>
            })}
            {status.bulk_model.map(|model| view! {
                <dt class="text-slate-500">"Modèle économique"</dt>
                <dd class="break-words">{model}" (tâches de masse, une fois le plafond atteint)"</dd>
            })}
            <dt class="text-slate-500">"Répond aux messages"</dt>
            <dd data-testid="assistant-mode">
                {answers}
                {status.offline_reason.map(|why| view! { <p class="mt-1 text-slate-600" data-testid="assistant-offline-reason">{why}</p> })}
            </dd>
            <dt class="text-slate-500">"Dépenses du mois"</dt>
            <dd data-testid="assistant-spend">{spend(status.budget)}</dd>
            <dt class="text-slate-500">"Recherche par le sens"</dt>
            <dd class=if embeddings_ok { "" } else { "text-amber-800" } data-testid="assistant-embeddings">
                {status.embeddings.label()}
            </dd>
        </dl>
    }
}

/// « 12,40 € sur 200 € (6 %) » and what the level means.
fn spend(budget: Option<LlmBudgetStatus>) -> impl IntoView {
    match budget {
        None => view! { <span class="text-slate-500">"Dépenses illisibles pour le moment."</span> }
            .into_any(),
        Some(b) => {
            let percent = b.percent().min(100);
            // The colour says the level; `accent-*` tints the bar without an
            // inline style (the page's CSP allows none).
            let bar = match b.level {
                BudgetLevel::Ok => "accent-emerald-500",
                BudgetLevel::Warning => "accent-amber-500",
                BudgetLevel::Exceeded => "accent-red-600",
            };
            let note = match b.level {
                BudgetLevel::Ok => None,
                BudgetLevel::Warning => Some("Plus de 80 % du plafond mensuel."),
                BudgetLevel::Exceeded => Some("Plafond atteint : les tâches de masse passent au modèle économique s'il est configuré."),
            };
            view! {
                <span>{format!("{} sur {} ce mois-ci ({} %)", euros(b.spent_eur), euros(b.cap_eur), b.percent())}</span>
                <progress max="100" value=percent aria-hidden="true" class=format!("mt-1 block h-2 w-full max-w-xs {bar}")></progress>
                {note.map(|n| view! { <span class="mt-1 block text-slate-600">{n}</span> })}
            }
            .into_any()
        }
    }
}
