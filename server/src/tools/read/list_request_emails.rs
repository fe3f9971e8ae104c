//! `list_request_emails`: a request's e-mails, newest first; senders,
//! subjects and bodies wrapped (organizers forward anything, and a header
//! is theirs as much as the body), bodies bounded.
use super::{answer, plural, request};
use crate::db::request_emails;
use crate::tools::args::ListRequestEmails;
use crate::tools::input;
use crate::tools::output::{self, External, Kind};
use crate::tools::{ToolContext, ToolError, ToolOutcome};
use serde_json::json;

/// A body longer than this is cut: one e-mail must not fill the context.
const MAX_BODY_CHARS: usize = 4000;

pub async fn run(ctx: &ToolContext, args: ListRequestEmails) -> Result<ToolOutcome, ToolError> {
    let limit = input::limit(args.limit, 10, 20)?;
    let id = input::request_id(ctx, args.request_id)?;
    let r = request(ctx, id).await?;
    let rows = request_emails::latest(&ctx.db, r.id, limit)
        .await
        .map_err(|e| input::unavailable("list_request_emails", e))?;
    let emails: Vec<_> = rows
        .iter()
        .map(|e| {
            json!({
                "direction": e.direction,
                "from": External::bounded(Kind::EmailAddress, &e.from_address, 200),
                "subject": External::bounded(Kind::EmailSubject, &e.subject, 300),
                "body": External::bounded(Kind::EmailBody, &e.body, MAX_BODY_CHARS),
                "received_at": output::timestamp(e.received_at),
            })
        })
        .collect();
    let summary = format!(
        "{} pour la demande {}",
        plural(emails.len(), "e-mail", "e-mails"),
        r.reference
    );
    Ok(answer(json!({ "emails": emails }), summary))
}
