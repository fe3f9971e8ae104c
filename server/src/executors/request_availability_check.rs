//! Creates the availability check and the venue's magic link in the
//! approval's transaction (a link is never issued for a check that did not
//! commit); with e-mail set up, the venue's e-mail is queued in the same
//! transaction, through the builder's own outbox call. The link's path is
//! shown once, to the team; the model's result holds ids only.
use super::{recheck, stored, ExecContext, ExecError, Executed, Executor, Prepared};
use crate::db::write_targets;
use crate::mail::{MailContext, Queued};
use crate::outreach::checks::{self, CheckError, OnPending};
use crate::tools::write::request_availability_check::CheckArgs;
use sqlx::PgConnection;

pub struct RequestAvailabilityCheck;

const NAME: &str = "request_availability_check";

#[async_trait::async_trait]
impl Executor for RequestAvailabilityCheck {
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
        let args: CheckArgs = stored(arguments)?;
        recheck(conn, ctx.mode, NAME, arguments, args.input()).await?;
        // The builder's bulk checks write through the same function.
        let check = checks::open_check(
            &mut *conn,
            ctx.links,
            args.request_id,
            args.member_id,
            ctx.user_id,
            OnPending::Refuse,
        )
        .await
        .map_err(|e| match e {
            CheckError::Db(db) => ExecError::Db(db),
            other => ExecError::Refused(other.to_string()),
        })?;
        let (check_id, expires_at, link) = (check.check_id, check.expires_at, check.link);
        let mail = MailContext {
            user_id: ctx.user_id,
            path: &link.path,
            until: expires_at,
        };
        let queued = ctx
            .outbox
            .queue_availability(&mut *conn, args.request_id, args.member_id, check_id, &mail)
            .await?;
        let name = write_targets::members_by_ids(&mut *conn, &[args.member_id])
            .await?
            .into_iter()
            .next()
            .map_or_else(|| args.member_code.clone(), |m| m.name);
        let until = app::fr::paris_date(expires_at);
        let sent = match &queued {
            Queued::Emailed { to, .. } => {
                format!("e-mail en file d'envoi pour {to} (lien : {})", link.path)
            }
            Queued::NotSent(_) if !ctx.outbox.is_enabled() => {
                format!("lien à transmettre au lieu : {}", link.path)
            }
            Queued::NotSent(why) => format!(
                "pas d'e-mail : {why} ; lien à transmettre au lieu : {}",
                link.path
            ),
        };
        Ok(Executed {
            detail: format!(
                "Demande de disponibilité créée pour {name} ({}), réponse attendue avant le \
                 {until} ; {sent}",
                args.member_code,
            ),
            result: serde_json::json!({
                "availability_check_id": check_id,
                "member_code": args.member_code,
                "expires_at": expires_at.to_rfc3339(),
                "emailed": queued.emailed_to().is_some(),
            }),
        })
    }
}
