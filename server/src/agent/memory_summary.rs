//! The conversation summariser: durable facts a team member states in a
//! conversation become memories (origin `summary`, the conversation set)
//! or reminders, every [`SummarySettings::every_user_messages`] user
//! messages and once the conversation has been idle for
//! [`SummarySettings::idle`] (a sweep, like the approvals' expiry).
//!
//! Only the user's own messages are read, never tool results: third-party
//! text (e-mails, venue texts) must not become memory. With a model
//! configured, [`model::extract`] asks it (`Task::Summarize`, strict JSON,
//! one retry); offline or when it fails, [`extract::extract`] keeps the
//! explicit statements (« retiens que … », « rappelle-moi … »).
//!
//! Never the same fact twice: a pass covers the messages after the last
//! one a previous pass covered (its `until_seq`, in the audit log), runs
//! under a lease per conversation (two servers never summarise the same
//! conversation at once), and skips a fact whose content this
//! conversation already gave (or a reminder the user already has).
//!
//! The same sweep prunes the record of memory searches past
//! [`SummarySettings::keep_searches_days`] (the memory's one periodic task:
//! no second scheduler for a housekeeping statement).
pub mod extract;
pub mod model;

use crate::audit::{self, Actor, Event};
use crate::db::llm_calls::CallContext;
use crate::db::memory_summaries as rows;
use crate::llm::{Block, LlmProvider, OfflineLlm, Recording};
use crate::memory::{MemoryError, MemoryOrigin, MemoryStore, NewMemory, NewTask};
use chrono::Utc;
use extract::Fact;
use sqlx::PgPool;
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

/// How long a pass may hold its conversation: longer than the longest pass
/// (the model's two attempts of at most 20 s each, then one embedding per
/// fact).
const LEASE: Duration = Duration::from_secs(5 * 60);

/// When the summariser runs.
#[derive(Clone, Debug)]
pub struct SummarySettings {
    /// A pass after this many new user messages (seed: every N messages).
    pub every_user_messages: i64,
    /// A pass once a conversation has been quiet this long.
    pub idle: Duration,
    /// Conversations quiet for longer than this are left alone (they were
    /// summarised when they went idle, or predate the summariser).
    pub horizon: Duration,
    /// How often the idle sweep looks.
    pub sweep_every: Duration,
    /// How long the record of memory searches (`memory_searches`: the
    /// page's 30-day chart, the floor's recalibration) is kept; the sweep
    /// prunes older rows.
    pub keep_searches_days: i32,
}

impl Default for SummarySettings {
    fn default() -> Self {
        SummarySettings {
            every_user_messages: 10,
            idle: Duration::from_secs(30 * 60),
            horizon: Duration::from_secs(7 * 24 * 3600),
            sweep_every: Duration::from_secs(5 * 60),
            keep_searches_days: 90,
        }
    }
}

/// User messages one pass reads at most (the next pass reads the rest).
const READ_AT_MOST: i64 = 200;
/// Conversations one sweep summarises at most.
const SWEEP_AT_MOST: i64 = 50;
/// Search records one prune statement looks at, and statements per sweep:
/// a backlog goes down 50,000 rows per sweep without one long statement.
const PRUNE_WINDOW: u32 = 5_000;
const PRUNE_ROUNDS: usize = 10;

/// What one pass did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pass {
    pub memories: usize,
    pub reminders: usize,
    /// The last message seq covered.
    pub until_seq: i32,
    /// `model` or `extractor`.
    pub by: &'static str,
}

#[derive(Debug, thiserror::Error)]
pub enum SummaryError {
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    #[error("memory store: {0}")]
    Store(MemoryError),
}

pub struct Summariser {
    pub db: PgPool,
    pub store: Arc<MemoryStore>,
    /// `None`: offline, the extractor only.
    pub model: Option<Arc<dyn LlmProvider>>,
    pub settings: SummarySettings,
}

impl Summariser {
    /// `llm` is the configured model; the offline planner means no model.
    pub fn new(
        db: PgPool,
        store: Arc<MemoryStore>,
        llm: Arc<dyn LlmProvider>,
        settings: SummarySettings,
    ) -> Self {
        let model = (llm.name() != OfflineLlm.name()).then_some(llm);
        Summariser {
            db,
            store,
            model,
            settings,
        }
    }

