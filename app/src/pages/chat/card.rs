//! An approval card: a write the assistant proposes, shown for a person to
//! approve or refuse. Nothing is written before « Approuver »; the card then
//! shows what happened (executed, failed, rejected, expired). A failed card
//! wrote nothing and stays open: it says why and offers « Réessayer », which
//! approves the same card again.
use super::stream::Follower;
use super::timeline::{CardStatus, Timeline};
use crate::chat::{decide_approval, ApprovalCard, CardBody, CardField, CardPick, Decision};
use crate::room_configurations::phrase_of;
use leptos::prelude::*;

/// Where the proposal came from: what the turn read before it, and a
/// warning when that included e-mails from outside the team — a proposal
/// born of an e-mail's instructions must be spotted before it is approved.
#[component]
fn Provenance(read: Vec<String>, after_emails: bool) -> impl IntoView {
    let sources = (!read.is_empty()).then(|| {
        view! {
            <p class="mt-3 text-xs text-slate-500" data-testid="card-sources">
                "Proposée après : " {read.join(" · ")}
            </p>
        }
    });
    let warning = after_emails.then(|| {
        view! {
            <p class="mt-2 rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-800" data-testid="card-after-emails">
                "Cette proposition suit la lecture d'e-mails reçus : vérifiez qu'elle répond à une \
                 demande de l'équipe et non à une consigne écrite dans un e-mail."
            </p>
        }
    });
    view! { {sources} {warning} }
}

#[component]
pub fn CardView(
    card: ApprovalCard,
    status: Signal<CardStatus>,
    timeline: RwSignal<Timeline>,
    follower: Follower,
) -> impl IntoView {
    let approval_id = card.approval_id;
    let arguments_hash = card.arguments_hash.clone();
    let rejecting = RwSignal::new(false);
    let reason = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let decide = Action::new(move |decision: &Decision| {
        let decision = decision.clone();
        async move {
            error.set(None);
            match decide_approval(approval_id, decision).await {
                Ok(event) => timeline.update(|t| t.apply_decision(&event)),
                Err(e) => error.set(Some(e.to_string())),
            }
            // The decision may start a turn (the assistant goes on), and a
            // refusal may be because the card was decided elsewhere.
            follower.resync();
            follower.refresh_list();
        }
    });
    let busy = decide.pending();
    // One decision per card: a second click while one is in flight, or on
    // a card already decided, does nothing (a failed card may be approved
    // again).
    let submit = move |decision: Decision| {
        let allowed = status.with_untracked(|s| match decision {
            Decision::Approve { .. } => can_approve(s),
            Decision::Reject { .. } => *s == CardStatus::Pending,
        });
        if !busy.get_untracked() && allowed {
            decide.dispatch(decision);
        }
    };
    let approve = {
        let arguments_hash = arguments_hash.clone();
        move |_| {
            submit(Decision::Approve {
                arguments_hash: arguments_hash.clone(),
            })
        }
    };
    let reason_ok = move || !reason.with(|r| r.trim().is_empty());
    let reject = move || {
        if reason_ok() {
            submit(Decision::Reject {
                reason: reason.get_untracked().trim().to_string(),
            });
        }
    };
    view! {
        <article class="rounded-xl border border-amber-200 bg-white p-4 shadow-sm" data-testid="approval-card"
            data-approval-id=approval_id.to_string()>
            <header class="flex items-baseline justify-between gap-3">
                <h3 class="font-medium text-slate-900">{card.title.clone()}</h3>
                <span class="shrink-0 text-xs text-slate-500">
                    {move || if status.with(|s| *s == CardStatus::Pending) { "À approuver" } else { status.with(CardStatus::label) }}
                </span>
            </header>
            <CardBodyView body=card.body.clone() />
            <Provenance read=card.read_before.clone() after_emails=card.after_emails />
            {move || match status.get() {
                CardStatus::Pending => view! {
                    <div class="mt-4 space-y-2">
                        <div class="flex flex-wrap gap-2">
                            <button type="button" data-testid="approve-button"
                                class="rounded-md bg-emerald-600 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-700 disabled:opacity-50"
                                disabled=move || busy.get()
                                on:click=approve.clone()>"Approuver"</button>
                            <button type="button" data-testid="reject-button"
                                class="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50"
                                disabled=move || busy.get()
                                on:click=move |_| rejecting.update(|r| *r = !*r)>"Refuser"</button>
                        </div>
                        <Show when=move || rejecting.get()>
                            <div class="flex flex-wrap items-center gap-2">
                                <label class="sr-only" for=format!("reject-reason-{approval_id}")>"Raison du refus"</label>
                                <input type="text" id=format!("reject-reason-{approval_id}") data-testid="reject-reason"
                                    placeholder="Pourquoi refuser ? (Maxy en tiendra compte)"
                                    class="min-w-64 flex-1 rounded-md border border-slate-300 px-3 py-2 text-sm"
                                    prop:value=move || reason.get()
                                    on:input=move |ev| reason.set(event_target_value(&ev))
                                    on:keydown=move |ev| {
                                        if ev.key() == "Enter" {
                                            ev.prevent_default();
                                            reject();
                                        }
                                    } />
                                <button type="button" data-testid="reject-confirm"
                                    class="rounded-md bg-red-600 px-4 py-2 text-sm font-medium text-white hover:bg-red-700 disabled:opacity-50"
                                    disabled=move || busy.get() || !reason_ok()
                                    on:click=move |_| reject()>"Confirmer le refus"</button>
                            </div>
                        </Show>
                        <Show when=move || busy.get()>
                            <p role="status" class="text-xs text-slate-500">"Décision en cours…"</p>
                        </Show>
                    </div>
                }.into_any(),
                decided => {
                    let retry = can_approve(&decided);
                    view! {
                        <DecidedView status=decided />
                        {retry.then(|| view! {
                            <div class="mt-3 flex flex-wrap items-center gap-2">
                                <button type="button" data-testid="retry-button"
                                    class="rounded-md bg-emerald-600 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-700 disabled:opacity-50"
                                    disabled=move || busy.get()
                                    on:click=approve.clone()>"Réessayer"</button>
                                <Show when=move || busy.get()>
                                    <p role="status" class="text-xs text-slate-500">"Nouvel essai en cours…"</p>
                                </Show>
                            </div>
                        })}
                    }
                    .into_any()
                }
            }}
            {move || error.get().map(|e| view! {
                <p role="alert" class="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">{e}</p>
            })}
        </article>
    }
}

