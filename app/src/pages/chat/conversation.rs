//! One conversation: its header (cost, « mode hors-ligne »), its timeline
//! and the input. Rendered whole by the server (readable without
//! JavaScript); in the browser it follows the running turn live.
use super::card::CardView;
use super::composer::Composer;
use super::markdown;
use super::stream::Follower;
use super::timeline::{euros, CardStatus, Entry, Timeline};
use crate::chat::{ConversationLog, SentMessage};
use crate::external_text::for_people;
use leptos::prelude::*;

#[component]
pub fn ConversationView(log: ConversationLog, refresh: RwSignal<u32>) -> impl IntoView {
    let conversation = log.conversation.clone();
    let id = conversation.id;
    let timeline = RwSignal::new(Timeline::from_log(&log));
    let problem = RwSignal::new(None::<String>);
    let follower = Follower::new(id, timeline, refresh, problem);
    let running = Memo::new(move |_| timeline.with(|t| t.running));
    // Browser only (effects never run on the server): follow while a turn
    // runs — at load, and again after each message sent.
    Effect::new(move |_| {
        if running.get() {
            follower.follow();
        }
    });
    // Browser only: a tick a second while a turn runs; five without any
    // change and the page says the model is silent (stall.rs).
    let stalled = RwSignal::new(false);
    #[cfg(feature = "hydrate")]
    {
        let silence = StoredValue::new(super::stall::Silence::default());
        if let Ok(ticker) = set_interval_with_handle(
            move || {
                let now = timeline.with_untracked(|t| {
                    let mut s = silence.get_value();
                    let now = s.tick(t);
                    silence.set_value(s);
                    now
                });
                if stalled.get_untracked() != now {
                    stalled.set(now);
                }
            },
            std::time::Duration::from_secs(1),
        ) {
            on_cleanup(move || ticker.clear());
        }
    }
    let stop = Action::new(move |_: &()| async move {
        if let Err(e) = crate::chat::stop_turn(id).await {
            problem.set(Some(e.to_string()));
        }
    });
    let on_sent = Callback::new(move |sent: SentMessage| {
        timeline.update(|t| t.sent(sent.seq));
        refresh.update(|n| *n += 1);
    });
    let count = move || timeline.with(|t| t.entries.len());
    let end = NodeRef::<leptos::html::Div>::new();
    // Browser only: show the end of the conversation when it opens, then
    // keep the newest text in view while the reader stays near the bottom
    // (someone who scrolled up to read is left alone).
    Effect::new(move |opened: Option<()>| {
        timeline.track();
        #[cfg(feature = "hydrate")]
        if let Some(end) = end.get_untracked() {
            if opened.is_none() || near_bottom() {
                end.scroll_into_view_with_bool(false);
            }
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = (opened, end);
    });
    view! {
        <div class="flex flex-wrap items-baseline justify-between gap-3 border-b border-slate-200 pb-3">
            <div>
                <h2 class="text-lg font-medium text-slate-900" data-testid="conversation-title">{for_people(&conversation.title)}</h2>
                {conversation.request_id.map(|r| {
                    let named = conversation.request_reference.clone().map_or_else(
                        || "cette demande".to_string(),
                        |reference| format!("la demande {reference}"),
                    );
                    view! {
                        <p class="text-xs text-slate-500" data-testid="conversation-request">
                            "À propos de "
                            <a class="font-medium text-indigo-700 hover:underline" href=format!("/demandes/{r}")>{named}</a>
                        </p>
                    }
                })}
            </div>
            <div class="flex items-center gap-2 text-sm">
                <Show when=move || timeline.with(|t| t.offline)>
                    <span data-testid="offline-badge" title="Maxy répond sans modèle distant, avec son planificateur déterministe."
                        class="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800">"mode hors-ligne"</span>
                </Show>
                // Only what a model billed: the offline planner costs nothing,
                // and « 0,00 € » under every answer says nothing.
                {move || billed(timeline.with(|t| t.cost_eur)).map(|cost| view! {
                    <span data-testid="chat-cost" title="Coût des appels au modèle pour cette conversation" class="text-slate-500">
                        {cost}
                    </span>
                })}
            </div>
        </div>
        {move || timeline.with(|t| t.playbook.clone()).map(|p| view! { <PlaybookBanner progress=p /> })}
        <div class="mt-4 space-y-3" data-testid="chat-timeline" aria-live="polite">
            <For each=move || 0..count() key=|index| *index let:index>
                <EntryView index timeline follower />
            </For>
            <Show when=move || running.get()>
                <p role="status" data-testid="chat-running" class="text-xs text-slate-400">"Maxy rédige…"</p>
            </Show>
            <Show when=move || stalled.get() && running.get()>
                <div role="status" data-testid="chat-stalled"
                    class="flex flex-wrap items-center gap-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
                    <span>"Le modèle ne répond pas…"</span>
                    <button type="button" data-testid="chat-stalled-stop"
                        class="rounded-md border border-amber-300 bg-white px-3 py-1 text-sm font-medium text-amber-900 hover:bg-amber-100 disabled:opacity-50"
                        disabled=move || stop.pending().get()
                        on:click=move |_| {
                            stop.dispatch(());
                        }>"Arrêter la réponse"</button>
                </div>
            </Show>
        </div>
        {move || problem.get().map(|p| view! {
            <p role="alert" class="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">{p}</p>
        })}
        <Composer conversation_id=Some(id) request_id=None running=running on_sent placeholder=None />
        <div node_ref=end aria-hidden="true"></div>
    }
}

/// What a model billed, in euros; `None` when nothing was (the offline
/// planner, or a turn that made no paid call).
pub fn billed(cost_eur: f64) -> Option<String> {
    (cost_eur.is_finite() && cost_eur >= 0.005).then(|| euros(cost_eur))
}

/// Whether the window shows (almost) the bottom of the page.
#[cfg(feature = "hydrate")]
fn near_bottom() -> bool {
    let window = window();
    let height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let scrolled = window.scroll_y().unwrap_or(0.0);
    let page = document()
        .document_element()
        .map(|e| f64::from(e.scroll_height()))
        .unwrap_or(0.0);
    page - (scrolled + height) < 400.0
}

/// One entry: its kind never changes, only its text or its card's status.
#[component]
fn EntryView(index: usize, timeline: RwSignal<Timeline>, follower: Follower) -> impl IntoView {
    let entry = Memo::new(move |_| timeline.with(|t| t.entries.get(index).cloned()));
    match entry.get_untracked() {
        Some(Entry::User { text, author }) => view! {
            <div class="flex justify-end">
                <div class="max-w-[80%] rounded-2xl rounded-br-sm bg-indigo-600 px-4 py-2 text-sm text-white" data-testid="message-user">
                    <p class="whitespace-pre-wrap">{text}</p>
                    <p class="mt-1 text-right text-xs text-indigo-200">{author}</p>
                </div>
            </div>
        }
        .into_any(),
        Some(Entry::Assistant { .. }) => {
            let text = move || {
                entry.with(|e| match e {
                    Some(Entry::Assistant { text, .. }) => text.clone(),
                    _ => String::new(),
                })
            };
            let interrupted = move || {
                entry.with(|e| matches!(e, Some(Entry::Assistant { interrupted: true, .. })))
            };
            view! {
                <div class="max-w-[85%] space-y-2 rounded-2xl rounded-bl-sm border border-slate-200 bg-white px-4 py-2 text-sm text-slate-800" data-testid="message-assistant"
                    data-interrupted=move || interrupted().then_some("true")>
                    {move || markdown::render(&text())}
                    <Show when=interrupted>
                        <p data-testid="answer-interrupted" class="text-xs font-medium text-amber-700">"Réponse interrompue"</p>
                    </Show>
                </div>
            }
            .into_any()
        }
        Some(Entry::Tool { .. }) => {
            let line = move || {
                entry.with(|e| match e {
                    Some(Entry::Tool {
                        label,
                        summary,
                        is_error,
                        ..
                    }) => (label.clone(), summary.clone(), *is_error),
                    _ => (String::new(), None, false),
                })
            };
            view! {
                <p data-testid="tool-activity"
                    data-state=move || match line() { (_, None, _) => "running", (_, _, true) => "error", _ => "done" }
                    class=move || if line().2 { "flex items-center gap-2 text-xs text-red-700" } else { "flex items-center gap-2 text-xs text-slate-500" }>
                    <span aria-hidden="true" class="h-1.5 w-1.5 shrink-0 rounded-full bg-current"></span>
                    {move || {
                        let (label, summary, _) = line();
                        match summary {
                            Some(summary) => view! { <span title=label>{summary}</span> }.into_any(),
                            None => view! { <span>{label}</span> }.into_any(),
                        }
                    }}
                </p>
            }
            .into_any()
        }
        Some(Entry::Approval { card, .. }) => {
            let status = Signal::derive(move || {
                entry.with(|e| match e {
                    Some(Entry::Approval { status, .. }) => status.clone(),
                    _ => CardStatus::Pending,
                })
            });
            view! { <CardView card status timeline follower /> }.into_any()
        }
        Some(Entry::Notice { text }) => view! {
            <p role="status" data-testid="notice" class="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{text}</p>
        }
        .into_any(),
        Some(Entry::Playbook { text }) => view! {
            <p role="status" data-testid="playbook-line" class="rounded-md bg-indigo-50 px-3 py-2 text-sm text-indigo-900">{text}</p>
        }
        .into_any(),
        Some(Entry::TurnEnd { status, cost_eur }) => {
            let said = match status.as_str() {
                "stopped" => Some("Réponse arrêtée."),
                "failed" => Some("La réponse a échoué."),
                _ => None,
            };
            view! {
                <p data-testid="turn-end" data-status=status class="text-right text-xs text-slate-400">
                    {said.map(|s| view! { <span class="mr-2 text-slate-600">{s}</span> })}
                    {billed(cost_eur)}
                </p>
            }
            .into_any()
        }
        None => ().into_any(),
    }
}

/// The open playbook and where it stands (« étape 2 sur 4 »).
#[component]
fn PlaybookBanner(progress: crate::chat::PlaybookProgress) -> impl IntoView {
    view! {
        <div role="status" data-testid="playbook-banner"
            class="mt-3 rounded-lg border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm text-indigo-900">
            <p class="font-medium">"Parcours : " {progress.title}</p>
            <p class="text-indigo-800" data-testid="playbook-progress">
                {format!("Étapes faites : {} sur {}", progress.done, progress.steps)}
                {progress.next.map(|n| format!(" · prochaine : {n}"))}
            </p>
            <p class="text-xs text-indigo-700">{progress.goal}</p>
        </div>
    }
}

#[cfg(all(test, feature = "ssr"))]
mod tests;
