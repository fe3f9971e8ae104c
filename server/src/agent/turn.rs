//! One turn: the assistant answering a message, round after round — the
//! model streams, its read tool calls run, its write tool calls become
//! approval cards — until it answers without calling a tool.
//!
//! The turn runs on the server (a spawned task), persisting as it goes: the
//! model's messages and the tool results in `ai_messages` (what the model
//! reads next), everything the page shows in the event log. It ends `done`,
//! `stopped` (the stop button: the model call is dropped, which closes its
//! connection) or `failed`.
//!
//! Fallback chain: when the configured model fails after its own retries,
//! the offline planner answers the round instead and the team is told.
use super::cut_summary;
use super::history;
use super::live::Live;
use super::prompt::{self, PromptContext, SimilarCache};
use super::sink::{EventSink, FLUSH_EVERY};
use super::stages::{self, Part, Stage};
use crate::db::ai_context;
use crate::db::ai_conversations::{self, Conversation};
use crate::db::ai_events::{Closing, FinalMessage};
use crate::db::ai_messages;
use crate::db::ai_turns;
use crate::db::llm_calls::CallContext;
use crate::embeddings::EmbeddingProvider;
use crate::llm::{
    ChatAnswer, ChatEvent as ModelEvent, ChatRequest, LlmError, LlmProvider, Recording, Task,
};
use crate::search::SearchService;
use crate::tools::{Mode, ToolContext, Toolbox};
use app::chat::ChatEvent;
use futures_util::StreamExt;
use sqlx::PgPool;
use std::sync::Arc;
use std::time::Duration;

/// The outcome of a turn the server's shutdown interrupted (stored as
/// `failed`, with a notice).
const SHUT_DOWN: &str = "shut_down";

/// How the agent behaves; defaults from seed 000.
#[derive(Clone, Debug)]
pub struct AgentSettings {
    /// Messages of history sent to the model (seed: 30).
    pub max_history: usize,
    /// Model calls in one turn before Maxy stops and says so.
    pub max_rounds: usize,
    pub max_tokens: u32,
    /// How long an approval card can be approved.
    pub approval_ttl: Duration,
    /// The longest a model call may take to START answering.
    pub start_limit: Duration,
    /// The longest one read tool may run.
    pub tool_limit: Duration,
    /// Euros per US dollar, for the costs shown.
    pub usd_to_eur: f64,
    /// When conversations are summarised into memory.
    pub memory_summary: super::memory_summary::SummarySettings,
}

impl Default for AgentSettings {
    fn default() -> Self {
        AgentSettings {
            max_history: 30,
            max_rounds: 8,
            max_tokens: 2048,
            approval_ttl: Duration::from_secs(24 * 3600),
            start_limit: Duration::from_secs(30),
            tool_limit: Duration::from_secs(20),
            usd_to_eur: 0.92,
            memory_summary: Default::default(),
        }
    }
}

/// Everything a turn needs; shared by every turn of the process.
pub struct Agent {
    pub db: PgPool,
    /// The configured model (the offline planner when none is).
    pub provider: Arc<dyn LlmProvider>,
    /// The offline planner: last step of the fallback chain.
    pub offline: Arc<dyn LlmProvider>,
    pub search: Arc<SearchService>,
    pub embedder: Option<Arc<dyn EmbeddingProvider>>,
    pub live: Arc<Live>,
    pub settings: AgentSettings,
    /// Similar requests per request, for the system prompt.
    pub similar: SimilarCache,
    /// The model's summaries of long conversations' cut history.
    pub summaries: super::cut_summary::CutSummaries,
    /// Each conversation's messages as its last send read them: the next
    /// send reads only the newer ones.
    pub known: super::known_history::KnownHistory,
    /// The team's memories: the memory tools and the conversation
    /// summariser (`None`: neither runs).
    pub memory: Option<Arc<crate::memory::MemoryStore>>,
    /// Playbooks: the doors and the open run's rules (`None`: the
    /// assistant chooses freely among its tools).
    pub guide: Option<Arc<crate::playbooks::runtime::Guide>>,
}

#[derive(Debug, thiserror::Error)]
enum TurnError {
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    #[error("{0}")]
    Llm(LlmError),
}

