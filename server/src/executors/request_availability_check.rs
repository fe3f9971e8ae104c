//! Creates the availability check and the venue's magic link in the
//! approval's transaction (a link is never issued for a check that did not
//! commit). The link's path is shown once, to the team; the model's result
//! holds ids only.
use super::{recheck, stored, ExecContext, ExecError, Executed, Executor};
use crate::auth::magic_links::{self, Purpose};
use crate::db::{approved_writes, write_targets};
use crate::tools::write::request_availability_check::{CheckArgs, ANSWER_DAYS};
use sqlx::PgConnection;
use std::time::Duration;

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
    ) -> Result<Executed, ExecError> {
        let args: CheckArgs = stored(arguments)?;
        recheck(conn, ctx.mode, NAME, arguments, args.input()).await?;
        let days = i32::try_from(ANSWER_DAYS).unwrap_or(7);
        let (check_id, expires_at) = approved_writes::insert_availability_check(
            conn,
            args.request_id,
            args.member_id,
            ctx.user_id,
            days,
        )
        .await
        .map_err(|e| match &e {
            sqlx::Error::Database(d) if d.is_unique_violation() => ExecError::Refused(
                "une demande de disponibilité attend déjà la réponse de ce lieu".into(),
            ),
            _ => ExecError::Db(e),
        })?;
        let ttl = Duration::from_secs(ANSWER_DAYS * 24 * 3600);
        let link = magic_links::issue(
            &mut *conn,
            ctx.links,
            Purpose::Availability,
            check_id,
            ttl,
            Some(ctx.user_id),
        )
        .await
        .map_err(|e| match e.downcast::<sqlx::Error>() {
            Ok(db) => ExecError::Db(db),
            Err(other) => ExecError::Refused(format!("le lien n'a pas pu être créé : {other}")),
        })?;
        let name = write_targets::members_by_ids(&mut *conn, &[args.member_id])
            .await?
            .into_iter()
            .next()
            .map_or_else(|| args.member_code.clone(), |m| m.name);
        Ok(Executed {
            detail: format!(
                "Demande de disponibilité créée pour {name} ({}), réponse attendue avant le {} ; \
                 lien à transmettre au lieu : {}",
                args.member_code,
                expires_at.format("%d/%m/%Y"),
                link.path
            ),
            result: serde_json::json!({
                "availability_check_id": check_id,
                "member_code": args.member_code,
                "expires_at": expires_at.to_rfc3339(),
            }),
        })
    }
}