    /// After a chat turn: a pass when enough user messages came since the
    /// last one.
    pub async fn after_turn(&self, conversation_id: i64) -> Result<Option<Pass>, SummaryError> {
        let since = rows::watermark(&self.db, conversation_id).await?;
        let new = rows::user_messages_since(&self.db, conversation_id, since).await?;
        if new < self.settings.every_user_messages {
            return Ok(None);
        }
        self.summarise(conversation_id).await
    }

    /// One pass over the idle conversations; how many were summarised.
    pub async fn sweep(&self) -> Result<usize, SummaryError> {
        let idle = rows::idle_unsummarised(
            &self.db,
            self.settings.idle.as_secs_f64(),
            self.settings.horizon.as_secs_f64(),
            SWEEP_AT_MOST,
        )
        .await?;
        let mut done = 0;
        for conversation_id in idle {
            match self.summarise(conversation_id).await {
                Ok(Some(_)) => done += 1,
                Ok(None) => {}
                Err(e) => {
                    tracing::warn!(conversation_id, error = %e, "memory summary of an idle conversation failed");
                }
            }
        }
        Ok(done)
    }

    /// Deletes the memory-search records older than
    /// [`SummarySettings::keep_searches_days`]; how many went. Run by the
    /// same sweep (any number of servers may: a row deleted twice is not).
    pub async fn prune_searches(&self) -> Result<u64, SummaryError> {
        let mut pruned = 0;
        for _ in 0..PRUNE_ROUNDS {
            let n = crate::db::memory_searches::prune_oldest(
                &self.db,
                self.settings.keep_searches_days,
                i64::from(PRUNE_WINDOW),
            )
            .await?;
            pruned += n;
            if n < u64::from(PRUNE_WINDOW) {
                break;
            }
        }
        Ok(pruned)
    }

    /// Summarises what came since the last pass; `None` when nothing new
    /// (or another server is at it).
    ///
    /// The conversation's turn is a lease ([`LEASE`], migration 0033),
    /// taken and given back by short statements: no connection is held
    /// while the model reads the conversation or the facts are embedded
    /// (passes start at the end of turns, one per busy conversation, and
    /// held connections would starve every other request). A pass that
    /// dies leaves its lease to expire; a pass that overran it and was
    /// taken over still writes no fact twice (`known_contents`).
    pub async fn summarise(&self, conversation_id: i64) -> Result<Option<Pass>, SummaryError> {
        let Some(until) = rows::take_lease(&self.db, conversation_id, LEASE.as_secs_f64()).await?
        else {
            return Ok(None);
        };
        let pass = self.summarise_locked(conversation_id).await;
        if let Err(e) = rows::end_lease(&self.db, conversation_id, until).await {
            // It expires on its own: the next pass waits at most that long.
            tracing::warn!(conversation_id, error = %e, "cannot give back a memory summary lease");
        }
        pass
    }

    async fn summarise_locked(&self, conversation_id: i64) -> Result<Option<Pass>, SummaryError> {
        let Some((user_id, last_seq)) = rows::conversation(&self.db, conversation_id).await? else {
            return Ok(None);
        };
        let since = rows::watermark(&self.db, conversation_id).await?;
        if last_seq <= since {
            return Ok(None);
        }
        let read =
            rows::user_messages_after(&self.db, conversation_id, since, READ_AT_MOST).await?;
        let until_seq = match read.last() {
            Some((seq, _)) if read.len() as i64 == READ_AT_MOST => *seq,
            _ => last_seq,
        };
        let texts: Vec<String> = read.iter().filter_map(|(_, c)| user_text(&c.0)).collect();
        let (facts, by) = self.facts(user_id, conversation_id, &texts).await;
        let (memories, reminders) = self.write(user_id, conversation_id, facts).await?;
        let pass = Pass {
            memories,
            reminders,
            until_seq,
            by,
        };
        audit::record(
            &self.db,
            Event::new(Actor::System, rows::ACTION)
                .on("ai_conversation", conversation_id)
                .details(serde_json::json!({
                    "until_seq": until_seq,
                    "memories": memories,
                    "reminders": reminders,
                    "by": by,
                })),
        )
        .await;
        if memories + reminders > 0 {
            tracing::info!(
                conversation_id,
                memories,
                reminders,
                by,
                "conversation summarised into memory"
            );
        }
        Ok(Some(pass))
    }

