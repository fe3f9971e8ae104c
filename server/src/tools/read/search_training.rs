//! `search_training`: what the team taught (verdicts, reasons, directives)
//! by event type and/or a text, newest first. The text is searched by
//! meaning when an embedder is configured and sessions have vectors of its
//! model, else by its words (French full text); when neither finds
//! anything, the newest sessions (of that type) answer instead. `source`
//! says which way answered (`vector`, `fts`, `recent`), as seed 003's
//! fallback chain asks. Reasons are the team's words about third parties:
//! wrapped.
use super::{answer, plural};
use crate::db::training_sessions;
use crate::embeddings::InputType;
use crate::tools::args::SearchTraining;
use crate::tools::input::{self, invalid};
use crate::tools::output::{self, External, Kind};
use crate::tools::{ToolContext, ToolError, ToolOutcome};
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
    let failed = |e| input::unavailable("search_training", e);
    let mut source = "vector";
    let mut rows = match text {
        Some(t) => by_meaning(ctx, t, event_type, limit).await?,
        None => Vec::new(),
    };
    if rows.is_empty() {
        source = if text.is_some() { "fts" } else { "recent" };
        rows = training_sessions::search(&ctx.db, text, event_type, limit)
            .await
            .map_err(failed)?;
    }
    if rows.is_empty() && text.is_some() {
        source = "recent";
        rows = training_sessions::search(&ctx.db, None, event_type, limit)
            .await
            .map_err(failed)?;
    }
    let sessions: Vec<_> = rows
        .iter()
        .map(|t| {
            json!({
                "id": t.id,
                "verdict": t.verdict,
                "category": t.category,
                "event_type": t.event_type,
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

/// Below this cosine similarity a session is not "about the same thing":
/// small sentence-embedding models put unrelated French texts around
/// 0.3-0.5 and paraphrases above 0.7.
const MIN_SIMILARITY: f64 = 0.6;

/// The sessions nearest by meaning; empty when no embedder is configured
/// or it does not answer (the words then answer: never silence).
async fn by_meaning(
    ctx: &ToolContext,
    text: &str,
    event_type: Option<&str>,
    limit: i64,
) -> Result<Vec<training_sessions::SessionRow>, ToolError> {
    let Some(embedder) = &ctx.embedder else {
        return Ok(Vec::new());
    };
    let vector = match embedder.embed(&[text.to_string()], InputType::Query).await {
        Ok(mut v) if v.len() == 1 => pgvector::Vector::from(v.remove(0)),
        Ok(_) => return Ok(Vec::new()),
        Err(e) => {
            tracing::warn!(error = %e, "search_training: no query vector, full text answers");
            return Ok(Vec::new());
        }
    };
    training_sessions::search_by_vector(
        &ctx.db,
        &vector,
        embedder.model(),
        event_type,
        MIN_SIMILARITY,
        limit,
    )
    .await
    .map_err(|e| input::unavailable("search_training", e))
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
