//! « Apprendre »: the forms that teach Maxy. [`LearnButton`] sits on each
//! card of the catalogue builder (a verdict on that venue for that
//! request); [`GuidelineForm`] writes a guideline without a venue (the
//! `/entrainement` page, the requests page). Both are plain forms posting
//! to server functions, so they work without JavaScript; the server checks
//! every field and its message is shown next to the form.
mod fields;
mod training_page;

pub use training_page::TrainingPage;

use crate::errors::AppError;
use crate::fr;
use crate::pages::{posted_to, FormError};
use crate::training::{AddGuideline, Learn, VENUE_VERDICTS};
use fields::{CategorySelect, DirectiveFields, EventTypeInput};
use leptos::prelude::*;

/// The outcome of a form's last post: the server's message, or a thank-you
/// (also when the page is the one a plain post came back to: `posted`).
#[component]
fn Outcome(
    result: impl Fn() -> Option<Result<i64, AppError>> + Send + Sync + 'static,
    testid: &'static str,
    #[prop(optional)] posted: bool,
) -> impl IntoView {
    move || {
        result().or_else(|| posted.then_some(Ok(0))).map(|result| match result {
            Ok(_) => view! {
                <p role="status" class="rounded-md bg-emerald-50 px-3 py-2 text-emerald-800" data-testid=format!("{testid}-saved")>
                    "Leçon enregistrée : Maxy en tiendra compte dans les prochaines recherches."
                </p>
            }
            .into_any(),
            Err(e) => view! { <FormError error=Signal::stored(Some(e)) testid=format!("{testid}-error") /> }.into_any(),
        })
    }
}

/// « Apprendre » on one venue of one request: a disclosure (no JavaScript
/// needed to open it) holding the verdict form.
#[component]
pub fn LearnButton(
    request_id: i64,
    member_id: i64,
    catalogue_id: Option<i64>,
    member_name: String,
    event_type: Option<String>,
) -> impl IntoView {
    let action = ServerAction::<Learn>::new();
    // Open again after a post without JavaScript that came back with an error.
    let open = move || action.value().with(|v| matches!(v, Some(Err(_))));
    // No verdict is chosen for the user (the strongest one used to be):
    // the browser asks for one, and for the reason a verdict needs, before
    // anything is sent; the server checks both again.
    let verdict = RwSignal::new(String::new());
    let reason_needed = move || verdict.with(|v| needs_reason(v));
    let problem = RwSignal::new(None::<&'static str>);
    view! {
        <details class="group text-sm" data-testid="learn" open=open>
            <summary class="inline-block cursor-pointer rounded-md border border-slate-300 px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50" data-testid="learn-button">
                "Apprendre"
            </summary>
            <ActionForm action=action attr:class="mt-2 space-y-3 rounded-lg border border-slate-200 bg-white p-3" attr:data-testid="learn-form">
                <input type="hidden" name="request_id" value=request_id.to_string() />
                <input type="hidden" name="member_id" value=member_id.to_string() />
                {catalogue_id.map(|c| view! { <input type="hidden" name="catalogue_id" value=c.to_string() /> })}
                <p class="font-medium text-slate-800">"Qu'apprendre de « " {member_name} " » pour ce type de demande ?"</p>
                <fieldset class="space-y-1">
                    <legend class="sr-only">"Verdict"</legend>
                    {VENUE_VERDICTS.iter().map(|value| view! {
                        <label class="flex items-center gap-2">
                            <input type="radio" name="verdict" value=*value required data-testid=format!("learn-verdict-{value}")
                                on:change=move |_| { verdict.set(value.to_string()); problem.set(None); }
                                on:invalid=move |_| problem.set(Some(NO_VERDICT)) />
                            {fr::capitalized(fr::training_verdict(value))}
                        </label>
                    }).collect_view()}
                </fieldset>
                <label class="block">
                    {move || if reason_needed() { "Raison (obligatoire pour ce verdict)" } else { "Raison (obligatoire si le lieu est écarté ou rétrogradé)" }}
                    <textarea name="reason" rows="2" maxlength="1000" data-testid="learn-reason"
                        placeholder="Pas d'extérieur, alors que l'événement en demande"
                        required=reason_needed
                        on:input=move |_| problem.set(None)
                        on:invalid=move |_| problem.set(Some(NO_REASON))
                        class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1"></textarea>
                </label>
                {move || problem.get().map(|p| view! {
                    <p role="alert" class="rounded-md bg-red-50 px-3 py-2 text-red-700" data-testid="learn-invalid">{p}</p>
                })}
                <div class="grid gap-3 sm:grid-cols-2">
                    <CategorySelect />
                    <EventTypeInput value=event_type.unwrap_or_default() />
                </div>
                <DirectiveFields required=false />
                <button type="submit" class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700" data-testid="learn-submit">
                    "Enregistrer la leçon"
                </button>
                <Outcome result=move || action.value().get() testid="learn" />
            </ActionForm>
        </details>
    }
}

const NO_VERDICT: &str =
    "Choisissez un verdict : bon choix, compatible plutôt que recommandé, ou à ne plus proposer.";
const NO_REASON: &str =
    "Dites pourquoi : la raison est obligatoire quand le lieu est écarté ou rétrogradé.";

/// The verdicts the server refuses without a reason (the browser says so
/// first, beside the form: no round trip to learn it).
fn needs_reason(verdict: &str) -> bool {
    matches!(verdict, "rejected" | "demoted")
}

/// A guideline without a venue: a trigger and words to prefer or avoid
/// (required), for one kind of event or all.
#[component]
pub fn GuidelineForm(request_id: Option<i64>) -> impl IntoView {
    // The `/entrainement` page shares its action so its list follows the posts.
    let action = use_context::<ServerAction<AddGuideline>>().unwrap_or_default();
    view! {
        <ActionForm action=action attr:class="space-y-3 rounded-xl border border-slate-200 bg-white p-4 text-sm" attr:data-testid="guideline-form">
            {request_id.map(|r| view! { <input type="hidden" name="request_id" value=r.to_string() /> })}
            <EventTypeInput value=String::new() />
            <DirectiveFields required=true />
            <label class="block">
                "Pourquoi (facultatif)"
                <textarea name="reason" rows="2" maxlength="1000" data-testid="guideline-reason"
                    class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1"></textarea>
            </label>
            <CategorySelect />
            <button type="submit" class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700" data-testid="guideline-submit">
                "Ajouter la consigne"
            </button>
            <Outcome result=move || action.value().get() testid="guideline" posted=posted_to(action) />
        </ActionForm>
    }
}
