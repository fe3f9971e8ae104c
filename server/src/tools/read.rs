//! The read tools: each parses its input into its argument type, checks
//! it, reads the database and answers one JSON object (the shapes the
//! offline planner reads), third-party text wrapped. One file per tool.
use super::{input, ToolContext, ToolError, ToolOutcome};

pub mod count_members;
pub mod find_similar_requests;
pub mod get_member;
pub mod get_member_full;
pub mod get_member_signals;
pub mod get_request;
pub mod get_request_catalogues;
pub mod get_search_preferences;
pub mod list_request_emails;
pub mod list_requests;
pub mod search_knowledge;
pub mod search_members;
pub mod search_training;
pub mod user_data_semantic_search;

/// The read tools, by name, in the order the model sees them.
pub const NAMES: &[&str] = &[
    "list_requests",
    "get_request",
    "get_request_catalogues",
    "list_request_emails",
    "find_similar_requests",
    "search_members",
    "get_member",
    "get_member_full",
    "get_member_signals",
    "count_members",
    "search_training",
    "search_knowledge",
    "get_search_preferences",
    "user_data_semantic_search",
];

/// Runs the read tool `name` on the model's `input`.
pub async fn run(
    ctx: &ToolContext,
    name: &str,
    input: &serde_json::Value,
) -> Result<ToolOutcome, ToolError> {
    use input::parse;
    match name {
        "list_requests" => list_requests::run(ctx, parse(input)?).await,
        "get_request" => get_request::run(ctx, parse(input)?).await,
        "get_request_catalogues" => get_request_catalogues::run(ctx, parse(input)?).await,
        "list_request_emails" => list_request_emails::run(ctx, parse(input)?).await,
        "find_similar_requests" => find_similar_requests::run(ctx, parse(input)?).await,
        "search_members" => search_members::run(ctx, parse(input)?).await,
        "get_member" => get_member::run(ctx, parse(input)?).await,
        "get_member_full" => get_member_full::run(ctx, parse(input)?).await,
        "get_member_signals" => get_member_signals::run(ctx, parse(input)?).await,
        "count_members" => count_members::run(ctx, parse(input)?).await,
        "search_training" => search_training::run(ctx, parse(input)?).await,
        "search_knowledge" => search_knowledge::run(ctx, parse(input)?).await,
        "get_search_preferences" => get_search_preferences::run(ctx, parse(input)?).await,
        "user_data_semantic_search" => user_data_semantic_search::run(ctx, parse(input)?).await,
        other => Err(ToolError::UnknownTool(super::output::truncate(other, 64))),
    }
}

/// The answer: `json` as the model reads it, `summary` for the team.
fn answer(json: serde_json::Value, summary: String) -> ToolOutcome {
    ToolOutcome {
        for_model: json.to_string(),
        summary,
    }
}

/// "1 e-mail", "3 e-mails": French plural of a count.
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The request `id`, or NotFound.
async fn request(ctx: &ToolContext, id: i64) -> Result<crate::db::requests::RequestRow, ToolError> {
    crate::db::requests::by_id(&ctx.db, id)
        .await
        .map_err(|e| input::unavailable("request", e))?
        .ok_or_else(|| ToolError::NotFound(format!("demande {id}")))
}
