//! Writes the changed fields of a request.
use super::{recheck, stored, ExecContext, ExecError, Executed, Executor, Prepared};
use crate::tools::write::update_request::{self, RequestChanges};
use sqlx::PgConnection;

pub struct UpdateRequest;

const NAME: &str = "update_request";

#[async_trait::async_trait]
impl Executor for UpdateRequest {
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
        let args: RequestChanges = stored(arguments)?;
        recheck(conn, ctx.mode, NAME, arguments, args.input()).await?;
        if !update_request::apply(conn, &args).await? {
            return Err(ExecError::Refused(format!(
                "la demande {} n'existe plus",
                args.request_id
            )));
        }
        let changed = args.changed();
        Ok(Executed {
            detail: format!(
                "Demande modifiée ({}).",
                changed.len().to_string()
                    + if changed.len() > 1 {
                        " champs"
                    } else {
                        " champ"
                    }
            ),
            result: serde_json::json!({ "request_id": args.request_id, "changed": changed }),
        })
    }
}
