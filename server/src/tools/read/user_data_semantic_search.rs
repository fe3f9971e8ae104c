//! `user_data_semantic_search`: the caller's own memories and reminders,
//! found by meaning (seed 003: vector → full text → recency). The answer
//! says which step answered (`source`) and, for each hit, its score, kind,
//! id and due date; every title and text is wrapped like third-party text
//! (a memory may quote an e-mail or be distilled from a conversation).
//! Always scoped to `ctx.user_id`: nobody reads another's memory.
use super::{answer, plural};
use crate::memory::{HitKind, MemoryError, MAX_QUERY_CHARS};
use crate::memory_desk::source_word;
use crate::tools::args::UserDataSemanticSearch;
use crate::tools::input::{self, invalid};
use crate::tools::output::{self, External, Kind};
use crate::tools::{ToolContext, ToolError, ToolOutcome};
use serde_json::json;

pub async fn run(
    ctx: &ToolContext,
    args: UserDataSemanticSearch,
) -> Result<ToolOutcome, ToolError> {
    let limit = input::limit(args.limit, 5, 10)?;
    let query = args.query.trim();
    if query.is_empty() {
        return Err(invalid("query est vide : dis ce que tu cherches"));
    }
    let n = query.chars().count();
    if n > MAX_QUERY_CHARS {
        return Err(invalid(format!(
            "query dépasse {MAX_QUERY_CHARS} caractères ({n})"
        )));
    }
    let Some(store) = &ctx.memory else {
        tracing::warn!("user_data_semantic_search without a memory store");
        return Err(ToolError::Unavailable);
    };
    let found = store
        .search(ctx.user_id, query, usize::try_from(limit).unwrap_or(5))
        .await
        .map_err(tool_error)?;
    let hits: Vec<_> = found
        .hits
        .iter()
        .map(|h| {
            json!({
                "kind": match h.kind { HitKind::Memory => "memory", HitKind::Task => "task" },
                "id": h.id,
                "title": External::optional(Kind::Memory, Some(&h.title)),
                "content": External::bounded(Kind::Memory, &h.content, 2000),
                "score": (h.score * 1000.0).round() / 1000.0,
                "matched_by": source_word(h.matched_by),
                "due_at": h.due_at.map(output::timestamp),
                "created_at": output::timestamp(h.created_at),
            })
        })
        .collect();
    let source = source_word(found.source);
    let summary = format!(
        "{} en mémoire (par {})",
        plural(hits.len(), "résultat", "résultats"),
        app::memory::source_label(source)
    );
    Ok(answer(json!({"source": source, "hits": hits}), summary))
}

/// The store's refusal as a tool error the model can act on.
pub fn tool_error(e: MemoryError) -> ToolError {
    match e {
        MemoryError::NotFound => ToolError::NotFound("mémoire ou rappel".into()),
        MemoryError::Database(e) => input::unavailable("memory", e),
        // Every other refusal says what to fix, in the store's words.
        other => ToolError::InvalidArguments(other.to_string()),
    }
}
