//! One result of the search: the venue (a link to its sheet), where it
//! is and how far, the room that holds the group, why it was picked, and
//! « Ajouter au catalogue de D-… » when the search serves a request.
use super::add_button::AddToCatalogue;
use crate::fr;
use crate::room_configurations::phrase_of;
use crate::venue_search::{RequestTarget, VenuePick};
use leptos::prelude::*;

#[component]
pub fn PickCard(pick: VenuePick, target: Option<RequestTarget>) -> impl IntoView {
    let room = pick.matched_room.clone().map(|r| {
        format!(
            "{} · {} {}",
            r.name,
            fr::plural(r.capacity, "place", "places"),
            phrase_of(&r.configuration)
        )
    });
    let distance = pick.distance_km.map(fr::distance_km);
    let member_id = pick.member_id;
    view! {
        <li class="min-w-0 rounded-xl border border-slate-200 bg-white p-4" data-testid="venue-pick" data-member-id=member_id.to_string()>
            <div class="flex items-baseline justify-between gap-3">
                <a class="font-medium text-indigo-700 hover:underline" href=format!("/lieux/{member_id}") data-testid="venue-sheet-link">{pick.name.clone()}</a>
            </div>
            <p class="text-sm text-slate-500" data-testid="pick-place">{pick.postal_code.clone()} " " {pick.city.clone()}
                {distance.map(|d| view! { <span>" · à " {d}</span> })}
            </p>
            {room.map(|r| view! { <p class="mt-1 text-sm text-slate-700" data-testid="matched-room">{r}</p> })}
            <p class="mt-2 text-sm text-slate-700">{pick.reason.clone()}</p>
            {target.map(|t| {
                let already = t.in_catalogue.contains(&member_id);
                view! { <AddToCatalogue target=t member_id already /> }
            })}
        </li>
    }
}
