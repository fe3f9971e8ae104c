//! `get_request`: one request with its criteria. What was written from an
//! organizer's e-mail or by the team — kind of event, zone, description,
//! memo, search hints — is wrapped; the criteria Maxy checks (pool, status,
//! numbers, layouts, postal codes, date) are not.
use super::{answer, request};
use crate::tools::args::GetRequest;
use crate::tools::input;
use crate::tools::output::{External, Kind};
use crate::tools::{ToolContext, ToolError, ToolOutcome};
use serde_json::json;

pub async fn run(ctx: &ToolContext, args: GetRequest) -> Result<ToolOutcome, ToolError> {
    let id = match (args.request_id, args.reference.as_deref().map(str::trim)) {
        (Some(_), Some(_)) => {
            return Err(input::invalid(
                "request_id ou reference, pas les deux : la référence désigne déjà la demande",
            ))
        }
        (None, Some(reference)) => by_reference(ctx, reference).await?,
        (id, None) => input::request_id(ctx, id)?,
    };
    let r = request(ctx, id).await?;
    let summary = format!("Demande {} ({})", r.reference, status_label(&r.status));
    Ok(answer(
        json!({"request": {
            "id": r.id,
            "reference": r.reference,
            "pool": r.pool,
            "status": r.status,
            "participants": r.participants,
            "configurations": r.configurations,
            "postal_codes": r.postal_codes,
            "event_type": External::optional(Kind::EventType, r.event_type.as_deref()),
            "budget_eur": r.budget_eur,
            "event_start_date": r.event_start_date.map(|d| d.to_string()),
            "area": External::optional(Kind::Area, r.area.as_deref()),
            "description": External::bounded(Kind::Description, &r.description, 4000),
            "team_memo": External::optional(Kind::Memo, r.team_memo.as_deref()),
            "search_hints": External::optional(Kind::SearchHints, r.search_hints.as_deref()),
        }}),
        summary,
    ))
}

/// The id of the request a reference names: a reference of another shape
/// is refused, one that names no request is not found.
async fn by_reference(ctx: &ToolContext, reference: &str) -> Result<i64, ToolError> {
    if !app::requests::is_reference(reference) {
        return Err(input::invalid(format!(
            "reference attendue telle que D-2025-00007 : lettres, chiffres et tirets (reçu « {} »)",
            crate::tools::output::truncate(reference, 30)
        )));
    }
    crate::db::requests::id_of_reference(&ctx.db, reference)
        .await
        .map_err(|e| input::unavailable("get_request", e))?
        .ok_or_else(|| ToolError::NotFound(format!("demande {}", reference.to_uppercase())))
}

/// The status as the team says it.
/// The status inside the summary (« nouvelle »): the shared French table.
fn status_label(status: &str) -> String {
    app::fr::request_status(status).to_lowercase()
}
