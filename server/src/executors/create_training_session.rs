//! Records a training session (source `chat`) with the approver as author,
//! through `training::create::record` (the « Apprendre » button's writer).
use super::{recheck, stored, ExecContext, ExecError, Executed, Executor, Prepared};
use crate::tools::write::create_training_session::TrainingArgs;
use crate::training::create::{self, CreateError};
use crate::training::validate::Source;
use sqlx::PgConnection;

pub struct CreateTrainingSession;

const NAME: &str = "create_training_session";

#[async_trait::async_trait]
impl Executor for CreateTrainingSession {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn execute(
        &self,
        ctx: &ExecContext<'_>,
        conn: &mut PgConnection,
        arguments: &serde_json::Value,
        _prepared: &Prepared,
    ) -> Result<Executed, ExecError> {
        let args: TrainingArgs = stored(arguments)?;
        recheck(conn, ctx.mode, NAME, arguments, args.input()).await?;
        // The same writer as the « Apprendre » button: one set of checks,
        // and the embedding queued in this transaction.
        let id = create::record(conn, &args.valid(), Source::Chat, Some(ctx.user_id))
            .await
            .map_err(|e| match e {
                CreateError::NotFound(m) => ExecError::Refused(m),
                CreateError::Db(e) => ExecError::Db(e),
            })?;
        Ok(Executed {
            detail: format!(
                "Leçon enregistrée ({}).",
                app::fr::training_verdict(&args.verdict)
            ),
            result: serde_json::json!({ "training_session_id": id }),
        })
    }
}
