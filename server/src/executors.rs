//! The writers of approved tool calls: one executor per write tool, in a
//! registry only the approvals module reaches (the tools and the agent loop
//! never name this module; `tests/suite/approvals.rs` reads their sources to
//! prove it).
//!
//! An executor works in two steps. [`Executor::prepare`] runs before the
//! approval's transaction opens and holds no connection: whatever waits on
//! the network (the memory pipeline's embedding) happens there, so an
//! approval never holds a pooled connection, nor its row lock, while a
//! remote server takes its time (ADR 0028). [`Executor::execute`] then runs
//! inside the approval's transaction (the connection it is given): it first
//! resolves the stored arguments again against the database as it is now (a
//! venue may have been deactivated since the card was shown) and refuses
//! when they no longer resolve to the same values; then it writes, on that
//! connection only. Its writes and the approval's `executed` status commit
//! together, or not at all, so an attempt rolled back (and retried) wrote
//! nothing.
use crate::auth::tokens::SigningKey;
use crate::tools::{write, Mode};
use sqlx::PgConnection;

mod add_knowledge_entry;
mod add_members_to_catalog;
mod create_reminder;
mod create_training_session;
mod request_availability_check;
mod save_memory;
mod update_request;

/// Who approved, in which conversation.
pub struct ExecContext<'a> {
    /// The approver (`added_by_user_id`, `created_by`…).
    pub user_id: i64,
    pub conversation_id: i64,
    /// The conversation's mode: a training conversation fills the
    /// request's training catalogue, with its own limits.
    pub mode: Mode,
    /// Signs the magic links an executor issues (availability checks).
    pub links: &'a SigningKey,
    /// Writes memories and reminders (`save_memory`, `create_reminder`);
    /// `None`: those executors refuse.
    pub memory: Option<&'a crate::memory::MemoryStore>,
    /// E-mails an availability check's link to its venue, as the builder's
    /// bulk checks do (`Outbox::disabled()`: the link is passed on by hand).
    pub outbox: &'a crate::mail::Outbox,
}

impl<'a> ExecContext<'a> {
    /// The memory store, or the refusal every memory executor gives on a
    /// server without one.
    pub fn memory_store(&self) -> Result<&'a crate::memory::MemoryStore, ExecError> {
        self.memory.ok_or_else(|| {
            ExecError::Refused("la mémoire n'est pas disponible sur ce serveur".into())
        })
    }
}

/// What an executor wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct Executed {
    /// French, for the team: what was written. May hold what only the team
    /// should see (a venue's link); never given to the model.
    pub detail: String,
    /// For the record and for the model: ids and counts, no secret.
    pub result: serde_json::Value,
}

/// What [`Executor::prepare`] computed for [`Executor::execute`]; the same
/// value serves every attempt of one approval.
#[derive(Clone, Debug)]
pub enum Prepared {
    /// Nothing to do before the transaction (most executors).
    Nothing,
    Memory(crate::memory::write::PreparedMemory),
    Task(crate::memory::tasks::PreparedTask),
}

impl Prepared {
    /// The refusal of an executor handed another executor's preparation (a
    /// bug, said rather than hidden).
    fn mismatch(name: &str) -> ExecError {
        ExecError::Refused(format!("préparation manquante pour l'outil {name}"))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// The call no longer holds (state changed since the card): French.
    #[error("{0}")]
    Refused(String),
    #[error("base de données : {0}")]
    Db(#[from] sqlx::Error),
}

#[async_trait::async_trait]
pub trait Executor: Send + Sync {
    /// The write tool it runs.
    fn name(&self) -> &'static str;
    /// The work that waits on the network, before any connection is taken.
    async fn prepare(
        &self,
        _ctx: &ExecContext<'_>,
        _arguments: &serde_json::Value,
    ) -> Result<Prepared, ExecError> {
        Ok(Prepared::Nothing)
    }
    /// The write, on `conn` only (the approval's transaction).
    async fn execute(
        &self,
        ctx: &ExecContext<'_>,
        conn: &mut PgConnection,
        arguments: &serde_json::Value,
        prepared: &Prepared,
    ) -> Result<Executed, ExecError>;
}

static REGISTRY: &[&dyn Executor] = &[
    &add_members_to_catalog::AddMembersToCatalog,
    &update_request::UpdateRequest,
    &request_availability_check::RequestAvailabilityCheck,
    &create_training_session::CreateTrainingSession,
    &add_knowledge_entry::AddKnowledgeEntry,
    &save_memory::SaveMemory,
    &create_reminder::CreateReminder,
];

/// The names of the registry, in its order.
pub const NAMES: &[&str] = &[
    "add_members_to_catalog",
    "update_request",
    "request_availability_check",
    "create_training_session",
    "add_knowledge_entry",
    "save_memory",
    "create_reminder",
];

pub fn find(name: &str) -> Option<&'static dyn Executor> {
    REGISTRY.iter().copied().find(|e| e.name() == name)
}

/// Every executor, for the registry test.
pub fn all() -> impl Iterator<Item = &'static dyn Executor> {
    REGISTRY.iter().copied()
}

/// Stored canonical arguments read back into their type.
fn stored<T: serde::de::DeserializeOwned>(arguments: &serde_json::Value) -> Result<T, ExecError> {
    write::stored(arguments).map_err(|e| ExecError::Refused(e.to_string()))
}

/// Resolves `input` (the stored arguments turned back into the tool's
/// input) against the database now, and refuses unless it resolves to
/// exactly the stored `arguments`.
async fn recheck(
    conn: &mut PgConnection,
    mode: Mode,
    name: &str,
    arguments: &serde_json::Value,
    input: impl serde::Serialize,
) -> Result<(), ExecError> {
    let input = serde_json::to_value(input)
        .map_err(|e| ExecError::Refused(format!("arguments illisibles : {e}")))?;
    let now = write::resolve(conn, mode, name, &input)
        .await
        .map_err(|e| ExecError::Refused(format!("la demande n'est plus valable : {e}")))?;
    if &now != arguments {
        return Err(ExecError::Refused(
            "la demande n'est plus valable : ce qu'elle désigne a changé depuis la carte".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_without_memory_refuses_the_memory_executors_clearly() {
        let key = SigningKey::new(b"executors-test-key-long-enough-0123456789".to_vec());
        let ctx = ExecContext {
            user_id: 1,
            conversation_id: 1,
            mode: Mode::Chat,
            links: &key,
            memory: None,
            outbox: &crate::mail::Outbox::disabled(),
        };
        match ctx.memory_store() {
            Err(ExecError::Refused(text)) => assert!(text.contains("mémoire"), "{text}"),
            Err(other) => panic!("expected a refusal, got {other}"),
            Ok(_) => panic!("expected a refusal, got a store"),
        }
    }
}
