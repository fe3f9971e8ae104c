//! Sending the catalogue: its state, the send (or resend) button, the
//! organizer's link to copy, revoking the links, and the organizer's comment.
use super::copy_link::CopyLink;
use super::{action_error, OutreachActions};
use crate::outreach::{CatalogueOutreachState, RevokeCatalogueLinks, SendCatalogue};
use leptos::prelude::*;

/// « E-mail en file pour … » or why it was not e-mailed.
pub(crate) fn mail_line(emailed_to: Option<String>, note: Option<String>) -> impl IntoView {
    match (emailed_to, note) {
        (Some(to), _) => view! {
            <p class="text-xs text-emerald-700" data-testid="mail-queued">"E-mail en file d'envoi pour " {to} "."</p>
        }
        .into_any(),
        (None, Some(why)) => view! {
            <p class="text-xs text-amber-700" data-testid="mail-note">"Pas d'e-mail : " {why} ". Transmettez le lien vous-même."</p>
        }
        .into_any(),
        (None, None) => ().into_any(),
    }
}

#[component]
pub fn SendPanel(catalogue: CatalogueOutreachState, actions: OutreachActions) -> impl IntoView {
    let id = catalogue.catalogue_id;
    let training = catalogue.kind == "training";
    let archived = catalogue.status == "archived";
    let empty = catalogue.picks.is_empty();
    let state = match (catalogue.status.as_str(), &catalogue.sent_on) {
        ("sent", Some(on)) => format!("Envoyé à l'organisateur le {on}"),
        ("archived", _) => "Archivé".to_string(),
        _ => "Brouillon, pas encore envoyé".to_string(),
    };
    let blocked = if training {
        Some("Catalogue d'entraînement : il ne s'envoie pas.")
    } else if archived {
        Some("Catalogue archivé : il ne s'envoie plus.")
    } else if empty {
        Some("Catalogue vide : ajoutez des lieux avant de l'envoyer.")
    } else {
        None
    };
    let label = if catalogue.status == "sent" {
        "Renvoyer (nouveau lien)"
    } else {
        "Envoyer à l'organisateur"
    };
    let (send, revoke) = (actions.send, actions.revoke);
    let links = catalogue.live_links;
    let uses = catalogue.link_uses;
    view! {
        <div class="rounded-xl border border-slate-200 bg-white p-4 text-sm" data-testid="outreach-send">
            <div class="flex flex-wrap items-center justify-between gap-3">
                <div>
                    <p class="font-medium" data-testid="outreach-status">{state}</p>
                    <p class="text-xs text-slate-500">
                        {match links {
                            0 => "Aucun lien organisateur actif.".to_string(),
                            1 => format!("1 lien actif, ouvert {uses} fois."),
                            n => format!("{n} liens actifs, ouverts {uses} fois."),
                        }}
                    </p>
                </div>
                <div class="flex gap-2">
                    <button
                        type="button"
                        data-testid="outreach-send-button"
                        disabled=blocked.is_some()
                        title=blocked.unwrap_or_default()
                        on:click=move |_| { send.dispatch(SendCatalogue { catalogue_id: id }); }
                        class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700 disabled:cursor-not-allowed disabled:opacity-50"
                    >{label}</button>
                    <button
                        type="button"
                        data-testid="outreach-revoke-button"
                        disabled=links == 0
                        on:click=move |_| { revoke.dispatch(RevokeCatalogueLinks { catalogue_id: id }); }
                        class="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-100 disabled:opacity-50"
                    >"Révoquer le lien"</button>
                </div>
            </div>
            {blocked.map(|b| view! { <p class="mt-2 text-xs text-amber-700">{b}</p> })}
            {action_error(send.value())}
            {action_error(revoke.value())}
            {move || send.value().get().and_then(Result::ok).filter(|s| s.catalogue_id == id).map(|sent| view! {
                <div class="mt-3 space-y-1">
                    {mail_line(sent.emailed_to.clone(), sent.mail_note.clone())}
                    <p class="text-xs text-slate-600">
                        "Lien de l'organisateur (valable jusqu'au " {sent.expires_on} ", affiché une seule fois) :"
                    </p>
                    <CopyLink path=sent.path testid="organizer-link" />
                </div>
            })}
            {move || revoke.value().get().and_then(Result::ok).map(|n| view! {
                <p class="mt-2 text-xs text-slate-600" data-testid="outreach-revoked">
                    {match n { 0 => "Aucun lien à révoquer.".to_string(), 1 => "1 lien révoqué.".to_string(), n => format!("{n} liens révoqués.") }}
                </p>
            })}
            <div class="mt-4 border-t border-slate-100 pt-3">
                <p class="text-xs font-medium uppercase tracking-wide text-slate-500">"Commentaire de l'organisateur"</p>
                {match catalogue.organizer_comment {
                    Some(c) => view! {
                        <p class="mt-1 whitespace-pre-line text-slate-800" data-testid="organizer-comment-seen">{c}</p>
                        <p class="text-xs text-slate-500">{catalogue.organizer_comment_on.map(|on| format!("le {on}"))}</p>
                    }.into_any(),
                    None => view! { <p class="mt-1 text-slate-500">"Pas de commentaire."</p> }.into_any(),
                }}
            </div>
        </div>
    }
}
