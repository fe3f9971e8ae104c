//! The team's edits on a request page: the status, and the memo with the
//! « consignes de recherche ». Both post the one `edit_request` server
//! function (fields left out are kept), with or without JavaScript.
use crate::pages::{posted_to, FormError};
use crate::raw_text::textarea_value;
use crate::requests::{status_label, EditRequest, MAX_HINTS_CHARS, MAX_MEMO_CHARS, STATUSES};
use leptos::prelude::*;

/// The last edit's outcome, under the form that sent it.
#[component]
fn Outcome(edit: ServerAction<EditRequest>, testid: &'static str) -> impl IntoView {
    // Also on the page a plain post came back to.
    let posted = posted_to(edit);
    move || {
        let result = edit.value().get().map(|r| r.map(|_| ()));
        result.or_else(|| posted.then_some(Ok(()))).map(|result| match result {
            Ok(_) => view! { <p role="status" data-testid=testid class="text-sm text-emerald-700">"Enregistré."</p> }.into_any(),
            Err(e) => view! { <FormError error=Signal::stored(Some(e)) testid=testid /> }.into_any(),
        })
    }
}

#[component]
pub fn StatusForm(
    request_id: i64,
    status: String,
    edit: ServerAction<EditRequest>,
) -> impl IntoView {
    view! {
        <section class="rounded-xl border border-slate-200 bg-white p-5 text-sm">
            <h2 class="mb-3 text-lg font-medium">"Statut"</h2>
            <ActionForm action=edit attr:class="flex items-end gap-3" attr:data-testid="status-form">
                <input type="hidden" name="request_id" value=request_id />
                <label class="block flex-1 font-medium text-slate-700">
                    <span class="sr-only">"Statut"</span>
                    <select name="status" data-testid="status-select"
                        class="block w-full rounded-md border border-slate-300 px-2 py-2">
                        {STATUSES.iter().map(|s| {
                            let selected = *s == status;
                            view! { <option value=*s selected=selected>{status_label(s)}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <button type="submit" data-testid="save-status"
                    class="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-700 hover:bg-slate-50">"Changer"</button>
            </ActionForm>
        </section>
    }
    .into_any()
}

#[component]
pub fn NotesForm(
    request_id: i64,
    memo: Option<String>,
    hints: Option<String>,
    edit: ServerAction<EditRequest>,
) -> impl IntoView {
    let area = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 font-normal";
    view! {
        <section class="rounded-xl border border-slate-200 bg-white p-5 text-sm">
            <h2 class="mb-3 text-lg font-medium">"Notes de l'équipe"</h2>
            <ActionForm action=edit attr:class="space-y-3" attr:data-testid="notes-form">
                <input type="hidden" name="request_id" value=request_id />
                <label class="block font-medium text-slate-700">
                    "Mémo équipe"
                    <textarea name="team_memo" rows="4" maxlength=MAX_MEMO_CHARS data-testid="team-memo"
                        placeholder="Contexte utile à l'équipe et à l'assistant" class=area>{textarea_value(memo.unwrap_or_default())}</textarea>
                </label>
                <label class="block font-medium text-slate-700">
                    "Consignes de recherche"
                    <textarea name="search_hints" rows="3" maxlength=MAX_HINTS_CHARS data-testid="search-hints"
                        placeholder="Ex. : privilégier les lieux avec jardin, éviter les sous-sols" class=area>{textarea_value(hints.unwrap_or_default())}</textarea>
                </label>
                <p class="text-xs text-slate-500">"Un champ vidé est effacé. L'assistant lit ces notes avec la demande."</p>
                <button type="submit" data-testid="save-notes"
                    class="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700">"Enregistrer"</button>
            </ActionForm>
            <Outcome edit testid="edit-outcome" />
        </section>
    }
    .into_any()
}
