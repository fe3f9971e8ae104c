//! The fields both learning forms share: category, event type, directive.
use crate::fr::{capitalized, TRAINING_CATEGORIES};
use leptos::prelude::*;

#[component]
pub fn CategorySelect() -> impl IntoView {
    view! {
        <label class="block">
            "Catégorie"
            <select name="category" class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1" data-testid="training-category">
                {TRAINING_CATEGORIES.iter().map(|(value, label)| view! { <option value=*value>{capitalized(label)}</option> }).collect_view()}
            </select>
        </label>
    }
}

#[component]
pub fn EventTypeInput(value: String) -> impl IntoView {
    view! {
        <label class="block">
            "Type d'événement"
            <input type="text" name="event_type" value=value maxlength="60"
                placeholder="cocktail, séminaire…" data-testid="training-event-type"
                class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1" />
        </label>
    }
}

/// `{trigger, prefer, avoid}` as three inputs, lists comma-separated.
#[component]
pub fn DirectiveFields(required: bool) -> impl IntoView {
    let legend = if required {
        "Consigne"
    } else {
        "Consigne (facultative)"
    };
    view! {
        <fieldset class="space-y-2 rounded-md border border-slate-200 p-2">
            <legend class="px-1 text-slate-700">{legend}</legend>
            <label class="block">
                "Quand la demande est…"
                <input type="text" name="trigger" maxlength="60" required=required placeholder="festif"
                    data-testid="directive-trigger"
                    class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1" />
            </label>
            <label class="block">
                "Préférer (séparés par des virgules)"
                <input type="text" name="prefer" placeholder="jardin, terrasse" data-testid="directive-prefer"
                    class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1" />
            </label>
            <label class="block">
                "Éviter (séparés par des virgules)"
                <input type="text" name="avoid" placeholder="sous-sol" data-testid="directive-avoid"
                    class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1" />
            </label>
        </fieldset>
    }
}
