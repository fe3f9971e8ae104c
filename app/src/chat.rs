//! The assistant's chat as pages see it.
//!
//! A conversation is shown by folding its **event log** ([`ChatEvent`]s with
//! increasing `seq`): the page renders the events it loaded, then follows
//! `GET /api/chat/conversations/{id}/events?after={seq}` (server-sent
//! events, one [`SeqEvent`] per message) from the last one it saw. A reload
//! or a network blip resumes exactly there; the turn itself runs on the
//! server and never depended on the browser.
use crate::errors::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The longest message the chat accepts, in characters: a long e-mail
/// pasted whole fits, and even in accented French it stays under the
/// server's 64 KB body limit once form-encoded (a 1 MB paste is refused with
/// a clear message either way).
pub const MAX_MESSAGE_CHARS: usize = 10_000;

/// A line of the sidebar.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConversationSummary {
    pub id: i64,
    pub title: String,
    /// The request the conversation is about (DEMANDE EN COURS), if any.
    pub request_id: Option<i64>,
    /// Its public reference (« D-2026-00043 »), when the page shows it
    /// (the sidebar does not).
    #[serde(default)]
    pub request_reference: Option<String>,
    /// RFC 3339.
    pub updated_at: String,
    /// Approval cards still waiting for a decision.
    pub pending_approvals: i64,
}

/// How the team sees a tool at work: « Recherche de lieux… » for
/// `search_members`, never a tool's key. Shared by the server (the events it
/// streams) and the page (a tool line whose start the log lost).
pub fn tool_label(tool: &str) -> &'static str {
    match tool {
        "list_requests" => "Lecture des demandes…",
        "get_request" => "Lecture de la demande…",
        "get_request_catalogues" => "Lecture des catalogues de la demande…",
        "list_request_emails" => "Lecture des e-mails de la demande…",
        "find_similar_requests" => "Recherche de demandes similaires…",
        "search_members" => "Recherche de lieux…",
        "get_member" => "Lecture de la fiche du lieu…",
        "get_member_full" => "Lecture de la fiche complète du lieu…",
        "get_member_signals" => "Lecture des signaux des lieux…",
        "count_members" => "Comptage des lieux…",
        "search_training" => "Lecture des leçons de l'équipe…",
        "search_knowledge" => "Recherche dans les connaissances…",
        "get_search_preferences" => "Lecture des préférences de recherche…",
        "user_data_semantic_search" => "Recherche dans votre mémoire…",
        "add_members_to_catalog" => "Proposition d'ajout au catalogue…",
        "update_request" => "Proposition de modification de la demande…",
        "request_availability_check" => "Proposition de demande de disponibilité…",
        "create_training_session" => "Proposition de leçon…",
        "add_knowledge_entry" => "Proposition de connaissance…",
        "save_memory" => "Proposition de souvenir…",
        "create_reminder" => "Proposition de rappel…",
        "seek_guidance" => "Recherche du parcours adapté…",
        "start_playbook" => "Ouverture d'un parcours…",
        "abandon_playbook" => "Abandon du parcours…",
        _ => "Outil de Maxy…",
    }
}

/// One event of a conversation's log, as stored and as streamed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeqEvent {
    pub seq: i64,
    pub event: ChatEvent,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ChatEvent {
    /// What a team member wrote.
    UserMessage { text: String, author: String },
    /// The assistant starts answering. `offline`: the deterministic planner
    /// answers (« mode hors-ligne »), by configuration or as a fallback.
    TurnStarted {
        turn_id: i64,
        offline: bool,
        model: String,
    },
    /// More of the assistant's answer (deltas are coalesced a little).
    TextDelta { text: String },
    /// A read tool runs (`label` in French: « Recherche de lieux… »).
    ToolStarted {
        call_id: String,
        name: String,
        label: String,
    },
    /// A read tool answered: a one-line French summary for the team.
    ToolFinished {
        call_id: String,
        name: String,
        summary: String,
        is_error: bool,
    },
    /// A write the model proposes: nothing is written before a person
    /// approves the card.
    ApprovalRequested(ApprovalCard),
    /// A card was approved (and executed or failed), rejected or expired.
    ApprovalDecided {
        approval_id: i64,
        /// `executed`, `failed`, `rejected` or `expired`.
        status: String,
        /// French: what was written, why it failed, or the rejection reason.
        detail: String,
        decided_by: Option<String>,
    },
    /// The model's answer stopped mid-stream (the model failed): the text
    /// shown so far stays, labelled as interrupted; what follows (a notice,
    /// the offline planner's answer) is another answer.
    AnswerInterrupted,
    /// Something the team should know (a remote model failed and the
    /// offline planner took over…).
    Notice { text: String },
    /// The playbook ruling the conversation changed: opened, a step done,
    /// completed, abandoned or replaced.
    Playbook(PlaybookProgress),
    /// The turn is over.
    TurnFinished {
        turn_id: i64,
        /// `done`, `stopped`, `failed`.
        status: String,
        /// What the turn's model calls cost, in euros.
        cost_eur: f64,
    },
}

