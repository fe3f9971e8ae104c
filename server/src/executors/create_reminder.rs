//! Creates an approved reminder for the approver through the memory store
//! (embedded at write time when the pipeline answers; see `save_memory`
//! for why the store writes outside the approval's transaction).
use super::save_memory::exec_error;
use super::{recheck, stored, ExecContext, ExecError, Executed, Executor};
use crate::memory::NewTask;
use crate::memory_desk::when;
use crate::tools::write::create_reminder::ReminderArgs;
use sqlx::PgConnection;

pub struct CreateReminder;

const NAME: &str = "create_reminder";

#[async_trait::async_trait]
impl Executor for CreateReminder {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn execute(
        &self,
        ctx: &ExecContext<'_>,
        conn: &mut PgConnection,
        arguments: &serde_json::Value,
    ) -> Result<Executed, ExecError> {
        let args: ReminderArgs = stored(arguments)?;
        recheck(conn, ctx.mode, NAME, arguments, args.input()).await?;
        let store = ctx.memory_store()?;
        let refused = |e: crate::tools::ToolError| ExecError::Refused(e.to_string());
        let due = args.due().map_err(refused)?;
        let task = store
            .create_task(
                ctx.user_id,
                NewTask {
                    title: args.title.clone(),
                    description: args.description.clone(),
                    due_at: Some(due),
                    recurrence: args.rule().map_err(refused)?,
                    request_id: args.request_id,
                },
            )
            .await
            .map_err(exec_error)?;
        Ok(Executed {
            detail: format!(
                "Rappel « {} » créé pour le {} (UTC).",
                args.title,
                when::format(due)
            ),
            result: serde_json::json!({ "task_id": task.id, "embedded": task.embedded }),
        })
    }
}
