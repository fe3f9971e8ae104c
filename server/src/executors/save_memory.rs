//! Saves an approved memory for the approver (the conversation's owner),
//! through the memory store: embedded when the memory pipeline answers,
//! saved without a vector when it does not (the backfill embeds it later).
//!
//! The store writes on its own connection, not in the approval's
//! transaction: its write-time embedding is a network call that must not
//! hold the approval's row lock, and its signature takes no connection. If
//! the approval's commit then failed, the card would stay pending with the
//! memory written; approving it again would save it twice. That window is
//! a commit failure after a successful write, which we accept for a note.
use super::{recheck, stored, ExecContext, ExecError, Executed, Executor};
use crate::memory::{MemoryError, MemoryOrigin, NewMemory};
use crate::tools::write::save_memory::SaveMemoryArgs;
use sqlx::PgConnection;

pub struct SaveMemory;

const NAME: &str = "save_memory";

/// A store failure as the approval records it.
pub fn exec_error(e: MemoryError) -> ExecError {
    match e {
        MemoryError::Database(e) => ExecError::Db(e),
        other => ExecError::Refused(other.to_string()),
    }
}

#[async_trait::async_trait]
impl Executor for SaveMemory {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn execute(
        &self,
        ctx: &ExecContext<'_>,
        conn: &mut PgConnection,
        arguments: &serde_json::Value,
    ) -> Result<Executed, ExecError> {
        let args: SaveMemoryArgs = stored(arguments)?;
        recheck(conn, ctx.mode, NAME, arguments, args.input()).await?;
        let store = ctx.memory_store()?;
        let memory = store
            .save_memory(
                ctx.user_id,
                NewMemory {
                    title: args.title,
                    content: args.content,
                    origin: MemoryOrigin::Tool,
                    conversation_id: Some(ctx.conversation_id),
                },
            )
            .await
            .map_err(exec_error)?;
        Ok(Executed {
            detail: "Mémoire enregistrée : Maxy s'en souviendra dans vos prochaines conversations."
                .into(),
            result: serde_json::json!({ "memory_id": memory.id, "embedded": memory.embedded }),
        })
    }
}
