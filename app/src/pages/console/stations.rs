//! `/console/stations`: each place the assistant works (« Chat de
//! l'équipe », « Espace d'entraînement »), its guidance settings, editable
//! (`suggest ≤ enforce`, all in [0,1]: refused otherwise, nothing changed),
//! and its tools by their French labels (never their internal names).
use super::{AdminOnly, ConsoleNav, Done, LoadError};
use crate::pages::{failure, FormError, PageHeader};
use crate::playbook_console::{list_stations, StationView, UpdateStation, MAX_MODES};
use leptos::prelude::*;

#[component]
pub fn StationsPage() -> impl IntoView {
    view! { <AdminOnly><Stations /></AdminOnly> }
}

#[component]
fn Stations() -> impl IntoView {
    let update = ServerAction::<UpdateStation>::new();
    let stations = Resource::new(move || update.version().get(), |_| list_stations());
    view! {
        <PageHeader title="Stations" subtitle="Où l'assistant travaille, ses outils, et quand un playbook s'impose ou se suggère." />
        <ConsoleNav current="/console/stations" />
        <Done />
        <FormError error=failure(update) testid="station-error" />
        <p class="mb-4 mt-2 max-w-3xl text-xs text-slate-500">
            "Un playbook dont la pertinence atteint le seuil « imposer » s'ouvre ; s'il atteint le seuil « suggérer », il est proposé ; en dessous, rien ne s'ouvre. Deux candidats au-dessus du seuil « imposer » à moins de la marge l'un de l'autre sont suggérés. Le plafond limite ce que la pertinence décide."
        </p>
        <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
            {move || stations.get().map(|result| match result {
                Ok(list) => view! {
                    <div class="grid gap-6 xl:grid-cols-2">
                        {list.into_iter().map(|station| view! { <StationCard station update /> }).collect_view()}
                    </div>
                }.into_any(),
                Err(error) => view! { <LoadError error /> }.into_any(),
            })}
        </Suspense>
    }
}

/// A threshold as the number input shows it (`0.85`).
fn shown(value: f64) -> String {
    format!("{value:.2}")
}

#[component]
fn StationCard(station: StationView, update: ServerAction<UpdateStation>) -> impl IntoView {
    let s = station;
    let input_class = "mt-1 block w-full rounded-md border border-slate-300 px-2 py-1";
    let number = move |name: &'static str, label: &'static str, value: f64, testid: String| {
        view! {
            <label class="block">
                {label}
                <input type="number" name=name step="0.01" min="0" max="1" required value=shown(value)
                    data-testid=testid class=input_class />
            </label>
        }
    };
    let key = s.name.clone();
    let (station_key, form_name) = (s.name.clone(), s.name.clone());
    view! {
        <section class="min-w-0 rounded-xl border border-slate-200 bg-white p-4 text-sm" data-testid="station" data-name=station_key>
            <h2 class="text-lg font-medium">{s.label.clone()}</h2>
            <p class="mb-3 text-xs text-slate-500">{format!("Réglages modifiés le {}", s.updated_at)}</p>
            <ActionForm action=update attr:class="grid grid-cols-2 gap-3 sm:grid-cols-4" attr:data-testid="station-form">
                <input type="hidden" name="name" value=form_name />
                {number("enforce", "Imposer dès", s.enforce, format!("station-{key}-enforce"))}
                {number("suggest", "Suggérer dès", s.suggest, format!("station-{key}-suggest"))}
                {number("margin", "Marge", s.margin, format!("station-{key}-margin"))}
                <label class="block">
                    "Plafond"
                    <select name="max_mode" data-testid=format!("station-{key}-max-mode") class=input_class>
                        {MAX_MODES.iter().map(|(value, label)| view! {
                            <option value=*value selected=*value == s.max_mode>{*label}</option>
                        }).collect_view()}
                    </select>
                </label>
                <div class="col-span-2 sm:col-span-4">
                    <button type="submit" data-testid=format!("station-{key}-submit")
                        class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700">
                        "Enregistrer les réglages"
                    </button>
                </div>
            </ActionForm>
            <h3 class="mb-1 mt-4 font-medium">{format!("Outils ({})", s.tools.len())}</h3>
            <ul class="grid gap-x-4 gap-y-1 sm:grid-cols-2" data-testid="station-tools">
                {s.tools.into_iter().map(|tool| view! {
                    <li class="min-w-0 break-words">
                        {tool.label}
                    </li>
                }).collect_view()}
            </ul>
        </section>
    }
}