enum RoundError {
    Db(sqlx::Error),
    Llm(LlmError),
}

impl From<sqlx::Error> for RoundError {
    fn from(e: sqlx::Error) -> Self {
        RoundError::Db(e)
    }
}

/// A turn's two recorders: the configured model's and the planner's. Each
/// writes a call's `llm_calls` row (durably) before handing its answer on.
struct Recorders {
    main: Recording,
    offline: Recording,
}

impl Agent {
    /// Whether answers come from the offline planner by configuration.
    pub fn is_offline(&self) -> bool {
        self.provider.name() == self.offline.name()
    }

    /// The event that opens a turn: who answers it (written by the send,
    /// which opens the turn).
    pub fn turn_started(&self, turn_id: i64) -> ChatEvent {
        let offline = self.is_offline();
        ChatEvent::TurnStarted {
            turn_id,
            offline,
            model: if offline {
                "offline-planner".into()
            } else {
                self.provider.model().to_string()
            },
        }
    }

    /// How much a turn reads before its first model call.
    pub fn turn_window(&self) -> ai_context::TurnWindow {
        ai_context::TurnWindow {
            recent: prompt::RECENT,
            messages: u16::try_from(self.settings.max_history).unwrap_or(u16::MAX),
        }
    }

    /// Runs the turn to its end and closes it (or until the server's
    /// shutdown interrupts it: [`super::live::Live::interrupt_turns`]). Never panics the caller:
    /// every failure ends the turn as `failed` with a notice.
    /// `reads` are what the send that opened it read for it.
    pub async fn run_turn(
        self: Arc<Self>,
        conversation: Conversation,
        turn_id: i64,
        reads: ai_context::TurnReads,
    ) {
        stages::lap(conversation.id, Stage::Spawn);
        let mut sink = EventSink::new(self.db.clone(), self.live.clone(), conversation.id, turn_id);
        let context = CallContext {
            user_id: Some(conversation.user_id),
            request_id: conversation.request_id,
            conversation_id: Some(conversation.id),
            search_run_id: None,
        };
        let recorders = Recorders {
            main: Recording::new(self.provider.clone(), self.db.clone(), context),
            offline: Recording::new(self.offline.clone(), self.db.clone(), context),
        };
        let _here = self.live.runs_here(conversation.id);
        let outcome = tokio::select! {
            outcome = self.drive(&conversation, reads, &mut sink, &recorders) => outcome.map(|last| ("done", last)),
            () = self.stop_requested(conversation.id, turn_id) => Ok(("stopped", None)),
            () = self.live.interrupted() => Ok((SHUT_DOWN, None)),
        };
        let (status, error, last) = match outcome {
            Ok((SHUT_DOWN, _)) => {
                // The server is stopping and its grace period is over: the
                // turn ends here, said so, rather than vanish with the process.
                let _ = sink
                    .push(ChatEvent::Notice {
                        text: "La réponse a été interrompue : le serveur redémarre. Renvoyez votre message pour reprendre."
                            .into(),
                    })
                    .await;
                ("failed", Some("the server shut down".to_string()), None)
            }
            Ok((status, last)) => (status, None, last),
            Err(e) => {
                tracing::error!(conversation_id = conversation.id, turn_id, error = %e, "chat turn failed");
                let _ = sink
                    .push(ChatEvent::Notice {
                        text: "Maxy n'a pas pu terminer cette réponse. Réessayez dans un instant."
                            .into(),
                    })
                    .await;
                ("failed", Some(e.to_string()), None)
            }
        };
        let cost_usd: f64 = recorders
            .main
            .calls()
            .iter()
            .chain(recorders.offline.calls().iter())
            .filter_map(|c| c.record.cost_usd)
            .sum();
        let finished = ChatEvent::TurnFinished {
            turn_id,
            status: status.into(),
            cost_eur: cost_usd * self.settings.usd_to_eur,
        };
        let closing = Closing {
            status,
            error: error.as_deref(),
            message: last.as_ref().map(|a| FinalMessage {
                content: &a.content,
                model: &a.model,
            }),
        };
        if let Err(e) = sink.close_turn(finished, closing).await {
            tracing::error!(turn_id, error = %e, "cannot log the end of a chat turn");
            // The answer must not be lost, and the turn must not stay
            // `running`: store and close them without the last events.
            if let Some(a) = &last {
                let stored = ai_messages::append(
                    &self.db,
                    conversation.id,
                    "assistant",
                    &a.content,
                    Some(&a.model),
                )
                .await;
                if let Err(e) = stored {
                    tracing::error!(turn_id, error = %e, "cannot store the last answer of a chat turn");
                }
            }
            if let Err(e) = ai_turns::finish(&self.db, turn_id, status, error.as_deref()).await {
                tracing::error!(turn_id, error = %e, "cannot close a chat turn");
            }
        }
        stages::lap(conversation.id, Stage::Close);
        self.live.notify(conversation.id);
        self.summarise_into_memory(conversation.id).await;
    }

