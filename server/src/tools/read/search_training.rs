//! `search_training`: what the team taught (verdicts, reasons, directives)
//! by event type (case and accents ignored) and/or a text, newest first,
//! through `training::relevant::search`: by meaning, else by words, else
//! the newest; `source` says which way answered (`vector`, `fts`,
//! `recent`). Reasons, directives and the kind of event they are filed
//! under are the team's words about third parties (the kind of event is the
//! request's, from an organizer's e-mail): wrapped.
use super::{answer, plural};
use crate::tools::args::SearchTraining;
use crate::tools::input::{self, invalid};
use crate::tools::output::{self, External, Kind};
use crate::tools::{ToolContext, ToolError, ToolOutcome};
use crate::training::relevant;
use serde_json::json;

pub async fn run(ctx: &ToolContext, args: SearchTraining) -> Result<ToolOutcome, ToolError> {
    let limit = input::limit(args.limit, 5, 10)?;
    let text = args
        .text
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty());
    if text.is_some_and(|t| t.chars().count() > 1000) {
        return Err(invalid("text dépasse 1000 caractères"));
    }
    let event_type = args
        .event_type
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty());
    if event_type.is_some_and(|t| t.chars().count() > 60) {
        return Err(invalid("event_type dépasse 60 caractères"));
    }
    // The same reader as the training service (`training::relevant`).
    let found = relevant::search(
        &ctx.db,
        ctx.embedder.as_deref(),
        &relevant::Query {
            text,
            event_type,
            limit,
        },
    )
    .await
    .map_err(|e| input::unavailable("search_training", e))?;
    let (rows, source) = (found.sessions, found.source);
    let sessions: Vec<_> = rows
        .iter()
        .map(|t| {
            json!({
                "id": t.id,
                "verdict": t.verdict,
                "category": t.category,
                "event_type": External::optional(Kind::EventType, t.event_type.as_deref()),
                "member_code": t.member_code,
                "reason": External::bounded(Kind::TrainingReason, &t.reason, 1000),
                "directives": t.directives.as_ref().map(directives),
                "created_at": output::timestamp(t.created_at),
            })
        })
        .collect();
    let summary = format!(
        "{} d'entraînement",
        plural(sessions.len(), "session", "sessions")
    );
    Ok(answer(
        json!({"sessions": sessions, "source": source}),
        summary,
    ))
}

/// `{"trigger", "prefer", "avoid"}` with every word wrapped: the team
/// writes them, but from what venues and organizers said.
fn directives(d: &serde_json::Value) -> serde_json::Value {
    let words = |key: &str| -> Vec<External> {
        d.get(key)
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|w| w.as_str())
                    .map(|w| External::bounded(Kind::TrainingReason, w, 200))
                    .collect()
            })
            .unwrap_or_default()
    };
    json!({
        "trigger": External::bounded(
            Kind::TrainingReason,
            d.get("trigger").and_then(|t| t.as_str()).unwrap_or_default(),
            200,
        ),
        "prefer": words("prefer"),
        "avoid": words("avoid"),
    })
}