/// Whether « Approuver » (or « Réessayer ») may be sent: the card waits, or
/// its write failed and nothing was written.
pub fn can_approve(status: &CardStatus) -> bool {
    match status {
        CardStatus::Pending => true,
        CardStatus::Decided { status, .. } => status == "failed",
    }
}

#[component]
fn DecidedView(status: CardStatus) -> impl IntoView {
    let label = status.label();
    let CardStatus::Decided {
        status,
        detail,
        decided_by,
    } = status
    else {
        return ().into_any();
    };
    let class = match status.as_str() {
        "executed" => "mt-4 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900",
        "rejected" | "expired" => "mt-4 rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700",
        _ => "mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800",
    };
    view! {
        <p class=class data-testid="card-status" data-status=status>
            <span class="font-medium">{label}</span>
            {(!detail.is_empty()).then(|| view! { <span>" — " {detail}</span> })}
            {decided_by.map(|who| view! { <span class="text-xs opacity-75">" · " {who}</span> })}
        </p>
    }
    .into_any()
}

#[component]
fn CardBodyView(body: CardBody) -> impl IntoView {
    match body {
        CardBody::Catalogue {
            request_reference,
            picks,
            ..
        } => view! { <PicksTable reference=request_reference picks /> }.into_any(),
        CardBody::Fields { rows } => view! { <FieldRows rows /> }.into_any(),
    }
}

/// The tier in the team's words (the shared French table).
pub fn tier_label(tier: &str) -> String {
    crate::fr::tier(tier).to_string()
}

/// The pinned room: « Terrasse · 120 places en cocktail ».
pub fn room_line(pick: &CardPick) -> Option<String> {
    let room = pick.room_name.as_deref()?;
    let mut line = room.to_string();
    if let Some(capacity) = pick.capacity {
        line.push_str(&format!(" · {capacity} places"));
        if let Some(configuration) = &pick.configuration {
            line.push(' ');
            line.push_str(&phrase_of(configuration));
        }
    }
    Some(line)
}

