//! `user_data_semantic_search`: the caller's own memories and reminders,
//! found by meaning (seed 003: vector → full text → recency). The answer
//! says which step answered (`source`) and, for each hit, how sure the
//! search is in words the model reads as people do (`confidence`:
//! « correspond », « peut-être »; never a bare score, which the model took
//! for a hit even at 0), its kind, id and due date. When nothing matched
//! (the recency step), `nothing_matched` and a `note` say the hits are only
//! the latest memories, so the model never presents them as an answer.
//! Every title and text is wrapped like third-party text (a memory may
//! quote an e-mail or be distilled from a conversation). Always scoped to
//! `ctx.user_id`: nobody reads another's memory.
use super::{answer, plural};
use crate::memory::{Confidence, HitKind, MemoryError, SearchAnswer, MAX_QUERY_CHARS};
use crate::memory_desk::{nothing_matched, source_word};
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
    let nothing = nothing_matched(&found);
    let hits: Vec<_> = found
        .hits
        .iter()
        .map(|h| {
            json!({
                "kind": match h.kind { HitKind::Memory => "memory", HitKind::Task => "task" },
                "id": h.id,
                "title": External::optional(Kind::Memory, Some(&h.title)),
                "content": External::bounded(Kind::Memory, &h.content, 2000),
                "confidence": confidence_words(h.confidence),
                "due_at": h.due_at.map(output::timestamp),
                "created_at": output::timestamp(h.created_at),
            })
        })
        .collect();
    let mut json = json!({
        "source": source_word(found.source),
        "nothing_matched": nothing,
        "hits": hits,
    });
    if nothing && !found.hits.is_empty() {
        json["note"] = json!(NOTHING_MATCHED);
    }
    Ok(answer(json, summary(&found, nothing)))
}

/// The note of a recency answer, for the model.
pub const NOTHING_MATCHED: &str = "Aucun souvenir ne correspond à cette recherche : \
     ces résultats sont seulement les plus récents de l'utilisateur, sans rapport établi avec \
     la question. Ne les présente pas comme une réponse : dis que rien ne correspond.";

/// A hit's confidence as the model reads it.
pub fn confidence_words(c: Confidence) -> &'static str {
    match c {
        Confidence::Matches => "correspond",
        Confidence::Maybe => "peut-être",
        Confidence::Recent => "aucune correspondance (récent)",
    }
}

/// The line the team reads under the tool call.
fn summary(found: &SearchAnswer, nothing: bool) -> String {
    if found.hits.is_empty() {
        return "Rien en mémoire".into();
    }
    if nothing {
        return "Aucun souvenir ne correspond ; les plus récents relus".into();
    }
    let count = |c: Confidence| found.hits.iter().filter(|h| h.confidence == c).count();
    let (matches, maybe) = (count(Confidence::Matches), count(Confidence::Maybe));
    let mut parts = Vec::new();
    if matches > 0 {
        parts.push(format!(
            "{matches} {}",
            if matches == 1 {
                "correspond"
            } else {
                "correspondent"
            }
        ));
    }
    if maybe > 0 {
        parts.push(format!("{maybe} peut-être"));
    }
    format!(
        "{} en mémoire : {}",
        plural(found.hits.len(), "résultat", "résultats"),
        parts.join(", ")
    )
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
