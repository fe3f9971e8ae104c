//! The e-mails of a request, oldest first. Third-party text: shown as
//! text (Leptos escapes it), never as HTML.
use crate::requests::RequestEmail;
use leptos::prelude::*;

#[component]
pub fn Emails(emails: Vec<RequestEmail>) -> impl IntoView {
    let count = emails.len();
    view! {
        <section class="rounded-xl border border-slate-200 bg-white p-5 text-sm" data-testid="request-emails">
            <h2 class="mb-3 text-lg font-medium">"E-mails " <span class="text-sm font-normal text-slate-500">"(" {count} ")"</span></h2>
            {if emails.is_empty() {
                view! { <p class="text-slate-500">"Aucun e-mail pour cette demande."</p> }.into_any()
            } else {
                view! {
                    <ol class="space-y-4">
                        {emails.into_iter().map(|e| {
                            let incoming = e.direction == "in";
                            let (label, tone) = if incoming {
                                ("Reçu", "border-l-sky-400")
                            } else {
                                ("Envoyé", "border-l-emerald-400")
                            };
                            view! {
                                <li data-testid="request-email" data-direction=e.direction.clone()
                                    class=format!("border-l-4 {tone} pl-3")>
                                    <p class="text-xs text-slate-500">{label} " · " {e.at} " · " {e.from_address}</p>
                                    <p class="font-medium text-slate-900">{e.subject}</p>
                                    <p class="mt-1 whitespace-pre-line text-slate-700">{e.body}</p>
                                </li>
                            }
                        }).collect_view()}
                    </ol>
                }.into_any()
            }}
        </section>
    }
    .into_any()
}
