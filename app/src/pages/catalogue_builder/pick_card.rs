//! One venue of the catalogue: how far it is from the request's zone, its
//! pinned room (only rooms holding the group are offered), its reason
//! (what the organizer reads; a few lines), the team's internal note (what
//! only the team sees), and the buttons that move it.
use super::ops::{Builder, Op};
use crate::catalogue_builder::{PickView, RoomChoice, MAX_REASON_CHARS};
use crate::fr;
use crate::pages::LearnButton;
use crate::raw_text::textarea_value;
use crate::room_configurations::phrase_of;
use leptos::prelude::*;

/// What every card of one catalogue shares.
#[derive(Clone, Debug, PartialEq)]
pub struct CardContext {
    pub catalogue_id: i64,
    pub request_id: i64,
    /// The request's event type ('' when unknown), for « Apprendre ».
    pub event_type: String,
    pub read_only: bool,
    pub training: bool,
}

fn room_label(r: &RoomChoice) -> String {
    format!(
        "{} · {} {}",
        r.name,
        fr::plural(r.capacity, "place", "places"),
        phrase_of(&r.configuration)
    )
}

/// Enter saves the reason (as leaving the box does); Shift+Enter is a
/// new line, which the saved reason turns into a space.
fn save_on_enter(ev: leptos::ev::KeyboardEvent) {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        if ev.key() != "Enter" || ev.shift_key() || ev.is_composing() {
            return;
        }
        if let Some(el) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
        {
            ev.prevent_default();
            let _ = el.blur();
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = ev;
}

#[component]
pub fn PickCard(
    pick: PickView,
    context: CardContext,
    builder: Builder,
    first: bool,
    last: bool,
) -> impl IntoView {
    let member_id = pick.member_id;
    let position = i64::from(pick.position);
    let tier = pick.tier;
    let busy = builder.act.pending();
    let act = builder.act;
    let read_only = context.read_only;
    let pinned = pick.room.as_ref().map(|r| r.id);
    let room_text = pick
        .room
        .as_ref()
        .map_or_else(|| "Aucune salle épinglée".to_string(), room_label);
    let options = pick.room_options.clone();
    let reason = pick.reason.clone();
    view! {
        <li class="rounded-xl border border-slate-200 bg-white p-4" data-testid="pick-card"
            data-member-id=member_id.to_string() data-code=pick.code.clone() data-tier=tier.key()>
            <div class="flex items-baseline justify-between gap-3">
                <p class="font-medium text-slate-900">{pick.name.clone()}</p>
                <span class="text-xs text-slate-500">{pick.code.clone()}
                    {(pick.added_by == "ai").then(|| view! { <span class="ml-1 rounded bg-indigo-50 px-1 text-indigo-700">"recherche"</span> })}
                </span>
            </div>
            <p class="text-sm text-slate-500" data-testid="pick-place">{pick.postal_code.clone()} " " {pick.city.clone()}
                {pick.distance_km.map(|d| view! { <span data-testid="pick-distance">" · à " {fr::distance_km(d)} " de la zone demandée"</span> })}
            </p>
            {pick.other_pool.clone().map(|p| view! { <p class="text-xs text-slate-500">"Autre pool : " {p}</p> })}
            {if read_only {
                view! {
                    <p class="mt-2 text-sm text-slate-700" data-testid="pinned-room">{room_text}</p>
                    <p class="mt-1 text-sm text-slate-700">{reason}</p>
                }.into_any()
            } else {
                view! {
                    <label class="mt-2 block text-xs font-medium text-slate-600">
                        "Salle épinglée"
                        <select data-testid="room-select"
                            class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
                            disabled=move || busy.get()
                            on:change=move |ev| {
                                let room_id = event_target_value(&ev).parse::<i64>().ok().filter(|id| *id != 0);
                                act.dispatch(Op::Pin { member_id, room_id });
                            }>
                            <option value="0" selected=pinned.is_none()>"Aucune salle épinglée"</option>
                            {options.into_iter().map(|r| {
                                let selected = pinned == Some(r.id);
                                view! { <option value=r.id.to_string() selected=selected>{room_label(&r)}</option> }
                            }).collect_view()}
                        </select>
                    </label>
                    {pick.room_options.is_empty().then(|| view! {
                        <p class="mt-1 text-xs text-amber-800">"Aucune salle de ce lieu ne reçoit le groupe dans la configuration demandée."</p>
                    })}
                    <label class="mt-2 block text-xs font-medium text-slate-600">
                        "Pourquoi ce lieu (ce que lit l'organisateur)"
                        <textarea data-testid="reason-input" maxlength=MAX_REASON_CHARS rows="3"
                            class="mt-1 block w-full resize-y rounded-md border border-slate-300 px-2 py-1 text-sm"
                            // A version reloaded in place (someone else's edit, an
                            // undo) must show its reason: the child text is only
                            // the default value once the box exists.
                            prop:value=reason.clone()
                            on:keydown=save_on_enter
                            on:change=move |ev| {
                                act.dispatch(Op::Reason { member_id, reason: event_target_value(&ev) });
                            }>{textarea_value(reason.clone())}</textarea>
                    </label>
                    <div class="mt-3 flex flex-wrap gap-2 text-xs">
                        <button type="button" data-testid="move-up" title="Monter"
                            class="rounded border border-slate-300 px-2 py-1 hover:bg-slate-50 disabled:opacity-40"
                            disabled=move || first || busy.get()
                            on:click=move |_| { act.dispatch(Op::Reorder { member_id, position: position - 1 }); }>"↑"</button>
                        <button type="button" data-testid="move-down" title="Descendre"
                            class="rounded border border-slate-300 px-2 py-1 hover:bg-slate-50 disabled:opacity-40"
                            disabled=move || last || busy.get()
                            on:click=move |_| { act.dispatch(Op::Reorder { member_id, position: position + 1 }); }>"↓"</button>
                        <button type="button" data-testid="move-tier"
                            class="rounded border border-slate-300 px-2 py-1 hover:bg-slate-50 disabled:opacity-40"
                            disabled=move || busy.get()
                            on:click=move |_| { act.dispatch(Op::Move { member_id, tier: tier.other() }); }>
                            "→ " {tier.other().label()}
                        </button>
                        <button type="button" data-testid="remove-pick"
                            class="rounded border border-red-200 px-2 py-1 text-red-700 hover:bg-red-50 disabled:opacity-40"
                            disabled=move || busy.get()
                            on:click=move |_| { act.dispatch(Op::Remove { member_id }); }>"Retirer"</button>
                    </div>
                }.into_any()
            }}
            {pick.room_unfit.clone().map(|w| view! { <p class="mt-1 text-xs text-amber-800">{w}</p> })}
            // Signals the organizer never reads: labelled so nobody copies them into the reason.
            {(!pick.team_note.is_empty()).then(|| view! {
                <p class="mt-2 rounded bg-slate-50 px-2 py-1 text-xs text-slate-600" data-testid="team-note">
                    <span class="font-medium">"Note interne (équipe) : "</span>
                    {pick.team_note.join(" · ")}
                </p>
            })}
            // « Apprendre »: the team's verdict on this venue for this kind of event.
            <div data-testid="pick-extras" class="mt-2"
                data-request-id=context.request_id.to_string()
                data-member-id=member_id.to_string()
                data-catalogue-id=context.catalogue_id.to_string()
                data-member-name=pick.name.clone()
                data-event-type=context.event_type.clone()>
                <LearnButton
                    request_id=context.request_id
                    member_id=member_id
                    catalogue_id=Some(context.catalogue_id)
                    member_name=pick.name.clone()
                    event_type=(!context.event_type.is_empty()).then(|| context.event_type.clone())
                />
            </div>
        </li>
    }
}
