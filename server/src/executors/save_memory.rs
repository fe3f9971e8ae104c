//! Saves an approved memory for the approver (the conversation's owner),
//! through the memory store: embedded when the memory pipeline answers,
//! saved without a vector when it does not (the backfill embeds it later).
//!
//! The embedding is [`Executor::prepare`]'s work, done before the approval
//! takes a connection; the row is written on the approval's transaction,
//! so it commits with the `executed` status or not at all (an approval
//! retried or approved again never saves the memory twice).
use super::{recheck, stored, ExecContext, ExecError, Executed, Executor, Prepared};
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

    async fn prepare(
        &self,
        ctx: &ExecContext<'_>,
        arguments: &serde_json::Value,
    ) -> Result<Prepared, ExecError> {
        let args: SaveMemoryArgs = stored(arguments)?;
        let memory = ctx
            .memory_store()?
            .prepare_memory(
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
        Ok(Prepared::Memory(memory))
    }

    async fn execute(
        &self,
        ctx: &ExecContext<'_>,
        conn: &mut PgConnection,
        arguments: &serde_json::Value,
        prepared: &Prepared,
    ) -> Result<Executed, ExecError> {
        let args: SaveMemoryArgs = stored(arguments)?;
        recheck(conn, ctx.mode, NAME, arguments, args.input()).await?;
        let Prepared::Memory(prepared) = prepared else {
            return Err(Prepared::mismatch(NAME));
        };
        let memory = ctx
            .memory_store()?
            .insert_memory(conn, ctx.user_id, prepared)
            .await
            .map_err(exec_error)?;
        Ok(Executed {
            detail: "Mémoire enregistrée : Maxy s'en souviendra dans vos prochaines conversations."
                .into(),
            result: serde_json::json!({ "memory_id": memory.id, "embedded": memory.embedded }),
        })
    }
}
