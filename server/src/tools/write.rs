//! Write tools: validation of their arguments and the card a person
//! approves. Nothing here writes.
use super::{Mode, Proposal, ToolContext, ToolError};

/// The write tools, by name.
pub const NAMES: &[&str] = &[
    "add_members_to_catalog",
    "update_request",
    "request_availability_check",
    "create_training_session",
    "add_knowledge_entry",
];

/// Validates a write tool call and describes it for the approval card.
pub async fn propose(
    _ctx: &ToolContext,
    _mode: Mode,
    name: &str,
    _input: &serde_json::Value,
) -> Result<Proposal, ToolError> {
    Err(ToolError::UnknownTool(name.to_string()))
}
