//! « Chat »: the team's conversations with Maxy. `/chat` starts a new one
//! (`/chat?request=<id>`: about that request), `/chat/:id` shows one.
//!
//! The server renders the conversation whole from its log, so it reads
//! without JavaScript; once hydrated, the page follows a running turn live
//! and sends messages and decisions through the chat's server functions.
mod card;
mod composer;
mod conversation;
mod markdown;
mod sidebar;
mod stall;
mod stream;
mod timeline;

use crate::chat::{list_conversations, load_conversation, SentMessage};
use composer::Composer;
use conversation::ConversationView;
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};
use serde::{Deserialize, Serialize};
use sidebar::Sidebar;

use super::PageHeader;

#[component]
pub fn ChatPage() -> impl IntoView {
    // Read once on the server: every page is a full load in islands mode.
    let params = use_params_map();
    let query = use_query_map();
    let opened = match params.read_untracked().get("id") {
        None => Opened::New,
        Some(id) => id
            .parse::<i64>()
            .map_or(Opened::Unknown, Opened::Conversation),
    };
    let request_id = query
        .read_untracked()
        .get("request")
        .and_then(|r| r.trim().parse::<i64>().ok());
    view! {
        <PageHeader title="Chat" subtitle="Discutez avec Maxy ; les modifications proposées attendent votre approbation." />
        <ChatLive opened request_id />
    }
}

/// Which conversation the page shows (an island prop: serialised into the page).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Opened {
    New,
    Conversation(i64),
    /// `/chat/abc`: a 404 message, not the new page.
    Unknown,
}

/// The conversations and the open one: the island that hydrates, follows a
/// running turn live and sends messages and decisions.
#[island]
fn ChatLive(opened: Opened, request_id: Option<i64>) -> impl IntoView {
    let current = Signal::derive(move || match opened {
        Opened::Conversation(id) => Some(id),
        _ => None,
    });
    // Bumped when a message is sent or a turn ends: the list refreshes.
    let refresh = RwSignal::new(0u32);
    let conversations = Resource::new(move || refresh.get(), |_| list_conversations());
    let log = Resource::new(
        move || current.get(),
        |id| async move {
            match id {
                Some(id) => Some(load_conversation(id).await),
                None => None,
            }
        },
    );
    view! {
        <div class="group/chat md:flex md:items-start md:gap-6">
            <Sidebar conversations current />
            <section class="min-w-0 md:flex-1" aria-label="Conversation">
                <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement de la conversation…"</p> }>
                    {move || match opened {
                        Opened::New => Some(view! { <NewConversation request_id refresh /> }.into_any()),
                        Opened::Unknown => Some(not_found().into_any()),
                        Opened::Conversation(_) => log.get().map(|loaded| match loaded {
                            Some(Ok(log)) => view! { <ConversationView log refresh /> }.into_any(),
                            Some(Err(e)) => view! {
                                <p role="alert" class="rounded-md bg-red-50 px-4 py-3 text-sm text-red-700">{e.to_string()}</p>
                            }.into_any(),
                            None => ().into_any(),
                        }),
                    }}
                </Suspense>
            </section>
        </div>
    }
}

fn not_found() -> impl IntoView {
    view! {
        <p role="alert" class="rounded-md bg-red-50 px-4 py-3 text-sm text-red-700">"Cette conversation n'existe pas."</p>
    }
}

/// An empty conversation: the first message creates it, then the page
/// `/chat/{id}` opens and follows the turn from its log (a page load: one
/// conversation view per page keeps its stream, its stall watch and its
/// reloads in step; switching views in place raced them).
#[component]
fn NewConversation(request_id: Option<i64>, refresh: RwSignal<u32>) -> impl IntoView {
    let on_sent = Callback::new(move |sent: SentMessage| {
        refresh.update(|n| *n += 1);
        crate::browser::go_to(&format!("/chat/{}", sent.conversation_id));
    });
    let placeholder = request_id.map(|_| "Qualifie cette demande".to_string());
    view! {
        <div class="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600" data-testid="new-conversation-intro">
            {match request_id {
                Some(r) => view! {
                    <p data-testid="conversation-request">
                        "Nouvelle conversation à propos de "
                        <a class="font-medium text-indigo-700 hover:underline" href=format!("/demandes/{r}")>"cette demande"</a>
                        "."
                    </p>
                    <p class="mt-1 text-slate-500">"Par exemple : « Qualifie cette demande » — Maxy lit la demande, cherche des lieux et propose un catalogue à approuver."</p>
                }.into_any(),
                None => view! {
                    <p>"Demandez à Maxy de chercher des lieux, de lire une demande ou de préparer un catalogue."</p>
                    <p class="mt-1 text-slate-500">"Par exemple : « Trouve un rooftop pour 80 personnes dans le 8e »."</p>
                }.into_any(),
            }}
        </div>
        <Composer conversation_id=None request_id running=false on_sent placeholder />
    }
}
