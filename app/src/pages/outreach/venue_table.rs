//! The catalogue's venues: the organizer's favourites, each venue's
//! availability answer (conditions, comment, delay), and the bulk
//! « Demander les disponibilités » for the venues ticked.
use super::copy_link::CopyLink;
use super::{action_error, OutreachActions};
use crate::outreach::{CheckState, OutreachView, SendAvailabilityChecks};
use leptos::prelude::*;
use std::collections::BTreeSet;

/// One line: a venue of the catalogue, or one asked outside it.
struct Line {
    member_id: i64,
    name: String,
    code: String,
    tier: Option<String>,
    favorite: bool,
    /// The organizer's comment on this venue.
    comment: Option<(String, Option<String>)>,
    check: Option<CheckState>,
}

fn lines(view: &OutreachView) -> Vec<Line> {
    let check_of = |id: i64| view.checks.iter().find(|c| c.member_id == id).cloned();
    let picks = view.catalogue.iter().flat_map(|c| c.picks.iter());
    let mut out: Vec<Line> = picks
        .map(|p| Line {
            member_id: p.member_id,
            name: p.name.clone(),
            code: p.code.clone(),
            tier: Some(p.tier.clone()),
            favorite: p.organizer_favorite,
            comment: p
                .organizer_comment
                .clone()
                .map(|c| (c, p.organizer_comment_on.clone())),
            check: check_of(p.member_id),
        })
        .collect();
    for c in &view.checks {
        if !out.iter().any(|l| l.member_id == c.member_id) {
            out.push(Line {
                member_id: c.member_id,
                name: c.name.clone(),
                code: c.code.clone(),
                tier: None,
                favorite: false,
                comment: None,
                check: Some(c.clone()),
            });
        }
    }
    out
}

fn status_label(check: &CheckState) -> (&'static str, &'static str) {
    match (check.status.as_str(), check.conditions.is_some()) {
        ("available", true) => ("Disponible sous conditions", "text-amber-700"),
        ("available", false) => ("Disponible", "text-emerald-700"),
        ("unavailable", _) => ("Indisponible", "text-red-700"),
        ("expired", _) => ("Sans réponse (expirée)", "text-slate-500"),
        _ => ("En attente de réponse", "text-slate-600"),
    }
}

#[component]
pub fn VenueTable(view: OutreachView, actions: OutreachActions) -> impl IntoView {
    let request_id = view.request_id;
    let lines = lines(&view);
    let selected = RwSignal::new(BTreeSet::<i64>::new());
    let ask = actions.ask;
    let none_selected = move || selected.with(BTreeSet::is_empty);
    let dispatch = move |_| {
        let member_ids: Vec<i64> = selected.get_untracked().into_iter().collect();
        ask.dispatch(SendAvailabilityChecks {
            request_id,
            member_ids,
        });
    };
    let empty = lines.is_empty();
    view! {
        <div class="rounded-xl border border-slate-200 bg-white p-4 text-sm" data-testid="outreach-venues">
            <div class="mb-3 flex flex-wrap items-center justify-between gap-2">
                <h3 class="font-medium">"Lieux et disponibilités"</h3>
                <button
                    type="button"
                    data-testid="ask-availability"
                    disabled=none_selected
                    on:click=dispatch
                    class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
                >"Demander les disponibilités"</button>
            </div>
            {empty.then(|| view! { <p class="text-slate-500">"Aucun lieu dans ce catalogue."</p> })}
            <ul class="divide-y divide-slate-100">
                {lines.into_iter().map(|line| {
                    let id = line.member_id;
                    let toggle = move |ev: leptos::ev::Event| {
                        let on = event_target_checked(&ev);
                        selected.update(|s| { if on { s.insert(id); } else { s.remove(&id); } });
                    };
                    view! {
                        <li class="flex flex-wrap items-start gap-3 py-2" data-testid="outreach-venue" data-member-id=id.to_string()>
                            <input type="checkbox" class="mt-1" aria-label=format!("Choisir {}", line.name)
                                prop:checked=move || selected.with(|s| s.contains(&id)) on:change=toggle />
                            <div class="min-w-0 flex-1">
                                <p class="font-medium">
                                    {line.name} " "
                                    <span class="text-xs text-slate-500">{line.code}</span>
                                    {line.tier.map(|t| view! { <span class="ml-2 text-xs text-slate-500">{if t == "recommended" { "recommandé" } else { "compatible" }}</span> })}
                                    {line.favorite.then(|| view! { <span class="ml-2 text-xs font-medium text-amber-600" data-testid="organizer-favorite">"★ favori de l'organisateur"</span> })}
                                </p>
                                {line.comment.map(|(c, on)| view! {
                                    <p class="text-xs text-slate-800" data-testid="organizer-pick-comment">
                                        "Mot de l'organisateur : « " {c} " »" {on.map(|on| format!(" (le {on})"))}
                                    </p>
                                })}
                                {line.check.map(|c| {
                                    let (label, color) = status_label(&c);
                                    view! {
                                        <p class=format!("text-xs {color}") data-testid="availability-state">
                                            {label} " · demandé le " {c.sent_on.clone()}
                                            {c.delay.clone().map(|d| format!(" · répondu en {d}"))}
                                        </p>
                                        {c.conditions.clone().map(|t| view! { <p class="text-xs text-slate-700">"Conditions : « " {t} " »"</p> })}
                                        {c.answer.clone().map(|t| view! { <p class="text-xs text-slate-600">"Commentaire : « " {t} " »"</p> })}
                                    }
                                })}
                            </div>
                        </li>
                    }
                }).collect_view()}
            </ul>
            {action_error(ask.value())}
            {move || ask.value().get().and_then(Result::ok).map(|sent| view! {
                <div class="mt-3 space-y-2" data-testid="availability-links">
                    <p class="text-xs text-slate-600">"Liens des lieux (affichés une seule fois) :"</p>
                    {sent.into_iter().map(|s| view! {
                        <div>
                            <p class="text-xs font-medium">{s.name} " " {s.code}
                                {s.reused.then_some(" (demande en cours conservée, nouveau lien)")}
                                " · réponse attendue avant le " {s.expires_on}</p>
                            {super::send_panel::mail_line(s.emailed_to.clone(), s.mail_note.clone())}
                            <CopyLink path=s.path testid="availability-link" />
                        </div>
                    }).collect_view()}
                </div>
            })}
        </div>
    }
}
