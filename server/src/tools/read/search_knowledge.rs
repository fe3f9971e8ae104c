//! `search_knowledge`: the knowledge base about venues (title and
//! content), French full text first, a substring match when the words find
//! nothing; newest first. `matched_by` says which answered; every title
//! and content is third-party text, wrapped.
use super::{answer, plural};
use crate::db::{knowledge_entries, members};
use crate::tools::args::SearchKnowledge;
use crate::tools::input::{self, invalid};
use crate::tools::output::{self, External, Kind};
use crate::tools::{ToolContext, ToolError, ToolOutcome};
use serde_json::json;

pub async fn run(ctx: &ToolContext, args: SearchKnowledge) -> Result<ToolOutcome, ToolError> {
    let limit = input::limit(args.limit, 5, 10)?;
    let query = args.query.trim();
    if query.is_empty() {
        return Err(invalid("query est vide : dis ce que tu cherches"));
    }
    if query.chars().count() > 500 {
        return Err(invalid("query dépasse 500 caractères"));
    }
    let failed = |e| input::unavailable("search_knowledge", e);
    let member_id = match &args.member_code {
        Some(code) => {
            let code = input::member_code(code)?;
            let found = members::ids_by_code(&ctx.db, std::slice::from_ref(&code))
                .await
                .map_err(failed)?;
            match found.first() {
                Some((_, id)) => Some(*id),
                None => return Err(ToolError::NotFound(format!("lieu {code}"))),
            }
        }
        None => None,
    };
    let mut matched_by = "fts";
    let mut rows = knowledge_entries::search_text(&ctx.db, query, member_id, limit)
        .await
        .map_err(failed)?;
    if rows.is_empty() {
        matched_by = "ilike";
        rows = knowledge_entries::search_substring(&ctx.db, query, member_id, limit)
            .await
            .map_err(failed)?;
    }
    let entries: Vec<_> = rows
        .iter()
        .map(|k| {
            json!({
                "member_code": k.member_code,
                "title": External::bounded(Kind::Knowledge, &k.title, 200),
                "content": External::bounded(Kind::Knowledge, &k.content, 2000),
                "source": k.source,
                "created_at": output::timestamp(k.created_at),
            })
        })
        .collect();
    let summary = format!(
        "{} de connaissance",
        plural(entries.len(), "fiche", "fiches")
    );
    Ok(answer(
        json!({"entries": entries, "matched_by": matched_by}),
        summary,
    ))
}
