//! The chat as the pages call it (`app::chat::Assistant`): conversations,
//! messages that start a turn on the server, the stop button, decisions on
//! approval cards. Every method checks that the conversation belongs to the
//! caller; someone else's reads as absent.
use super::stages::Stage;
use super::title;
use super::turn::Agent;
use crate::approvals;
use crate::auth::tokens::SigningKey;
use crate::db::ai_conversations::{self, Conversation};
use crate::db::ai_send::{self, Sent};
use crate::db::{ai_events, ai_turns};
use app::chat::{
    Assistant, ChatEvent, ConversationLog, ConversationSummary, Decision, SentMessage,
    MAX_MESSAGE_CHARS,
};
use app::errors::AppError;
use std::sync::Arc;
use std::time::Duration;

/// Sidebar length.
const LISTED: i64 = 100;
/// Events a page loads at once (a long conversation's log stays far below).
const LOG_LIMIT: i64 = 20_000;

pub struct AssistantService {
    pub agent: Arc<Agent>,
    /// Signs the links an approved write may issue (availability checks).
    pub links: SigningKey,
    /// Display names of message authors.
    pub authors: AuthorNames,
    /// E-mails the venue of an approved availability check, as the
    /// builder's checks do.
    pub outbox: crate::mail::Outbox,
}

/// Display names by user id, each kept [`AUTHOR_TTL`].
#[derive(Debug, Default)]
pub struct AuthorNames {
    names: std::sync::Mutex<std::collections::HashMap<i64, (std::time::Instant, String)>>,
}

const AUTHOR_TTL: Duration = Duration::from_secs(300);

impl AuthorNames {
    fn get(&self, user_id: i64) -> Option<String> {
        let names = self
            .names
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        names
            .get(&user_id)
            .filter(|(at, _)| at.elapsed() < AUTHOR_TTL)
            .map(|(_, name)| name.clone())
    }

    fn put(&self, user_id: i64, name: String) {
        let mut names = self
            .names
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if names.len() > 10_000 {
            names.clear();
        }
        names.insert(user_id, (std::time::Instant::now(), name));
    }
}

impl AssistantService {
    async fn owned(&self, user_id: i64, id: i64) -> Result<Conversation, AppError> {
        ai_conversations::owned(&self.agent.db, user_id, id)
            .await
            .map_err(AppError::unavailable)?
            .ok_or(AppError::NotFound)
    }

    /// The provider a new turn is recorded with.
    fn provider_name(&self) -> &'static str {
        if self.agent.is_offline() {
            "offline"
        } else {
            self.agent.provider.name()
        }
    }

    /// The name shown on a team member's messages, kept a few minutes (a
    /// rename shows on the next messages after that).
    async fn author(&self, user_id: i64) -> Result<String, AppError> {
        if let Some(name) = self.authors.get(user_id) {
            return Ok(name);
        }
        let name = crate::db::users::display_name(&self.agent.db, user_id)
            .await
            .map_err(AppError::unavailable)?
            .unwrap_or_default();
        self.authors.put(user_id, name.clone());
        Ok(name)
    }

    /// Closes turns whose process died, and says so in the log.
    async fn close_stale_turns(&self, conversation_id: i64) -> Result<(), AppError> {
        super::stale::close_stale_turns(&self.agent.db, conversation_id)
            .await
            .map_err(AppError::unavailable)?;
        Ok(())
    }
}

/// The message as stored, or what to fix.
fn checked_text(text: &str) -> Result<String, AppError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(AppError::Invalid(
            "Écrivez un message avant d'envoyer.".into(),
        ));
    }
    let chars = text.chars().count();
    if chars > MAX_MESSAGE_CHARS {
        return Err(AppError::Invalid(format!(
            "Message trop long : {chars} caractères (maximum {MAX_MESSAGE_CHARS}). Raccourcissez-le ou joignez l'essentiel."
        )));
    }
    Ok(text.to_string())
}

#[async_trait::async_trait]
impl Assistant for AssistantService {
    async fn conversations(&self, user_id: i64) -> Result<Vec<ConversationSummary>, AppError> {
        let lines = ai_conversations::list(&self.agent.db, user_id, LISTED)
            .await
            .map_err(AppError::unavailable)?;
        Ok(lines
            .into_iter()
            .map(|l| ConversationSummary {
                id: l.id,
                title: l.title,
                request_id: l.request_id,
                request_reference: None,
                updated_at: l.updated_at.to_rfc3339(),
                pending_approvals: l.pending_approvals,
            })
            .collect())
    }

    async fn conversation(
        &self,
        user_id: i64,
        conversation_id: i64,
    ) -> Result<ConversationLog, AppError> {
        let conversation = self.owned(user_id, conversation_id).await?;
        self.close_stale_turns(conversation_id).await?;
        let db = &self.agent.db;
        // Whether a turn runs is read before the events: a turn's closing
        // writes its last events and its status at once, so a turn seen
        // closed has all its events in the read that follows. Read the
        // other way round, a turn closing in between reads as ended with
        // its last events missing, and the page would not follow it.
        let running = ai_turns::running(db, conversation_id)
            .await
            .map_err(AppError::unavailable)?
            .is_some();
        let events = ai_events::after(db, conversation_id, 0, LOG_LIMIT)
            .await
            .map_err(AppError::unavailable)?;
        let cost_usd = ai_conversations::cost_usd(db, conversation_id)
            .await
            .map_err(AppError::unavailable)?;
        let pending = ai_conversations::pending_approvals(db, conversation_id)
            .await
            .map_err(AppError::unavailable)?;
        // The page names the request by its reference, never by its id.
        let request_reference = match conversation.request_id {
            Some(id) => crate::db::ai_context::request(db, id)
                .await
                .map_err(AppError::unavailable)?
                .map(|r| r.reference),
            None => None,
        };
        Ok(ConversationLog {
            conversation: ConversationSummary {
                id: conversation.id,
                title: conversation.title,
                request_id: conversation.request_id,
                request_reference,
                updated_at: conversation.updated_at.to_rfc3339(),
                pending_approvals: pending,
            },
            events,
            running,
            offline: self.agent.is_offline(),
            cost_eur: cost_usd * self.agent.settings.usd_to_eur,
        })
    }