/// A write waiting for a person, rendered for a person.
/// The playbook ruling a conversation, as the chat shows it (« étape 2 sur 4 »).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlaybookProgress {
    /// French title of the playbook.
    pub title: String,
    /// What it achieves (its goal).
    pub goal: String,
    /// Steps done and steps in all (optional ones included).
    pub done: usize,
    pub steps: usize,
    /// The next step in the team's words, when one remains.
    pub next: Option<String>,
    /// `open`, `completed`, `abandoned` or `replaced`.
    pub status: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApprovalCard {
    pub approval_id: i64,
    pub tool_name: String,
    /// French: « Ajouter 8 lieux au catalogue de la demande D-2026-0012 ».
    pub title: String,
    /// RFC 3339; past it the card can no longer be approved.
    pub expires_at: String,
    /// Hex sha256 of the canonical arguments: sent back with the decision,
    /// so a card approves exactly what it showed.
    pub arguments_hash: String,
    pub body: CardBody,
    /// What the turn read before proposing it, in French (« Lecture des
    /// e-mails de la demande »…), in order: where the proposal came from.
    #[serde(default)]
    pub read_before: Vec<String>,
    /// The turn read e-mails written by people outside the team before
    /// proposing it: the card says so, for a proposal born of an e-mail.
    #[serde(default)]
    pub after_emails: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CardBody {
    /// `add_members_to_catalog`: the venues with tier, room and reason.
    Catalogue {
        request_id: i64,
        request_reference: String,
        picks: Vec<CardPick>,
    },
    /// Any other write: its fields, labelled in French.
    Fields { rows: Vec<CardField> },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CardPick {
    /// `recommended` or `compatible`.
    pub tier: String,
    pub member_code: String,
    pub member_name: String,
    pub city: String,
    pub room_name: Option<String>,
    /// The pinned room's capacity in the requested configuration.
    pub capacity: Option<i32>,
    pub configuration: Option<String>,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CardField {
    pub label: String,
    pub value: String,
}

/// What `send_message` answers: the conversation (created when `None` was
/// given) and where its new events start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SentMessage {
    pub conversation_id: i64,
    /// The user's message event; the turn's events follow it.
    pub seq: i64,
}

/// A conversation to display: its summary, its log, and whether a turn is
/// still running (then the page follows the stream).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConversationLog {
    pub conversation: ConversationSummary,
    pub events: Vec<SeqEvent>,
    pub running: bool,
    /// The assistant answers without a remote model (« mode hors-ligne »).
    pub offline: bool,
    /// All model calls of the conversation, in euros.
    pub cost_eur: f64,
}

/// The assistant (implemented by the server). Every method checks that the
/// conversation or approval belongs to `user_id`.
#[cfg(feature = "ssr")]
#[async_trait::async_trait]
pub trait Assistant: Send + Sync {
    async fn conversations(&self, user_id: i64) -> Result<Vec<ConversationSummary>, AppError>;
    async fn conversation(
        &self,
        user_id: i64,
        conversation_id: i64,
    ) -> Result<ConversationLog, AppError>;
    /// Stores the message and starts the turn on the server; returns at once.
    async fn send(
        &self,
        user_id: i64,
        conversation_id: Option<i64>,
        request_id: Option<i64>,
        text: String,
    ) -> Result<SentMessage, AppError>;
    /// Stops the running turn, if any (the model call is cancelled).
    async fn stop(&self, user_id: i64, conversation_id: i64) -> Result<(), AppError>;
    /// Approves (runs the write once) or rejects a card.
    async fn decide(
        &self,
        user_id: i64,
        approval_id: i64,
        decision: Decision,
    ) -> Result<ChatEvent, AppError>;
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Decision {
    Approve { arguments_hash: String },
    Reject { reason: String },
}

#[server(endpoint = "chat/conversations")]
pub async fn list_conversations() -> Result<Vec<ConversationSummary>, AppError> {
    let user = crate::auth::access::require_team()?;
    crate::services::service::<dyn Assistant>()?
        .conversations(user.id)
        .await
}

#[server(endpoint = "chat/conversation")]
pub async fn load_conversation(conversation_id: i64) -> Result<ConversationLog, AppError> {
    let user = crate::auth::access::require_team()?;
    crate::services::service::<dyn Assistant>()?
        .conversation(user.id, conversation_id)
        .await
}

#[server(endpoint = "chat/send")]
pub async fn send_message(
    conversation_id: Option<i64>,
    request_id: Option<i64>,
    text: String,
) -> Result<SentMessage, AppError> {
    let user = crate::auth::access::require_team()?;
    crate::services::service::<dyn Assistant>()?
        .send(user.id, conversation_id, request_id, text)
        .await
}

#[server(endpoint = "chat/stop")]
pub async fn stop_turn(conversation_id: i64) -> Result<(), AppError> {
    let user = crate::auth::access::require_team()?;
    crate::services::service::<dyn Assistant>()?
        .stop(user.id, conversation_id)
        .await
}

#[server(endpoint = "chat/decide")]
pub async fn decide_approval(approval_id: i64, decision: Decision) -> Result<ChatEvent, AppError> {
    let user = crate::auth::access::require_team()?;
    crate::services::service::<dyn Assistant>()?
        .decide(user.id, approval_id, decision)
        .await
}