#[component]
fn PicksTable(reference: String, picks: Vec<CardPick>) -> impl IntoView {
    view! {
        <p class="mt-1 text-xs text-slate-500">"Demande " {reference} " · " {picks.len()} " lieux"</p>
        <div class="mt-3 overflow-x-auto">
            <table class="w-full text-left text-sm">
                <thead class="text-xs uppercase text-slate-500">
                    <tr>
                        <th class="py-1 pr-3 font-medium">"Niveau"</th>
                        <th class="py-1 pr-3 font-medium">"Lieu"</th>
                        // On a phone the room and the reason go under the venue.
                        <th class="hidden py-1 pr-3 font-medium sm:table-cell">"Salle"</th>
                        <th class="hidden py-1 font-medium sm:table-cell">"Pourquoi"</th>
                    </tr>
                </thead>
                <tbody class="divide-y divide-slate-100">
                    {picks.into_iter().map(|p| {
                        let room = room_line(&p);
                        let badge = if p.tier == "recommended" {
                            "rounded bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700"
                        } else {
                            "rounded bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600"
                        };
                        view! {
                            <tr data-testid="card-pick" data-tier=p.tier.clone()>
                                <td class="py-2 pr-3 align-top"><span class=badge>{tier_label(&p.tier)}</span></td>
                                <td class="py-2 pr-3 align-top">
                                    <span class="font-medium text-slate-900">{p.member_name}</span>
                                    <span class="block text-xs text-slate-500">{p.member_code} " · " {p.city}</span>
                                    <span class="mt-1 block text-xs text-slate-700 sm:hidden">{room.clone().unwrap_or_else(|| "—".to_string())}</span>
                                    <span class="mt-1 block text-slate-700 sm:hidden">{p.reason.clone()}</span>
                                </td>
                                <td class="hidden py-2 pr-3 align-top text-slate-700 sm:table-cell" data-testid="card-room">
                                    {room.unwrap_or_else(|| "—".to_string())}
                                </td>
                                <td class="hidden py-2 align-top text-slate-700 sm:table-cell">{p.reason}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

#[component]
fn FieldRows(rows: Vec<CardField>) -> impl IntoView {
    view! {
        <dl class="mt-3 grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-4 gap-y-1 text-sm">
            {rows.into_iter().map(|r| view! {
                <dt class="text-slate-500">{r.label}</dt>
                <dd class="whitespace-pre-wrap text-slate-900">{r.value}</dd>
            }).collect_view()}
        </dl>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(room: Option<&str>, capacity: Option<i32>, configuration: Option<&str>) -> CardPick {
        CardPick {
            tier: "recommended".into(),
            member_code: "M-0001".into(),
            member_name: "Le Belvédère".into(),
            city: "Paris".into(),
            room_name: room.map(str::to_string),
            capacity,
            configuration: configuration.map(str::to_string),
            reason: "Vue sur les toits".into(),
        }
    }

    #[test]
    fn the_pinned_room_says_its_capacity_in_the_configuration() {
        let line = room_line(&pick(Some("Terrasse"), Some(120), Some("cocktail"))).unwrap();
        assert!(line.starts_with("Terrasse · 120 places "), "{line}");
        assert!(line.contains("cocktail"), "{line}");
        assert_eq!(
            room_line(&pick(Some("Terrasse"), None, Some("cocktail"))).as_deref(),
            Some("Terrasse")
        );
        assert_eq!(room_line(&pick(None, Some(120), None)), None);
    }

    fn decided(status: &str, detail: &str) -> CardStatus {
        CardStatus::Decided {
            status: status.into(),
            detail: detail.into(),
            decided_by: Some("Camille".into()),
        }
    }

    /// The card as the server renders it, with `status`.
    fn rendered(status: CardStatus) -> String {
        let card = ApprovalCard {
            approval_id: 9,
            tool_name: "save_memory".into(),
            title: "Retenir dans votre mémoire".into(),
            expires_at: "2099-12-01T14:00:00Z".into(),
            arguments_hash: "ab12".into(),
            body: CardBody::Fields {
                rows: vec![CardField {
                    label: "À retenir".into(),
                    value: "Le Pavillon ferme en août".into(),
                }],
            },
            read_before: vec![
                "Lecture de la demande".into(),
                "Lecture des e-mails de la demande".into(),
            ],
            after_emails: true,
        };
        let owner = Owner::new();
        owner.with(|| {
            let timeline = RwSignal::new(Timeline::default());
            let follower = Follower::new(7, timeline, RwSignal::new(0), RwSignal::new(None));
            let status = Signal::stored(status);
            view! { <CardView card status timeline follower /> }.to_html()
        })
    }

    #[test]
    fn a_failed_card_says_why_and_offers_to_try_again() {
        let html = rendered(decided(
            "failed",
            "La base de données était momentanément indisponible. Rien n'a été enregistré ; \
             « Réessayer » relance la même action.",
        ));
        assert!(html.contains("Échec"), "{html}");
        assert!(
            html.contains("Rien n&#x27;a été enregistré")
                || html.contains("Rien n'a été enregistré"),
            "{html}"
        );
        assert!(html.contains("data-testid=\"retry-button\""), "{html}");
        assert!(html.contains(">Réessayer<"), "{html}");
        assert!(!html.contains("approve-button"), "{html}");
        // No key of ours in the text people read (the status key is only
        // the `data-status` attribute).
        let text = html.replace("data-status=\"failed\"", "");
        assert!(!text.contains("failed"), "{html}");
        assert!(!text.contains("save_memory"), "{html}");
    }

    #[test]
    fn a_card_says_what_was_read_before_it_and_warns_after_emails() {
        let html = rendered(CardStatus::Pending);
        assert!(html.contains("data-testid=\"card-sources\""), "{html}");
        assert!(
            html.contains("Lecture de la demande · Lecture des e-mails de la demande"),
            "{html}"
        );
        assert!(html.contains("data-testid=\"card-after-emails\""), "{html}");
        assert!(html.contains("suit la lecture d"), "{html}");
    }

    #[test]
    fn only_a_waiting_or_failed_card_can_be_approved() {
        assert!(can_approve(&CardStatus::Pending));
        assert!(can_approve(&decided("failed", "x")));
        for done in ["executed", "rejected", "expired"] {
            assert!(!can_approve(&decided(done, "x")), "{done}");
            let html = rendered(decided(done, "Fait."));
            assert!(!html.contains("retry-button"), "{done}: {html}");
            assert!(!html.contains("approve-button"), "{done}: {html}");
        }
        let html = rendered(CardStatus::Pending);
        assert!(
            html.contains("approve-button") && !html.contains("retry-button"),
            "{html}"
        );
    }

    #[test]
    fn tiers_are_named_in_french() {
        assert_eq!(tier_label("recommended"), "Recommandé");
        assert_eq!(tier_label("compatible"), "Compatible");
    }
}
