//! Records a training session (source `chat`) with the approver as author.
use super::{recheck, stored, ExecContext, ExecError, Executed, Executor};
use crate::db::approved_writes::{self, NewTrainingSession};
use crate::tools::write::create_training_session::{verdict_label, TrainingArgs};
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
    ) -> Result<Executed, ExecError> {
        let args: TrainingArgs = stored(arguments)?;
        recheck(conn, ctx.mode, NAME, arguments, args.input()).await?;
        let directives = args
            .directives
            .as_ref()
            .map(serde_json::to_value)
            .transpose()
            .map_err(|e| ExecError::Refused(format!("directives illisibles : {e}")))?;
        let id = approved_writes::insert_training_session(
            conn,
            &NewTrainingSession {
                request_id: args.request_id,
                member_id: args.member_id,
                user_id: ctx.user_id,
                verdict: &args.verdict,
                reason: &args.reason,
                category: &args.category,
                event_type: args.event_type.as_deref(),
                directives,
            },
        )
        .await?;
        Ok(Executed {
            detail: format!("Leçon enregistrée ({}).", verdict_label(&args.verdict)),
            result: serde_json::json!({ "training_session_id": id }),
        })
    }
}
