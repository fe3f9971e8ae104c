//! `list_requests`: how many requests match the « Demandes » page's
//! filters, per status, and the newest of them — the same query as that
//! page (`db::requests::list`), so a count the assistant states is the
//! count a person finds there. Organizer names and the kind of event are
//! third-party text (wrapped); references, statuses, pools, numbers and
//! dates are Maxy's.
use super::answer;
use crate::db::requests::{self, ListFilter};
use crate::tools::args::ListRequests;
use crate::tools::input::{self, invalid};
use crate::tools::output::{External, Kind};
use crate::tools::{ToolContext, ToolError, ToolOutcome};
use app::requests::STATUSES;
use chrono::NaiveDate;
use serde_json::json;

pub async fn run(ctx: &ToolContext, args: ListRequests) -> Result<ToolOutcome, ToolError> {
    let status = match args.status.as_deref().map(str::trim) {
        Some(s) if app::requests::is_status_filter(s) => Some(s),
        Some(s) => {
            return Err(invalid(format!(
                "statut inconnu « {} » : attendu {} ou {}",
                crate::tools::output::truncate(s, 30),
                STATUSES.join(", "),
                app::requests::OPEN
            )))
        }
        None => None,
    };
    let pool = match args.pool.as_deref().map(str::trim) {
        Some(slug) if !slug.is_empty() => Some(
            crate::db::venue_search::pool_by_slug(&ctx.db, slug)
                .await
                .map_err(|e| input::unavailable("list_requests", e))?
                .ok_or_else(|| ToolError::NotFound(format!("pool « {slug} »")))?,
        ),
        _ => None,
    };
    let from = day("from", args.from.as_deref())?;
    let to = day("to", args.to.as_deref())?;
    if let (Some(f), Some(t)) = (from, to) {
        if f > t {
            return Err(invalid("from doit précéder to"));
        }
    }
    let text = args
        .text
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty());
    if text.is_some_and(|t| t.chars().count() > 200) {
        return Err(invalid("text : 200 caractères au plus"));
    }
    let limit = input::limit(args.limit, 10, 20)?;
    let filter = ListFilter {
        status,
        pool: pool.as_ref().map(|p| p.slug.as_str()),
        from,
        to,
        assigned_to: args.mine.then_some(ctx.user_id),
        text,
        limit,
        offset: 0,
    };
    let failed = |e| input::unavailable("list_requests", e);
    let (by_status, rows) = tokio::try_join!(
        requests::count_by_status(&ctx.db, &filter),
        requests::list(&ctx.db, &filter),
    )
    .map_err(failed)?;
    let total: i64 = by_status.iter().map(|(_, n)| n).sum();
    let counts: serde_json::Map<String, serde_json::Value> = by_status
        .iter()
        .map(|(status, n)| (status.clone(), json!(n)))
        .collect();
    let listed: Vec<_> = rows
        .iter()
        .map(|r| {
            json!({
                "id": r.id,
                "reference": r.reference,
                "status": r.status,
                "pool": r.pool,
                "organizer": External::optional(
                    Kind::Organizer,
                    r.organizer_company.as_deref().or(r.organizer_name.as_deref()),
                ),
                "event_type": External::optional(Kind::EventType, r.event_type.as_deref()),
                "participants": r.participants,
                "event_start_date": r.event_start_date.map(|d| d.to_string()),
                "event_end_date": r.event_end_date.map(|d| d.to_string()),
                "assigned_to": r.assigned_to,
                "picks": r.picks,
                "created_at": crate::tools::output::timestamp(r.created_at),
            })
        })
        .collect();
    // The line people see under the tool: what was counted, not a figure
    // that could be read as the answer (« 40 demandes » before « 6 en
    // attente »).
    let summary = match total {
        0 => "Aucune demande ne correspond".to_string(),
        1 => "1 demande comptée, par statut".to_string(),
        n => format!("{n} demandes comptées, par statut"),
    };
    Ok(answer(
        json!({
            "total": total,
            "by_status": counts,
            "listed": listed.len(),
            "requests": listed,
        }),
        summary,
    ))
}

/// A day of the filter, `AAAA-MM-JJ`.
fn day(field: &str, value: Option<&str>) -> Result<Option<NaiveDate>, ToolError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(v) => NaiveDate::parse_from_str(v, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| {
                invalid(format!(
                    "{field} : date attendue AAAA-MM-JJ (reçu « {} »)",
                    crate::tools::output::truncate(v, 20)
                ))
            }),
    }
}
