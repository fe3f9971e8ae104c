//! Adds a knowledge entry (source `ai`) written by the approver.
use super::{recheck, stored, ExecContext, ExecError, Executed, Executor, Prepared};
use crate::db::approved_writes;
use crate::tools::write::add_knowledge_entry::KnowledgeArgs;
use sqlx::PgConnection;

pub struct AddKnowledgeEntry;

const NAME: &str = "add_knowledge_entry";

#[async_trait::async_trait]
impl Executor for AddKnowledgeEntry {
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
        let args: KnowledgeArgs = stored(arguments)?;
        recheck(conn, ctx.mode, NAME, arguments, args.input()).await?;
        let id = approved_writes::insert_knowledge_entry(
            conn,
            args.member_id,
            &args.title,
            &args.content,
            ctx.user_id,
        )
        .await?;
        Ok(Executed {
            detail: format!("Information ajoutée sur le lieu {}.", args.member_code),
            result: serde_json::json!({ "knowledge_entry_id": id }),
        })
    }
}
