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
    let id = input::request_id(ctx, args.request_id)?;
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

/// The status as the team says it.
/// The status inside the summary (« nouvelle »): the shared French table.
fn status_label(status: &str) -> String {
    app::fr::request_status(status).to_lowercase()
}