    /// Every N user messages, the conversation's durable facts become
    /// memories (after the turn is closed: nobody waits for it).
    async fn summarise_into_memory(&self, conversation_id: i64) {
        let Some(store) = &self.memory else { return };
        let summariser = super::memory_summary::Summariser::new(
            self.db.clone(),
            store.clone(),
            self.provider.clone(),
            self.settings.memory_summary.clone(),
        );
        if let Err(e) = summariser.after_turn(conversation_id).await {
            tracing::warn!(conversation_id, error = %e, "memory summary after a turn failed");
        }
    }

    /// Resolves when the stop button was pressed (in this process: at once;
    /// in another: within a second). Also keeps the turn's heartbeat.
    async fn stop_requested(&self, conversation_id: i64, turn_id: i64) {
        let signal = self.live.stop_signal(conversation_id);
        loop {
            tokio::select! {
                () = signal.notified() => {}
                () = tokio::time::sleep(Duration::from_secs(1)) => {}
            }
            if let Ok(true) = ai_turns::beat(&self.db, turn_id).await {
                return;
            }
        }
    }

    async fn drive(
        &self,
        conversation: &Conversation,
        reads: ai_context::TurnReads,
        sink: &mut EventSink,
        recorders: &Recorders,
    ) -> Result<Option<ChatAnswer>, TurnError> {
        let mut offline = self.is_offline();
        let mode = if conversation.mode == "training" {
            Mode::Training
        } else {
            Mode::Chat
        };
        let tools = ToolContext {
            db: self.db.clone(),
            user_id: conversation.user_id,
            conversation_id: conversation.id,
            request_id: conversation.request_id,
            search: self.search.clone(),
            embedder: self.embedder.clone(),
            memory: self.memory.clone(),
        };
        let specs = Toolbox::specs(mode);
        // Offline (by configuration or since a fallback), the cut history is
        // summarised extractively, without a model call.
        let summariser = |offline: bool| (!offline).then_some(&recorders.main as &dyn LlmProvider);
        let (context, history) = tokio::join!(
            stages::timed(PromptContext::with_similar(
                &self.db,
                &self.similar,
                reads.request,
                reads.training,
                reads.knowledge,
            )),
            self.bounded(
                conversation.id,
                &reads.messages,
                &reads.outcomes,
                summariser(offline)
            ),
        );
        stages::part(conversation.id, Part::Similar, context.1);
        let mut context = context.0?;
        let mut first_history = Some(history?);
        // The history of later rounds: the first round's messages with each
        // round's two appended, as stored (no re-read between rounds).
        let mut stored = reads.messages;
        let mut outcomes = reads.outcomes;
        // The read tools this turn ran, for the cards' « where from ».
        let mut read = Vec::new();
        let caller = crate::playbooks::runtime::Caller {
            conversation_id: conversation.id,
            user_id: conversation.user_id,
            station: crate::playbooks::stations::for_mode(mode),
            request_id: conversation.request_id,
            asked: history::last_user_text(&stored),
        };
        let mut playbook_turn = crate::playbooks::runtime::TurnState::default();
        for _round in 0..self.settings.max_rounds {
            let (messages, summary) = match first_history.take() {
                Some(loaded) => loaded,
                None => {
                    self.bounded(conversation.id, &stored, &outcomes, summariser(offline))
                        .await?
                }
            };
            stages::lap(conversation.id, Stage::Reads);
            context.summary = summary;
            let request = ChatRequest {
                task: Task::Chat,
                system: prompt::render(&context),
                tools: specs.clone(),
                messages,
                max_tokens: self.settings.max_tokens,
                time_limit: Some(self.settings.start_limit),
            };
            stages::lap(conversation.id, Stage::Prompt);
            let answer = if offline {
                self.round(&recorders.offline, &request, sink).await
            } else {
                match self.round(&recorders.main, &request, sink).await {
                    Err(RoundError::Llm(e)) => {
                        tracing::warn!(conversation_id = conversation.id, error = %e, "chat model failed, offline planner takes over");
                        sink.push(ChatEvent::Notice {
                            text: "Le modèle distant ne répond pas : Maxy continue en mode hors-ligne pour cette réponse.".into(),
                        })
                        .await?;
                        offline = true;
                        self.round(&recorders.offline, &request, sink).await
                    }
                    other => other,
                }
            };
            stages::lap(conversation.id, Stage::Model);
            let answer = match answer {
                Ok(answer) => answer,
                Err(RoundError::Db(e)) => return Err(e.into()),
                Err(RoundError::Llm(e)) => return Err(TurnError::Llm(e)),
            };
            let calls: Vec<(String, String, serde_json::Value)> = answer
                .tool_calls()
                .map(|(id, name, input)| (id.to_string(), name.to_string(), input.clone()))
                .collect();
            if calls.is_empty() {
                // Stored with the turn's closing.
                return Ok(Some(answer));
            }
            let round = self
                .dispatch(
                    &tools,
                    mode,
                    &answer,
                    &calls,
                    &mut read,
                    sink,
                    &caller,
                    &mut playbook_turn,
                )
                .await?;
            stored.extend([round.answer, round.results]);
            outcomes = round.outcomes;
            stages::lap(conversation.id, Stage::Tools);
        }
        sink.push(ChatEvent::Notice {
            text: format!(
                "Maxy s'arrête après {} appels au modèle dans ce tour : précisez la demande pour continuer.",
                self.settings.max_rounds
            ),
        })
        .await?;
        Ok(None)
    }

