//! How the team sees a tool at work: a French label per tool (the table is
//! `app::chat::tool_label`, which the chat page reads too).

/// « Recherche de lieux… » for `search_members`; never a tool's key.
pub fn label(tool: &str) -> String {
    app::chat::tool_label(tool).to_string()
}
