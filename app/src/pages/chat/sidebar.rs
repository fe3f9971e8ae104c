//! The user's conversations, newest first, each with its pending approvals:
//! a column that folds away, a drawer on phones.
use crate::chat::ConversationSummary;
use crate::errors::AppError;
use leptos::prelude::*;

/// Newest first, then the most recent id. The server writes every time in
/// UTC; only the optional fraction of a second varies in length, so it is
/// compared as a number.
pub fn newest_first(mut list: Vec<ConversationSummary>) -> Vec<ConversationSummary> {
    list.sort_by(|a, b| {
        time_key(&b.updated_at)
            .cmp(&time_key(&a.updated_at))
            .then_with(|| b.id.cmp(&a.id))
    });
    list
}

/// `2026-12-01T08:00:00.5Z` → (`2026-12-01T08:00:00`, 500 000 000 ns).
fn time_key(time: &str) -> (&str, u32) {
    let cut = time.len().min(19);
    if !time.is_char_boundary(cut) {
        return (time, 0);
    }
    let (seconds, rest) = time.split_at(cut);
    let nanos = rest
        .strip_prefix('.')
        .map(|r| {
            let digits: String = r.chars().take_while(char::is_ascii_digit).take(9).collect();
            format!("{digits:0<9}").parse().unwrap_or(0)
        })
        .unwrap_or(0);
    (seconds, nanos)
}

#[component]
pub fn Sidebar(
    conversations: Resource<Result<Vec<ConversationSummary>, AppError>>,
    #[prop(into)] current: Signal<Option<i64>>,
) -> impl IntoView {
    // A checkbox in a label, so it works without JavaScript and by keyboard
    // (Space): below 768 px the list is a drawer it opens, above it a
    // column it folds away to give the conversation the width.
    view! {
        <div class="mb-4 md:mb-0 md:shrink-0">
        <label data-testid="conversations-toggle"
            class="mb-3 inline-flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500">
            <input type="checkbox" id="conversations-toggle" class="sr-only" aria-controls="conversations-list" />
            <span aria-hidden="true">"☰"</span>
            "Vos conversations"
        </label>
        <aside id="conversations-list" data-testid="conversations-list"
            class="hidden space-y-3 group-has-[#conversations-toggle:checked]/chat:block md:block md:w-64 md:group-has-[#conversations-toggle:checked]/chat:hidden"
            aria-label="Conversations">
            <a href="/chat" data-testid="new-conversation"
                class="block rounded-md bg-indigo-600 px-3 py-2 text-center text-sm font-medium text-white hover:bg-indigo-700">
                "Nouvelle conversation"
            </a>
            <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
                {move || conversations.get().map(|result| match result {
                    Ok(list) if list.is_empty() => view! {
                        <p class="px-1 text-sm text-slate-500">"Aucune conversation pour l'instant."</p>
                    }.into_any(),
                    Ok(list) => view! {
                        <ul class="space-y-1">
                            {newest_first(list).into_iter().map(|c| view! { <Line conversation=c current /> }).collect_view()}
                        </ul>
                    }.into_any(),
                    Err(e) => view! {
                        <p role="alert" class="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">{e.to_string()}</p>
                    }.into_any(),
                })}
            </Suspense>
        </aside>
        </div>
    }
}

#[component]
fn Line(conversation: ConversationSummary, current: Signal<Option<i64>>) -> impl IntoView {
    let id = conversation.id;
    // A title is the first message's words: a pasted wrapper tag comes off.
    let title = crate::external_text::for_people(&conversation.title);
    let title = if title.trim().is_empty() {
        "Sans titre".to_string()
    } else {
        title
    };
    let pending = conversation.pending_approvals;
    // The sidebar hydrates with the chat (an island): no router there, so
    // the current line is marked here rather than by a router link.
    let is_current = move || current.get() == Some(id);
    let class = move || {
        if is_current() {
            "flex items-center justify-between gap-2 rounded-md bg-indigo-50 px-3 py-2 text-sm font-medium text-indigo-700"
        } else {
            "flex items-center justify-between gap-2 rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100"
        }
    };
    view! {
        <li>
            <a href=format!("/chat/{id}") data-testid="conversation-link" class=class
                aria-current=move || is_current().then_some("page")>
                <span class="truncate" title=title.clone()>{title.clone()}</span>
                {(pending > 0).then(|| view! {
                    <span data-testid="pending-badge" title="Approbations en attente"
                        class="shrink-0 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-800">
                        {pending}
                    </span>
                })}
            </a>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(id: i64, updated_at: &str) -> ConversationSummary {
        ConversationSummary {
            request_reference: None,
            id,
            title: format!("c{id}"),
            request_id: None,
            updated_at: updated_at.into(),
            pending_approvals: 0,
        }
    }

    #[test]
    fn the_newest_conversation_comes_first() {
        let list = newest_first(vec![
            summary(1, "2026-11-30T09:00:00Z"),
            summary(2, "2026-12-01T08:00:00.5Z"),
            summary(3, "2026-12-01T08:00:00Z"),
            summary(4, "2026-12-01T08:00:00+00:00"),
            summary(5, "2026-12-01T08:00:00.25Z"),
        ]);
        let ids: Vec<i64> = list.iter().map(|c| c.id).collect();
        assert_eq!(ids, [2, 5, 4, 3, 1]);
    }
}
