//! « Ajouter au catalogue de D-… »: one click puts a result into the
//! request's draft (the builder's own add: same rules, same audit). A plain
//! form posting to the server function, so it works without JavaScript; an
//! island, so that with it the answer shows in place (no reload of the search).
use crate::catalogue_builder::{builder_href, AddFromSearch};
use crate::pages::{failure, FormError};
use crate::venue_search::RequestTarget;
use leptos::prelude::*;

#[island]
pub fn AddToCatalogue(target: RequestTarget, member_id: i64, already: bool) -> impl IntoView {
    let action = ServerAction::<AddFromSearch>::new();
    let busy = action.pending();
    let done = move || {
        action
            .value()
            .with(|v| v.as_ref().and_then(|r| r.as_ref().ok()).cloned())
    };
    let href = builder_href(target.request_id);
    let reference = target.reference.clone();
    view! {
        <div class="mt-3 text-sm" data-testid="add-to-catalogue">
            {move || match (already, done()) {
                (_, Some(added)) => view! {
                    <p role="status" class="text-emerald-700" data-testid="added-to-catalogue">{added.message}
                        " " <a class="font-medium underline" href=href.clone()>"Ouvrir le catalogue"</a></p>
                }.into_any(),
                (true, None) => view! {
                    <p class="text-slate-500" data-testid="already-in-catalogue">"Déjà au catalogue de " {reference.clone()} "."</p>
                }.into_any(),
                (false, None) => {
                    let label = format!("Ajouter au catalogue de {}", reference);
                    view! {
                        <ActionForm action=action>
                            <input type="hidden" name="request_id" value=target.request_id.to_string() />
                            <input type="hidden" name="member_id" value=member_id.to_string() />
                            <button type="submit" data-testid="add-to-catalogue-button"
                                class="rounded-md border border-indigo-300 px-3 py-1.5 font-medium text-indigo-700 hover:bg-indigo-50 disabled:opacity-50"
                                disabled=move || busy.get()>{label}</button>
                        </ActionForm>
                    }.into_any()
                }
            }}
            <FormError error=failure(action) testid="add-to-catalogue-error" />
        </div>
    }
}
