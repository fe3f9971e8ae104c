//! `/console/simulateur`: the decision function dry-run. Two GET forms
//! (simulating writes nothing, and the answer has an address): from the
//! configuration (station, profiles, context, the action described), or
//! explicit (thresholds and candidates as JSON). The answer: the mode, the
//! playbook opened, the suggested ones, and every candidate.
use super::{decisions::Candidates, AdminOnly, ConsoleNav, LoadError};
use crate::pages::PageHeader;
use crate::playbook_console::{list_stations, simulate, SimulationInput, SimulationView, PROFILES};
use crate::raw_text::textarea_value;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

/// An example of the explicit form, shown when it is empty.
const EXPLICIT_EXAMPLE: &str = r#"{"guidance": {"enforce": 0.85, "suggest": 0.5, "margin": 0.05, "max_mode": "enforce"},
 "candidates": [{"name": "qualifier-une-demande", "eligible": true, "deterministic_trigger": false, "score": 0.91}]}"#;

#[component]
pub fn SimulatorPage() -> impl IntoView {
    view! { <AdminOnly><Simulator /></AdminOnly> }
}

#[component]
fn Simulator() -> impl IntoView {
    let query = use_query_map();
    let input = Memo::new(move |_| {
        let q = query.read();
        let get = |k: &str| q.get(k).unwrap_or_default();
        SimulationInput {
            station: get("station"),
            profiles: q.get_all("profil").unwrap_or_default().join(","),
            context: get("contexte"),
            action: get("action"),
            explicit: get("explicite"),
        }
    });
    // Nothing asked yet: no simulation.
    let asked = move || {
        let i = input.get();
        !i.action.trim().is_empty() || !i.explicit.trim().is_empty()
    };
    let answer = Resource::new(
        move || input.get(),
        |input| async move {
            if input.action.trim().is_empty() && input.explicit.trim().is_empty() {
                None
            } else {
                Some(simulate(input).await)
            }
        },
    );
    let stations = Resource::new(|| (), |_| list_stations());
    view! {
        <PageHeader title="Simulateur" subtitle="Ce que la fonction de décision ferait, sans rien écrire." />
        <ConsoleNav current="/console/simulateur" />
        <div class="grid gap-8 xl:grid-cols-2">
            <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
                {move || stations.get().map(|stations| {
                    let stations = stations.unwrap_or_default();
                    view! { <ConfigurationForm input=input.get_untracked() stations /> }
                })}
            </Suspense>
            <ExplicitForm input=input.get_untracked() />
        </div>
        <Show when=asked>
            <Suspense fallback=|| view! { <p class="mt-6 text-sm text-slate-500">"Simulation…"</p> }>
                {move || answer.get().flatten().map(|result| match result {
                    Ok(view) => view! { <Answer answer=view /> }.into_any(),
                    Err(error) => view! { <div class="mt-6"><LoadError error /></div> }.into_any(),
                })}
            </Suspense>
        </Show>
    }
}

#[component]
fn ConfigurationForm(
    input: SimulationInput,
    stations: Vec<crate::playbook_console::StationView>,
) -> impl IntoView {
    let field = "mt-1 block w-full rounded-md border border-slate-300 px-2 py-1";
    let chosen: Vec<String> = input.profiles.split(',').map(str::to_string).collect();
    view! {
        <form method="get" action="/console/simulateur" class="space-y-3 rounded-xl border border-slate-200 bg-white p-4 text-sm" data-testid="simulate-form">
            <h2 class="text-lg font-medium">"Depuis la configuration"</h2>
            <label class="block">"Station"
                <select name="station" class=field data-testid="simulate-station">
                    {stations.into_iter().map(|s| {
                        let selected = s.name == input.station;
                        view! { <option value=s.name selected=selected>{s.label}</option> }
                    }).collect_view()}
                </select>
            </label>
            <fieldset>
                <legend>"Profils de l'appelant"</legend>
                <div class="mt-1 flex flex-wrap gap-x-4 gap-y-1">
                    {PROFILES.iter().map(|(key, label)| view! {
                        <label class="inline-flex items-center gap-1">
                            <input type="checkbox" name="profil" value=*key checked=chosen.iter().any(|c| c == key) />
                            {*label}
                        </label>
                    }).collect_view()}
                </div>
            </fieldset>
            <label class="block">"Contexte : les faits connus, entre accolades (facultatif)"
                <textarea name="contexte" rows="3" spellcheck="false" placeholder=r#"Par exemple {"participants": 250}"#
                    class=format!("{field} font-mono text-xs") data-testid="simulate-context">
                    {textarea_value(input.context)}
                </textarea>
            </label>
            <label class="block">"Action décrite"
                <textarea name="action" rows="2" required placeholder="qualifier la demande d'un organisateur"
                    class=field data-testid="simulate-action">
                    {textarea_value(input.action)}
                </textarea>
            </label>
            <button type="submit" class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700" data-testid="simulate-submit">
                "Simuler"
            </button>
        </form>
    }
}

#[component]
fn ExplicitForm(input: SimulationInput) -> impl IntoView {
    let value = if input.explicit.trim().is_empty() {
        EXPLICIT_EXAMPLE.to_string()
    } else {
        input.explicit
    };
    view! {
        <form method="get" action="/console/simulateur" class="space-y-3 rounded-xl border border-slate-200 bg-white p-4 text-sm" data-testid="simulate-explicit-form">
            <h2 class="text-lg font-medium">"Explicite"</h2>
            <p class="text-xs text-slate-500">"Les seuils de la station et les candidats avec leur pertinence : la décision, sans modèle ni configuration."</p>
            <label class="block">"Seuils et candidats"
                <textarea name="explicite" rows="8" required spellcheck="false" data-testid="simulate-explicit"
                    class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1 font-mono text-xs">
                    {textarea_value(value)}
                </textarea>
            </label>
            <button type="submit" class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700" data-testid="simulate-explicit-submit">
                "Simuler"
            </button>
        </form>
    }
}

#[component]
fn Answer(answer: SimulationView) -> impl IntoView {
    view! {
        <section class="mt-6 rounded-xl border border-indigo-200 bg-white p-4 text-sm" data-testid="simulation">
            <h2 class="mb-2 text-lg font-medium">"Décision"</h2>
            <dl class="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
                <dt class="text-slate-500">"Mode"</dt><dd data-testid="simulation-mode">{answer.mode}</dd>
                <dt class="text-slate-500">"Ouvert"</dt><dd data-testid="simulation-opened">{answer.opened.unwrap_or_else(|| "aucun playbook".into())}</dd>
                <dt class="text-slate-500">"Suggérés"</dt>
                <dd>{if answer.suggested.is_empty() { "aucun".to_string() } else { answer.suggested.join(", ") }}</dd>
            </dl>
            <h3 class="mb-1 mt-4 font-medium">"Candidats"</h3>
            <Candidates candidates=answer.candidates />
        </section>
    }
}
