//! `CatalogueOutreach`: the catalogue builder's outreach panel (mounted by
//! the builder page with its request and catalogue). Send the catalogue and
//! copy the organizer's link, revoke it; see the organizer's favourites and
//! comment; ask the catalogue's venues for their availability in bulk and
//! follow their answers and delays; follow the e-mails sent (and retry one
//! that failed). Team only, like its server functions.
mod copy_link;
mod mail_log;
mod send_panel;
mod venue_table;

use crate::outreach::{
    load_outreach, RetryMail, RevokeCatalogueLinks, SendAvailabilityChecks, SendCatalogue,
};
use leptos::prelude::*;
use mail_log::MailLog;
use send_panel::SendPanel;
use venue_table::VenueTable;

/// The actions of the panel; any of them reloads the view.
#[derive(Clone, Copy)]
pub struct OutreachActions {
    pub send: ServerAction<SendCatalogue>,
    pub revoke: ServerAction<RevokeCatalogueLinks>,
    pub ask: ServerAction<SendAvailabilityChecks>,
    pub retry: ServerAction<RetryMail>,
}

/// What the panel shows, reloaded after any of its actions.
pub type OutreachState = Resource<Result<crate::outreach::OutreachView, crate::errors::AppError>>;

/// The panel's actions and state, for a catalogue that may change (a new
/// version is another catalogue).
///
/// Created at the top of the builder's island, not inside the panel: the
/// panel is drawn inside a reactive closure, which the server runs after
/// the island's body, outside the island's hydration scope; a resource
/// created there would not be handed to the browser with the page.
pub fn outreach_state(
    request_id: i64,
    catalogue_id: Signal<Option<i64>>,
) -> (OutreachActions, OutreachState) {
    let actions = OutreachActions {
        send: ServerAction::new(),
        revoke: ServerAction::new(),
        ask: ServerAction::new(),
        retry: ServerAction::new(),
    };
    let state = Resource::new(
        move || {
            (
                catalogue_id.get(),
                actions.send.version().get(),
                actions.revoke.version().get(),
                actions.ask.version().get(),
                actions.retry.version().get(),
            )
        },
        move |(catalogue_id, ..)| load_outreach(request_id, catalogue_id),
    );
    (actions, state)
}

#[component]
pub fn CatalogueOutreach(actions: OutreachActions, state: OutreachState) -> impl IntoView {
    view! {
        <section class="space-y-6" data-testid="catalogue-outreach">
            <Transition fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
                {move || state.get().map(|result| match result {
                    Ok(view) => view! {
                        {match view.catalogue.clone() {
                            Some(c) => view! { <SendPanel catalogue=c actions /> }.into_any(),
                            None => view! {
                                <p class="text-sm text-slate-500">"Pas encore de catalogue pour cette demande."</p>
                            }.into_any(),
                        }}
                        <VenueTable view=view.clone() actions />
                        <MailLog mails=view.mails configured=view.mail_configured retry=actions.retry />
                    }.into_any(),
                    Err(e) => view! {
                        <p role="alert" class="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">{e.to_string()}</p>
                    }.into_any(),
                })}
            </Transition>
        </section>
    }
}

/// An action's error, as a line under the button that caused it.
pub(crate) fn action_error<T: Clone + Send + Sync + 'static>(
    value: MappedSignal<Option<Result<T, crate::errors::AppError>>>,
) -> impl IntoView {
    move || {
        value.get().and_then(Result::err).map(|e| {
            view! {
                <p role="alert" class="mt-2 text-sm text-red-700" data-testid="outreach-error">{e.to_string()}</p>
            }
        })
    }
}