    /// The facts of `texts`: the model's when it answers the contract,
    /// the extractor's otherwise.
    async fn facts(
        &self,
        user_id: i64,
        conversation_id: i64,
        texts: &[String],
    ) -> (Vec<Fact>, &'static str) {
        let now = Utc::now();
        if let (Some(model), false) = (&self.model, texts.is_empty()) {
            let recording = Recording::new(
                model.clone(),
                self.db.clone(),
                CallContext {
                    user_id: Some(user_id),
                    request_id: None,
                    conversation_id: Some(conversation_id),
                    search_run_id: None,
                },
            );
            if let Some(facts) = model::extract(&recording, texts, now).await {
                return (facts, "model");
            }
        }
        let facts = texts
            .iter()
            .flat_map(|t| extract::extract(t, now))
            .collect();
        (facts, "extractor")
    }

    /// Writes the facts not written before; (memories, reminders) written.
    async fn write(
        &self,
        user_id: i64,
        conversation_id: i64,
        facts: Vec<Fact>,
    ) -> Result<(usize, usize), SummaryError> {
        let mut known: HashSet<String> = rows::known_contents(&self.db, user_id, conversation_id)
            .await?
            .iter()
            .map(|c| normalised(c))
            .collect();
        let (mut memories, mut reminders) = (0, 0);
        for fact in facts {
            let written = match fact {
                Fact::Memory { content } => {
                    if !known.insert(normalised(&content)) {
                        continue;
                    }
                    let new = NewMemory {
                        title: String::new(),
                        content,
                        origin: MemoryOrigin::Summary,
                        conversation_id: Some(conversation_id),
                    };
                    self.store
                        .save_memory(user_id, new)
                        .await
                        .map(|_| &mut memories)
                }
                Fact::Reminder { title, due } => {
                    if rows::reminder_exists(&self.db, user_id, &title, Some(due)).await? {
                        continue;
                    }
                    let new = NewTask {
                        title,
                        description: String::new(),
                        due_at: Some(due),
                        recurrence: None,
                        request_id: None,
                    };
                    self.store
                        .create_task(user_id, new)
                        .await
                        .map(|_| &mut reminders)
                }
            };
            match written {
                Ok(count) => *count += 1,
                // A fact the store refuses is skipped; the others are kept.
                Err(
                    e @ (MemoryError::Empty(_)
                    | MemoryError::TooLong { .. }
                    | MemoryError::InvalidRecurrence(_)),
                ) => tracing::warn!(conversation_id, error = %e, "a summarised fact was refused"),
                // Anything else stops the pass before its mark: the next
                // pass retries (already written facts are skipped then).
                Err(e) => return Err(SummaryError::Store(e)),
            }
        }
        Ok((memories, reminders))
    }
}

/// The text a user typed in a message (its text blocks).
fn user_text(blocks: &[Block]) -> Option<String> {
    let text = blocks
        .iter()
        .filter_map(|b| match b {
            Block::Text { text } => Some(text.trim()),
            _ => None,
        })
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    (!text.is_empty()).then_some(text)
}

/// For deduplication: case, spacing and a final stop do not make a new fact.
fn normalised(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end_matches(['.', '!'])
        .to_lowercase()
}

/// [`Summariser::sweep`] then [`Summariser::prune_searches`] every
/// `sweep_every`, for the server's lifetime.
pub async fn sweep_forever(summariser: Arc<Summariser>) {
    let mut every = tokio::time::interval(summariser.settings.sweep_every);
    loop {
        every.tick().await;
        match summariser.sweep().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(
                conversations = n,
                "idle conversations summarised into memory"
            ),
            Err(e) => tracing::warn!(error = %e, "cannot sweep idle conversations for memory"),
        }
        match summariser.prune_searches().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(searches = n, "old memory-search records pruned"),
            Err(e) => tracing::warn!(error = %e, "cannot prune the memory-search records"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dedup_ignores_case_spacing_and_stop() {
        assert_eq!(
            normalised("Le Pavillon  ferme le dimanche."),
            normalised("le pavillon ferme le dimanche")
        );
    }

    #[test]
    fn only_text_blocks_are_read() {
        let blocks = vec![
            Block::Text {
                text: " retiens que X ".into(),
            },
            Block::ToolResult {
                tool_use_id: "t".into(),
                content: "retiens que Y".into(),
                is_error: false,
            },
        ];
        assert_eq!(user_text(&blocks).as_deref(), Some("retiens que X"));
        assert_eq!(user_text(&[]), None);
    }
}
