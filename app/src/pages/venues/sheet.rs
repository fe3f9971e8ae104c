//! `/lieux/<id>`: a venue's sheet — where it is, its pool, its rooms with
//! the layouts and head counts each holds, its amenities and website, and
//! the requests whose catalogues hold it. Its own text (name, description,
//! website) is third-party text: shown as text, the link only when it is
//! a web address.
use crate::fr;
use crate::room_configurations::label_of;
use crate::venue_search::{load_venue_sheet, VenueSheet};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

#[component]
pub fn VenueSheetPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.read().get("id").and_then(|s| s.parse::<i64>().ok());
    let sheet = Resource::new(id, |id| async move {
        match id {
            Some(id) => load_venue_sheet(id).await,
            None => Err(crate::errors::AppError::NotFound),
        }
    });
    view! {
        <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement du lieu…"</p> }>
            {move || sheet.get().map(|result| match result {
                Ok(s) => view! { <SheetView sheet=s /> }.into_any(),
                Err(e) => view! {
                    <Title text="Lieu introuvable" />
                    <a href="/lieux" class="text-sm text-indigo-700 hover:underline">"← Lieux"</a>
                    <p role="alert" class="mt-3 rounded-md bg-red-50 px-4 py-3 text-sm text-red-700" data-testid="venue-sheet-error">{e.to_string()}</p>
                }.into_any(),
            })}
        </Suspense>
    }
}

/// A website worth a link: http(s) only, never `javascript:` or the like.
fn web_link(url: &str) -> Option<String> {
    let url = url.trim();
    let lower = url.to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") {
        Some(url.to_string())
    } else if !url.contains(':') && url.contains('.') && !url.contains(' ') {
        Some(format!("https://{url}"))
    } else {
        None
    }
}

#[component]
fn SheetView(sheet: VenueSheet) -> impl IntoView {
    let place = [
        sheet.address.clone(),
        format!("{} {}", sheet.postal_code, sheet.city)
            .trim()
            .to_string(),
    ]
    .into_iter()
    .filter(|s| !s.is_empty())
    .collect::<Vec<_>>()
    .join(", ");
    let subtitle = format!("Pool {} · {}", sheet.pool, place);
    let website = sheet.website.clone();
    view! {
        <Title text=sheet.name.clone() />
        <a href="/lieux" class="text-sm text-indigo-700 hover:underline">"← Lieux"</a>
        <div data-testid="venue-sheet" data-member-id=sheet.member_id.to_string()>
            <div class="mb-6 mt-1">
                <h1 class="break-words text-2xl font-semibold tracking-tight">{sheet.name.clone()}</h1>
                <p class="mt-1 text-sm text-slate-500" data-testid="venue-sheet-place">{subtitle}</p>
            </div>
            {(!sheet.active).then(|| view! {
                <p role="status" class="mb-4 rounded-md bg-amber-50 px-4 py-2 text-sm text-amber-900">"Ce lieu n'est pas actif : il ne peut pas être proposé."</p>
            })}
            <div class="grid gap-6 lg:grid-cols-[2fr_1fr]">
                <SheetMain sheet=sheet.clone() />
                <SheetAside sheet=sheet.clone() website=website />
            </div>
        </div>
    }
    .into_any()
}

/// The description and the rooms.
#[component]
fn SheetMain(sheet: VenueSheet) -> impl IntoView {
    view! {
                <div class="min-w-0 space-y-6">
                    {(!sheet.description.trim().is_empty()).then(|| view! {
                        <section class="rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-700">
                            <p class="whitespace-pre-line break-words">{sheet.description.clone()}</p>
                        </section>
                    })}
                    <section data-testid="venue-rooms">
                        <h2 class="mb-2 text-lg font-medium">"Salles"</h2>
                        {if sheet.rooms.is_empty() {
                            view! { <p class="text-sm text-slate-500">"Aucune salle renseignée."</p> }.into_any()
                        } else {
                            view! {
                                <ul class="space-y-2">
                                    {sheet.rooms.iter().map(|r| {
                                        let layouts = r.capacities.iter()
                                            .map(|(c, n)| format!("{} : {}", crate::fr::capitalized(label_of(c)), fr::plural(*n, "personne", "personnes")))
                                            .collect::<Vec<_>>();
                                        view! {
                                            <li class="rounded-xl border border-slate-200 bg-white p-3 text-sm" data-testid="venue-room">
                                                <p class="font-medium text-slate-800">{r.name.clone()}
                                                    {r.area_m2.map(|a| view! { <span class="font-normal text-slate-500">" · " {fr::int(a)} " m²"</span> })}
                                                </p>
                                                <p class="mt-1 text-slate-600">{if layouts.is_empty() { "Jauges non renseignées.".to_string() } else { layouts.join(" · ") }}</p>
                                            </li>
                                        }
                                    }).collect_view()}
                                </ul>
                            }.into_any()
                        }}
                    </section>
                </div>
    }
    .into_any()
}

/// Amenities, prices, website, and the catalogues that hold the venue.
#[component]
fn SheetAside(sheet: VenueSheet, website: Option<String>) -> impl IntoView {
    view! {
                <aside class="min-w-0 space-y-6 text-sm">
                    <section>
                        <h2 class="mb-2 text-lg font-medium">"Atouts"</h2>
                        {if sheet.amenities.is_empty() {
                            view! { <p class="text-slate-500">"Aucun atout renseigné."</p> }.into_any()
                        } else {
                            view! {
                                <ul class="flex flex-wrap gap-2" data-testid="venue-amenities">
                                    {sheet.amenities.iter().map(|a| view! {
                                        <li class="rounded bg-slate-100 px-2 py-0.5 text-slate-700">{a.clone()}</li>
                                    }).collect_view()}
                                </ul>
                            }.into_any()
                        }}
                        {sheet.prices.clone().map(|p| view! { <p class="mt-2 text-slate-700">"Tarifs : " {p}</p> })}
                        {website.and_then(|w| web_link(&w).map(|href| view! {
                            <p class="mt-2 break-all"><a class="text-indigo-700 hover:underline" href=href rel="noopener noreferrer nofollow" target="_blank">"Site du lieu"</a></p>
                        }))}
                    </section>
                    <section data-testid="venue-catalogues">
                        <h2 class="mb-2 text-lg font-medium">"Dans les catalogues"</h2>
                        {if sheet.catalogues.is_empty() {
                            view! { <p class="text-slate-500">"Ce lieu n'a encore été proposé dans aucun catalogue."</p> }.into_any()
                        } else {
                            view! {
                                <ul class="space-y-1">
                                    {sheet.catalogues.iter().map(|c| view! {
                                        <li>
                                            <a class="font-medium text-indigo-700 hover:underline" href=format!("/demandes/{}", c.request_id)>{c.reference.clone()}</a>
                                            " — " {c.tier.clone()} " · " {c.status.clone()}
                                            {c.training.then_some(" · entraînement")}
                                        </li>
                                    }).collect_view()}
                                </ul>
                            }.into_any()
                        }}
                    </section>
                </aside>
    }
    .into_any()
}