    /// The history the model reads from the stored messages: cut by the
    /// bound, with the summary of what was cut.
    async fn bounded(
        &self,
        conversation_id: i64,
        stored: &[ai_messages::StoredMessage],
        outcomes: &[ai_conversations::ApprovalOutcome],
        summariser: Option<&dyn LlmProvider>,
    ) -> sqlx::Result<(Vec<crate::llm::ChatMessage>, Option<String>)> {
        let start = history::bound(stored, self.settings.max_history);
        let kept = &stored[start..];
        let summary = match kept.first() {
            Some(first) if first.seq > 0 => {
                cut_summary::of_cut(
                    &self.db,
                    &self.summaries,
                    summariser,
                    conversation_id,
                    first.seq,
                )
                .await?
            }
            _ => None,
        };
        Ok((history::to_chat(kept, outcomes), summary))
    }

    /// One model call, its text streamed to the page as it comes. A stream
    /// that fails after some text leaves that text on the page, labelled
    /// as interrupted (`AnswerInterrupted`), before the fallback answers.
    async fn round(
        &self,
        provider: &Recording,
        request: &ChatRequest,
        sink: &mut EventSink,
    ) -> Result<ChatAnswer, RoundError> {
        let mut stream = provider.stream(request).await.map_err(RoundError::Llm)?;
        let mut tick = tokio::time::interval(FLUSH_EVERY);
        let mut streamed = false;
        loop {
            let failed = tokio::select! {
                next = stream.next() => match next {
                    Some(Ok(ModelEvent::TextDelta { text })) => {
                        streamed = true;
                        sink.text(&text).await?;
                        continue;
                    }
                    // The rest of the text goes out with the next event
                    // (a tool line, or the turn's end).
                    Some(Ok(ModelEvent::Finished(answer))) => return Ok(answer),
                    // Tool calls are shown when they run, whole.
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => e,
                    None => LlmError::InvalidResponse("the stream ended without its answer".into()),
                },
                _ = tick.tick() => {
                    sink.flush().await?;
                    continue;
                }
            };
            if streamed {
                sink.push(ChatEvent::AnswerInterrupted).await?;
            } else {
                sink.flush().await?;
            }
            return Err(RoundError::Llm(failed));
        }
    }
}