    async fn send(
        &self,
        user_id: i64,
        conversation_id: Option<i64>,
        request_id: Option<i64>,
        text: String,
    ) -> Result<SentMessage, AppError> {
        let called = std::time::Instant::now();
        let text = checked_text(&text)?;
        let db = &self.agent.db;
        let conversation_id = match conversation_id {
            Some(id) => id,
            None => {
                let title = match request_id {
                    Some(request_id) => {
                        let request = crate::db::ai_context::request(db, request_id)
                            .await
                            .map_err(AppError::unavailable)?
                            .ok_or_else(|| {
                                AppError::Invalid(format!(
                                    "La demande n°{request_id} n'existe pas."
                                ))
                            })?;
                        title::of_request(&request)
                    }
                    None => title::of_message(&text),
                };
                ai_conversations::create(db, user_id, request_id, &title)
                    .await
                    .map_err(AppError::unavailable)?
                    .id
            }
        };
        let author = self.author(user_id).await?;
        let event = ChatEvent::UserMessage {
            text: text.clone(),
            author,
        };
        let provider = self.provider_name();
        // Its turn id is set by the statement that opens the turn.
        let started = self.agent.turn_started(0);
        let known = self.agent.known.get(conversation_id);
        let send = || {
            ai_send::send_user_message(
                db,
                user_id,
                conversation_id,
                provider,
                &text,
                [&event, &started],
                self.agent.turn_window(),
                &known,
            )
        };
        let mut sent = send().await.map_err(AppError::unavailable)?;
        if let Sent::Busy(_) = sent {
            // Stale turns are looked for only when one blocks the new turn: a
            // running turn refuses the message, unless its process died (no
            // heartbeat); that one is closed and the message goes through.
            self.close_stale_turns(conversation_id).await?;
            sent = send().await.map_err(AppError::unavailable)?;
        }
        match sent {
            Sent::NotFound => Err(AppError::NotFound),
            Sent::Busy(_) => Err(AppError::Conflict(
                "Maxy répond encore au message précédent : attendez la fin de sa réponse ou arrêtez-la."
                    .into(),
            )),
            Sent::Opened {
                conversation,
                turn_id,
                seq,
                reads,
            } => {
                crate::agent::stages::begin(conversation_id, called);
                self.agent.known.keep(conversation_id, &reads.messages);
                super::stages::lap(conversation_id, Stage::Send);
                self.agent.live.notify(conversation_id);
                // The send's commit was durable: the message is on disk.
                // The turn's span: its logs carry who and which turn, and an
                // exporter sees model calls and tools inside it.
                let span = tracing::info_span!("chat_turn", user_id, conversation_id, turn_id);
                tokio::spawn(
                    tracing::Instrument::instrument(
                        self.agent.clone().run_turn(conversation, turn_id, *reads),
                        span,
                    ),
                );
                Ok(SentMessage {
                    conversation_id,
                    seq,
                })
            }
        }
    }

    async fn stop(&self, user_id: i64, conversation_id: i64) -> Result<(), AppError> {
        self.owned(user_id, conversation_id).await?;
        ai_turns::request_stop(&self.agent.db, conversation_id)
            .await
            .map_err(AppError::unavailable)?;
        self.agent.live.stop(conversation_id);
        Ok(())
    }

    async fn decide(
        &self,
        user_id: i64,
        approval_id: i64,
        decision: Decision,
    ) -> Result<ChatEvent, AppError> {
        let outcome = approvals::decide_with_mail(
            &self.agent.db,
            &self.links,
            self.agent.memory.as_deref(),
            &self.outbox,
            user_id,
            approval_id,
            decision,
        )
        .await?;
        let event = ChatEvent::ApprovalDecided {
            approval_id: outcome.approval_id,
            status: outcome.status.clone(),
            detail: outcome.detail.clone(),
            decided_by: crate::db::users::display_name(&self.agent.db, user_id)
                .await
                .map_err(AppError::unavailable)?,
        };
        // A failed card is followed by Maxy's next step, in the same write.
        let mut events = vec![event.clone()];
        if let Some(text) = approvals::follow_up::after(&outcome) {
            events.push(ChatEvent::Notice { text });
        }
        ai_events::append(&self.agent.db, outcome.conversation_id, None, &events)
            .await
            .map_err(AppError::unavailable)?;
        self.agent.live.notify(outcome.conversation_id);
        Ok(event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_oversized_messages_are_refused_with_a_reason() {
        assert!(matches!(checked_text("  \n "), Err(AppError::Invalid(_))));
        let long = "a".repeat(MAX_MESSAGE_CHARS + 1);
        let Err(AppError::Invalid(why)) = checked_text(&long) else {
            panic!("accepted");
        };
        assert!(why.contains("trop long"), "{why}");
        assert_eq!(checked_text("  bonjour ").ok().as_deref(), Some("bonjour"));
    }
}
