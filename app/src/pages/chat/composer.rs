//! The message input: Enter sends, Shift+Enter goes to a new line; a
//! counter refuses messages over [`MAX_MESSAGE_CHARS`]; « Arrêter » stops a
//! running turn.
use crate::chat::{send_message, stop_turn, SentMessage, MAX_MESSAGE_CHARS};
use leptos::prelude::*;

/// Why a message cannot be sent as it is, if it cannot.
pub fn refusal(text: &str) -> Option<String> {
    let count = text.chars().count();
    if text.trim().is_empty() {
        Some("Écrivez un message.".into())
    } else if count > MAX_MESSAGE_CHARS {
        Some(format!(
            "Message trop long : {} caractères sur {} au plus.",
            thousands(count),
            thousands(MAX_MESSAGE_CHARS)
        ))
    } else {
        None
    }
}

/// A count the French way: « 20 000 » (narrow no-break space).
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    out
}

#[component]
pub fn Composer(
    /// `None`: the first message creates the conversation.
    conversation_id: Option<i64>,
    /// The request a new conversation is about.
    request_id: Option<i64>,
    /// A turn runs: the input waits, « Arrêter » shows.
    #[prop(into)]
    running: Signal<bool>,
    on_sent: Callback<SentMessage>,
    /// Instead of the general hint.
    placeholder: Option<String>,
) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let input = NodeRef::<leptos::html::Textarea>::new();
    // The box keeps the focus: on load (the `autofocus` attribute, and this
    // for a page reached by a link, where browsers ignore it) and after each
    // message sent, so the next one is typed without reaching for the mouse.
    let focus_input = move || {
        if let Some(input) = input.get_untracked() {
            let _ = input.focus();
        }
    };
    Effect::new(move |_| {
        if input.get().is_some() {
            focus_input();
        }
    });
    let send = Action::new(move |message: &String| {
        let message = message.clone();
        async move {
            match send_message(conversation_id, request_id, message).await {
                Ok(sent) => {
                    text.set(String::new());
                    on_sent.run(sent);
                    focus_input();
                }
                Err(e) => error.set(Some(e.to_string())),
            }
        }
    });
    let stop = Action::new(move |_: &()| async move {
        if let Some(id) = conversation_id {
            if let Err(e) = stop_turn(id).await {
                error.set(Some(e.to_string()));
            }
        }
    });
    let sending = send.pending();
    let count = Memo::new(move |_| text.with(|t| t.chars().count()));
    let too_long = move || count.get() > MAX_MESSAGE_CHARS;
    let blocked = move || running.get() || sending.get();
    let submit = move || {
        if blocked() {
            return;
        }
        let message = text.get_untracked();
        match refusal(&message) {
            Some(why) => error.set(Some(why)),
            None => {
                error.set(None);
                send.dispatch(message);
            }
        }
    };
    let placeholder = placeholder.unwrap_or_else(|| {
        "Écrivez à Maxy… (Entrée pour envoyer, Maj+Entrée pour un retour à la ligne)".into()
    });
    view! {
        // Without JavaScript the form posts to the server function itself,
        // which answers with a redirect back here (the turn runs on the
        // server; a reload shows it). With it, the page sends and follows.
        <form method="post" action="/api/chat/send" class="mt-4 rounded-xl border border-slate-200 bg-white p-3" data-testid="chat-form"
            on:submit=move |ev| {
                ev.prevent_default();
                submit();
            }>
            {conversation_id.map(|id| view! { <input type="hidden" name="conversation_id" value=id.to_string() /> })}
            {request_id.map(|id| view! { <input type="hidden" name="request_id" value=id.to_string() /> })}
            <label for="chat-input" class="sr-only">"Message"</label>
            // Never disabled (a disabled box loses the focus): while a turn
            // runs the next message can be written, and only sending waits.
            <textarea id="chat-input" name="text" rows="3" data-testid="chat-input" autofocus
                node_ref=input
                class="block w-full resize-y rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500 read-only:bg-slate-50"
                placeholder=placeholder
                readonly=move || sending.get()
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
                on:keydown=move |ev| {
                    if ev.key() == "Enter" && !ev.shift_key() && !ev.is_composing() {
                        ev.prevent_default();
                        submit();
                    }
                }></textarea>
            <div class="mt-2 flex flex-wrap items-center justify-between gap-2">
                <span data-testid="chat-counter"
                    class=move || if too_long() { "text-xs font-medium text-red-700" } else { "text-xs text-slate-400" }>
                    {move || format!("{} / {}", thousands(count.get()), thousands(MAX_MESSAGE_CHARS))}
                </span>
                <div class="flex gap-2">
                    <Show when=move || running.get() && conversation_id.is_some()>
                        <button type="button" data-testid="chat-stop"
                            class="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50"
                            disabled=move || stop.pending().get()
                            on:click=move |_| {
                                stop.dispatch(());
                            }>"Arrêter"</button>
                    </Show>
                    <button type="submit" data-testid="chat-send"
                        class="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
                        disabled=move || blocked() || too_long()>
                        {move || if sending.get() { "Envoi…" } else { "Envoyer" }}
                    </button>
                </div>
            </div>
            {move || error.get().map(|e| view! {
                <p role="alert" data-testid="chat-error" class="mt-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">{e}</p>
            })}
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_overlong_messages_are_refused_with_a_reason() {
        assert_eq!(refusal(""), Some("Écrivez un message.".into()));
        assert_eq!(refusal(" \n\t "), Some("Écrivez un message.".into()));
        assert_eq!(refusal("Bonjour"), None);
        // Characters, not bytes: 10 000 « é » (20 000 bytes) fit.
        assert_eq!(refusal(&"é".repeat(MAX_MESSAGE_CHARS)), None);
        let over = refusal(&"a".repeat(MAX_MESSAGE_CHARS + 1)).unwrap();
        assert!(over.contains("10\u{202f}001"), "{over}");
        assert!(over.contains("10\u{202f}000"), "{over}");
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1\u{202f}000");
        assert_eq!(thousands(1_234_567), "1\u{202f}234\u{202f}567");
    }
}
