//! Creates an approved reminder for the approver through the memory store
//! (embedded at write time when the pipeline answers). As for `save_memory`,
//! the embedding is prepared before the approval takes a connection and the
//! row is written on the approval's transaction.
use super::save_memory::exec_error;
use super::{recheck, stored, ExecContext, ExecError, Executed, Executor, Prepared};
use crate::memory::NewTask;
use crate::memory_desk::when;
use crate::tools::write::create_reminder::ReminderArgs;
use sqlx::PgConnection;

pub struct CreateReminder;

const NAME: &str = "create_reminder";

fn refused(e: crate::tools::ToolError) -> ExecError {
    ExecError::Refused(e.to_string())
}

#[async_trait::async_trait]
impl Executor for CreateReminder {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn prepare(
        &self,
        ctx: &ExecContext<'_>,
        arguments: &serde_json::Value,
    ) -> Result<Prepared, ExecError> {
        let args: ReminderArgs = stored(arguments)?;
        let task = ctx
            .memory_store()?
            .prepare_task(
                ctx.user_id,
                NewTask {
                    title: args.title.clone(),
                    description: args.description.clone(),
                    due_at: Some(args.due().map_err(refused)?),
                    recurrence: args.rule().map_err(refused)?,
                    request_id: args.request_id,
                },
            )
            .await
            .map_err(exec_error)?;
        Ok(Prepared::Task(task))
    }

    async fn execute(
        &self,
        ctx: &ExecContext<'_>,
        conn: &mut PgConnection,
        arguments: &serde_json::Value,
        prepared: &Prepared,
    ) -> Result<Executed, ExecError> {
        let args: ReminderArgs = stored(arguments)?;
        recheck(conn, ctx.mode, NAME, arguments, args.input()).await?;
        let Prepared::Task(prepared) = prepared else {
            return Err(Prepared::mismatch(NAME));
        };
        let due = args.due().map_err(refused)?;
        let task = ctx
            .memory_store()?
            .insert_task(conn, ctx.user_id, prepared)
            .await
            .map_err(exec_error)?;
        Ok(Executed {
            detail: format!(
                "Rappel « {} » créé pour le {} (heure de Paris).",
                args.title,
                when::format(due)
            ),
            result: serde_json::json!({ "task_id": task.id, "embedded": task.embedded }),
        })
    }
}
