//! `get_search_preferences`: what steers a search today — the request's
//! search hints (wrapped: the team writes them from what organizers said),
//! its pool and area, and how many venues the user has favourited.
//!
//! A `search_preferences` table (per user and per request, key → value,
//! laid over search_members' defaults) comes with issue 11; until then
//! these are the preferences that exist.
use super::{answer, request};
use crate::db::member_signals;
use crate::tools::args::GetSearchPreferences;
use crate::tools::input;
use crate::tools::output::{External, Kind};
use crate::tools::{ToolContext, ToolError, ToolOutcome};
use serde_json::json;

pub async fn run(ctx: &ToolContext, args: GetSearchPreferences) -> Result<ToolOutcome, ToolError> {
    let id = input::request_id(ctx, args.request_id)?;
    let r = request(ctx, id).await?;
    let favorites = member_signals::favorites_of_user(&ctx.db, ctx.user_id)
        .await
        .map_err(|e| input::unavailable("get_search_preferences", e))?;
    let summary = format!(
        "Préférences de recherche de {}{}",
        r.reference,
        if r.search_hints
            .as_deref()
            .is_some_and(|h| !h.trim().is_empty())
        {
            " (avec consignes)"
        } else {
            ""
        }
    );
    Ok(answer(
        json!({"preferences": {
            "request_id": r.id,
            "reference": r.reference,
            "pool": r.pool,
            "area": r.area,
            "postal_codes": r.postal_codes,
            "search_hints": External::optional(Kind::SearchHints, r.search_hints.as_deref()),
            "user_favorites": favorites,
        }}),
        summary,
    ))
}
