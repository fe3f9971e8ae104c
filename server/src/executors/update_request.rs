//! Writes the changed fields of a request.
use super::{recheck, stored, ExecContext, ExecError, Executed, Executor};
use crate::db::approved_writes::{self, RequestFields};
use crate::tools::write::update_request::RequestChanges;
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
    ) -> Result<Executed, ExecError> {
        let args: RequestChanges = stored(arguments)?;
        recheck(conn, ctx.mode, NAME, arguments, args.input()).await?;
        let fields = RequestFields {
            status: args.status.as_deref(),
            team_memo: args.team_memo.as_deref(),
            search_hints: args.search_hints.as_deref(),
            participants: args.participants,
            event_type: args.event_type.as_deref(),
            configurations: args.configurations.as_deref(),
            postal_codes: args.postal_codes.as_deref(),
        };
        if !approved_writes::update_request(conn, args.request_id, &fields).await? {
            return Err(ExecError::Refused(format!(
                "la demande {} n'existe plus",
                args.request_id
            )));
        }
        let mut changed: Vec<&str> = Vec::new();
        let names = [
            ("status", args.status.is_some()),
            ("team_memo", args.team_memo.is_some()),
            ("search_hints", args.search_hints.is_some()),
            ("participants", args.participants.is_some()),
            ("event_type", args.event_type.is_some()),
            ("configurations", args.configurations.is_some()),
            ("postal_codes", args.postal_codes.is_some()),
        ];
        changed.extend(names.iter().filter(|(_, set)| *set).map(|(n, _)| *n));
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
