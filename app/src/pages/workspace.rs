//! `/atelier`: the training workspace. Pick a past request or invent one,
//! then build its training catalogue in the same builder (up to 25 picks;
//! a training catalogue is never sent: no send button, and the database
//! refuses it too). Invented requests are stored as workspace scenarios
//! (see `server::catalogue_builder::workspace`).
use crate::catalogue_builder::{
    invent_workspace_scenario, training_href, workspace_scenarios, InventedScenario, ScenarioOption,
};
use crate::room_configurations::Configuration;
use crate::venue_search::list_pools;
use leptos::prelude::*;

use super::PageHeader;

#[component]
pub fn WorkspacePage() -> impl IntoView {
    let scenarios = Resource::new(|| (), |_| workspace_scenarios());
    view! {
        <PageHeader title="Atelier" subtitle="Entraînez Maxy sur des demandes passées ou inventées : jusqu'à 25 lieux par catalogue d'entraînement, jamais envoyé." />
        <div class="grid grid-cols-1 gap-8 xl:grid-cols-[minmax(0,1fr)_24rem]">
            <section>
                <h2 class="mb-3 text-lg font-medium">"Demandes récentes"</h2>
                <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
                    {move || scenarios.get().map(|r| match r {
                        Ok(list) if list.is_empty() => view! { <p class="text-sm text-slate-500">"Aucune demande pour l'instant : inventez-en une."</p> }.into_any(),
                        Ok(list) => view! {
                            <ul class="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white" data-testid="workspace-scenarios">
                                {list.into_iter().map(|s| view! { <ScenarioRow scenario=s /> }).collect_view()}
                            </ul>
                        }.into_any(),
                        Err(e) => view! { <p role="alert" class="rounded-md bg-red-50 px-4 py-3 text-sm text-red-700">{e.to_string()}</p> }.into_any(),
                    })}
                </Suspense>
            </section>
            <InventForm />
        </div>
    }
}

#[component]
fn ScenarioRow(scenario: ScenarioOption) -> impl IntoView {
    let mut facts = Vec::new();
    if let Some(t) = &scenario.event_type {
        facts.push(crate::fr::event_type(t));
    }
    if let Some(n) = scenario.participants {
        facts.push(format!("{} pers.", crate::fr::int(n)));
    }
    let picks = scenario
        .training_picks
        .map(|n| format!("{} en entraînement", crate::fr::plural(n, "lieu", "lieux")));
    view! {
        <li class="flex items-start justify-between gap-4 p-4 text-sm" data-testid="workspace-scenario">
            <div class="min-w-0">
                <p class="font-medium">{scenario.reference.clone()}
                    {scenario.workspace_scenario.then(|| view! { <span class="ml-2 rounded bg-violet-100 px-2 py-0.5 text-xs text-violet-800">"inventée"</span> })}
                    <span class="ml-2 text-slate-500">{facts.join(" · ")}</span>
                </p>
                <p class="truncate text-slate-600">{scenario.summary.clone()}</p>
                {picks.map(|p| view! { <p class="text-xs text-slate-500">{p}</p> })}
            </div>
            <a href=training_href(scenario.request_id) data-testid="train-on-request"
                class="shrink-0 rounded-md border border-indigo-600 px-3 py-1.5 font-medium text-indigo-700 hover:bg-indigo-50">"Entraîner"</a>
        </li>
    }
}

/// « Inventer une demande »: stored as a workspace scenario, then its
/// training builder opens. An island: the form is built in the browser.
#[island]
fn InventForm() -> impl IntoView {
    let pools = Resource::new(|| (), |_| list_pools());
    let form = RwSignal::new(InventedScenario::default());
    let participants = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let invent = Action::new(move |scenario: &InventedScenario| {
        let scenario = scenario.clone();
        async move {
            match invent_workspace_scenario(scenario).await {
                Ok(href) => crate::browser::go_to(&href),
                Err(e) => error.set(Some(e.to_string())),
            }
        }
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        error.set(None);
        let mut scenario = form.get_untracked();
        let text = participants.get_untracked();
        scenario.participants = match text.trim() {
            "" => None,
            n => match n.parse::<i64>() {
                Ok(n) => Some(n),
                Err(_) => {
                    error.set(Some(format!("Nombre de participants illisible : « {n} ».")));
                    return;
                }
            },
        };
        invent.dispatch(scenario);
    };
    let field = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2";
    view! {
        <form class="space-y-3 self-start rounded-xl border border-slate-200 bg-white p-5 text-sm" data-testid="invent-form" on:submit=submit>
            <h2 class="text-lg font-medium">"Inventer une demande"</h2>
            <label class="block font-medium text-slate-700">"Pool"
                <select class=field required
                    on:change=move |ev| form.update(|f| f.pool = event_target_value(&ev))>
                    <option value="">"—"</option>
                    <Suspense fallback=|| ()>
                        {move || pools.get().and_then(Result::ok).map(|list| list.into_iter().map(|p| view! {
                            <option value=p.slug>{p.name}</option>
                        }).collect_view())}
                    </Suspense>
                </select>
            </label>
            <label class="block font-medium text-slate-700">"Description"
                <textarea rows="3" required maxlength="2000" class=field data-testid="invent-description"
                    placeholder="Soirée festive pour 120 personnes, terrasse souhaitée"
                    on:input=move |ev| form.update(|f| f.description = event_target_value(&ev))></textarea>
            </label>
            <div class="grid grid-cols-2 gap-3">
                <label class="block font-medium text-slate-700">"Participants"
                    <input type="number" min="1" max="100000" class=field data-testid="invent-participants"
                        on:input=move |ev| participants.set(event_target_value(&ev)) />
                </label>
                <label class="block font-medium text-slate-700">"Type d'événement"
                    <input type="text" maxlength="100" class=field placeholder="cocktail" data-testid="invent-event-type"
                        on:input=move |ev| form.update(|f| f.event_type = event_target_value(&ev)) />
                </label>
            </div>
            <fieldset>
                <legend class="font-medium text-slate-700">"Configurations"</legend>
                <div class="mt-1 flex flex-wrap gap-x-3 gap-y-1">
                    {Configuration::ALL.iter().map(|c| {
                        let key = c.key().to_string();
                        view! {
                            <label class="flex items-center gap-1">
                                <input type="checkbox" value=key.clone()
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        let key = key.clone();
                                        form.update(|f| {
                                            f.configurations.retain(|k| *k != key);
                                            if on { f.configurations.push(key); }
                                        });
                                    } />
                                {c.label()}
                            </label>
                        }
                    }).collect_view()}
                </div>
            </fieldset>
            <div class="grid grid-cols-2 gap-3">
                <label class="block font-medium text-slate-700">"Codes postaux"
                    <input type="text" class=field placeholder="75008, 75017"
                        on:input=move |ev| form.update(|f| f.postal_codes = event_target_value(&ev)) />
                </label>
                <label class="block font-medium text-slate-700">"Zone"
                    <input type="text" maxlength="200" class=field placeholder="Paris 8e"
                        on:input=move |ev| form.update(|f| f.area = event_target_value(&ev)) />
                </label>
            </div>
            {move || error.get().map(|e| view! { <p role="alert" class="rounded-md bg-red-50 px-3 py-2 text-red-700">{e}</p> })}
            <button type="submit" data-testid="invent-submit"
                class="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
                disabled=move || invent.pending().get()>"Créer et entraîner"</button>
        </form>
    }
}
