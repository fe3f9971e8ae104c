//! The e-mails of the request: to whom, when (Paris time), their status,
//! the last error in French, and « Réessayer » for one not delivered.
use crate::outreach::{MailSendState, RetryMail};
use leptos::prelude::*;

#[component]
pub fn MailLog(
    mails: Vec<MailSendState>,
    configured: bool,
    retry: ServerAction<RetryMail>,
) -> impl IntoView {
    let empty = mails.is_empty();
    view! {
        <div class="rounded-xl border border-slate-200 bg-white p-4 text-sm" data-testid="outreach-mails">
            <h3 class="mb-2 font-medium">"E-mails envoyés"</h3>
            {(!configured).then(|| view! {
                <p class="mb-2 text-xs text-amber-700" data-testid="mail-not-configured">
                    "Envoi par e-mail non configuré : transmettez les liens vous-même."
                </p>
            })}
            {empty.then(|| view! { <p class="text-slate-500">"Aucun e-mail pour cette demande."</p> })}
            <ul class="divide-y divide-slate-100">
                {mails.into_iter().map(|m| {
                    let color = match m.status.as_str() {
                        "sent" => "text-emerald-700",
                        "failed" => "text-red-700",
                        _ => "text-slate-600",
                    };
                    let id = m.send_id;
                    let to = match &m.recipient_name {
                        Some(name) => format!("{name} <{}>", m.recipient),
                        None => m.recipient.clone(),
                    };
                    let attempts = match m.attempts {
                        0 => String::new(),
                        1 => " · 1 essai".to_string(),
                        n => format!(" · {n} essais"),
                    };
                    view! {
                        <li class="py-2" data-testid="mail-send" data-status=m.status.clone()>
                            <p class="break-words">
                                <span class="font-medium">{m.what}</span> " à " {to}
                            </p>
                            <p class="text-xs text-slate-500">
                                "« " {m.subject} " » · mis en file le " {m.queued_on}
                                {m.queued_by.map(|by| format!(" par {by}"))}
                            </p>
                            <p class=format!("text-xs {color}") data-testid="mail-status">
                                {m.status_label} {attempts}
                                {m.next_try.map(|t| format!(" · {t}"))}
                            </p>
                            {m.last_error.map(|e| view! {
                                <p class="text-xs text-red-700" data-testid="mail-error">"Dernière erreur : " {e}</p>
                            })}
                            {m.can_retry.then(|| view! {
                                <button
                                    type="button"
                                    data-testid="mail-retry"
                                    on:click=move |_| { retry.dispatch(RetryMail { send_id: id }); }
                                    class="mt-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium hover:bg-slate-100"
                                >"Réessayer maintenant"</button>
                            })}
                        </li>
                    }
                }).collect_view()}
            </ul>
            {super::action_error(retry.value())}
        </div>
    }
}
