//! `/v/:token`: a venue answers one availability check.
use super::link_views::{EventSummary, LinkError, LinkFrame};
use super::{failure, FormError};
use crate::links::{
    load_venue_availability, AnswerAvailability, VenueAvailability, MAX_COMMENT_CHARS,
};
use leptos::prelude::*;
use leptos_meta::{Meta, Title};
use leptos_router::hooks::use_params_map;

#[component]
pub fn VenueAvailabilityPage() -> impl IntoView {
    let params = use_params_map();
    let token = move || params.read().get("token").unwrap_or_default();
    let answer = ServerAction::<AnswerAvailability>::new();
    let check = Resource::new(
        move || (token(), answer.version().get()),
        |(t, _)| load_venue_availability(t),
    );
    view! {
        <Title text="Disponibilité demandée" />
        // The URL holds the token: never send it to other sites.
        <Meta name="referrer" content="same-origin" />
        <LinkFrame>
            <h1 class="mb-4 text-2xl font-semibold tracking-tight">"Disponibilité demandée"</h1>
            <Transition fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
                {move || check.get().map(|result| match result {
                    Ok(c) => view! { <CheckView check=c token=token() answer /> }.into_any(),
                    Err(e) => view! { <LinkError error=e /> }.into_any(),
                })}
            </Transition>
            // A refused answer (with JavaScript, or back from a plain post).
            <div class="mt-4"><FormError error=failure(answer) testid="link-form-error" /></div>
        </LinkFrame>
    }
}

#[component]
fn CheckView(
    check: VenueAvailability,
    token: String,
    answer: ServerAction<AnswerAvailability>,
) -> impl IntoView {
    let status = match check.status.as_str() {
        "available" if check.conditions.is_some() => {
            Some("Vous avez indiqué être disponible sous conditions. Merci !")
        }
        "available" => Some("Vous avez indiqué être disponible. Merci !"),
        "unavailable" => Some("Vous avez indiqué ne pas être disponible. Merci de votre réponse."),
        "expired" => Some("Cette demande a expiré."),
        _ => None,
    };
    view! {
        <p class="mb-4 text-sm text-slate-600">{check.venue_name} ", l'équipe Reciprok vous demande si vous pouvez accueillir cet événement."</p>
        <EventSummary
            reference=check.request_reference
            summary=check.event_summary
            participants=check.participants
            dates=check.event_dates
            configurations=check.configurations
        />
        {match status {
            Some(text) => view! {
                <div role="status" class="mt-6 rounded-xl border border-slate-200 bg-white p-5 text-sm" data-testid="availability-status">
                    <p class="font-medium">{text}</p>
                    {check.conditions.map(|c| view! { <p class="mt-2 text-slate-700" data-testid="availability-conditions">"Vos conditions : « " {c} " »"</p> })}
                    {check.answer.map(|a| view! { <p class="mt-2 text-slate-600">"« " {a} " »"</p> })}
                </div>
            }.into_any(),
            None => view! {
                <ActionForm action=answer attr:class="mt-6 space-y-4 rounded-xl border border-slate-200 bg-white p-5 text-sm">
                    <input type="hidden" name="token" value=token />
                    <fieldset class="flex flex-wrap gap-x-6 gap-y-2">
                        <legend class="mb-2 font-medium">"Êtes-vous disponible ?"</legend>
                        <label class="flex items-center gap-2"><input type="radio" name="available" value="true" required />"Oui"</label>
                        <label class="flex items-center gap-2"><input type="radio" name="available" value="conditions" />"Oui, sous conditions"</label>
                        <label class="flex items-center gap-2"><input type="radio" name="available" value="false" />"Non"</label>
                    </fieldset>
                    <label class="block">
                        "Vos conditions (obligatoires si « Oui, sous conditions »)"
                        <textarea name="conditions" maxlength=MAX_COMMENT_CHARS rows="2" data-testid="availability-conditions-input"
                            class="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"></textarea>
                    </label>
                    <label class="block">
                        "Commentaire (facultatif)"
                        <textarea name="comment" maxlength=MAX_COMMENT_CHARS rows="3"
                            class="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"></textarea>
                    </label>
                    <p class="text-xs text-slate-500">"Réponse attendue avant le " {check.answer_until} "."</p>
                    <button type="submit" class="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700">"Envoyer ma réponse"</button>
                </ActionForm>
            }.into_any(),
        }}
    }
}
