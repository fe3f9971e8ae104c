//! The assistant's tools: what the model may call, with the JSON Schema of
//! each tool's arguments generated from [`args`].
//!
//! Two kinds, kept apart on purpose:
//! - **read** tools run at once ([`Toolbox::run_read`]); every third-party
//!   text in their output reaches the model only through
//!   `llm::external::wrap` (see [`External`](output::External));
//! - **write** tools never run here: [`Toolbox::propose`] validates the
//!   arguments and describes them for a person (an approval card). Running
//!   an approved write belongs to the approvals module, whose writers this
//!   module and the agent loop cannot reach (a test reads the sources).
//!
//! A bad argument (wrong type, unknown field, out of range, unknown code) is
//! a [`ToolError`] the model reads and can correct, never a crash.
use crate::embeddings::EmbeddingProvider;
use crate::search::SearchService;
use sqlx::PgPool;
use std::sync::Arc;

pub mod args;
mod input;
pub mod output;
pub mod read;
mod registry;
pub use registry::GUIDANCE;
pub mod schema;

/// Read or write: decides whether a call runs or waits for a person.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    /// `seek_guidance`, `start_playbook`, `abandon_playbook`: run by the
    /// playbook runtime, neither a read of the data nor a write to it.
    Guidance,
}

/// Who calls, and for which conversation: every tool reads with it.
#[derive(Clone)]
pub struct ToolContext {
    pub db: PgPool,
    pub user_id: i64,
    pub conversation_id: i64,
    /// DEMANDE EN COURS: the default of `request_id` arguments.
    pub request_id: Option<i64>,
    /// The venue search, as the Lieux page runs it.
    pub search: Arc<SearchService>,
    /// For searches by meaning (knowledge, training); `None`: full text.
    pub embedder: Option<Arc<dyn EmbeddingProvider>>,
    /// The caller's memories and reminders (`user_data_semantic_search`);
    /// `None`: that tool answers that memory is not available.
    pub memory: Option<Arc<crate::memory::MemoryStore>>,
}

/// What a read tool answers.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolOutcome {
    /// What the model reads (JSON text; third-party text wrapped).
    pub for_model: String,
    /// One French line for the team (« 8 lieux trouvés dans le 8e »).
    pub summary: String,
}

/// A write tool call, validated and described for a person; nothing written.
#[derive(Clone, Debug, PartialEq)]
pub struct Proposal {
    /// The arguments as they will be executed (canonical JSON): hashed into
    /// the approval, so the card approves exactly these.
    pub arguments: serde_json::Value,
    /// French title of the card.
    pub title: String,
    pub body: app::chat::CardBody,
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ToolError {
    #[error("outil inconnu : {0}")]
    UnknownTool(String),
    /// The arguments do not fit the schema or the rules; says what to fix.
    #[error("arguments invalides : {0}")]
    InvalidArguments(String),
    /// A code or id that names nothing (or nothing this user may see).
    #[error("introuvable : {0}")]
    NotFound(String),
    /// The tool could not answer (database down…); logged server side.
    #[error("l'outil n'a pas pu répondre, réessaie plus tard")]
    Unavailable,
}

/// Which conversation the tools serve: the training workspace may add up
/// to 25 picks; the chat's schema never offers that variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Chat,
    Training,
}

/// The tool list and dispatch the agent loop holds (stateless: everything a
/// call needs comes in its [`ToolContext`]).
///
/// - `Toolbox::specs(mode) -> crate::llm::ToolList`: every tool, read
///   and write, with its generated schema;
/// - `Toolbox::access(name) -> Option<Access>`;
/// - `Toolbox::run_read(&ctx, name, &input) -> Result<ToolOutcome, ToolError>`;
/// - `Toolbox::propose(&ctx, mode, name, &input) -> Result<Proposal, ToolError>`
///   (delegates to [`write::propose`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Toolbox;

pub mod write;
