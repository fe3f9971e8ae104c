//! Write tools: validation of their arguments and the card a person
//! approves. Nothing here writes.
//!
//! Each tool has its own module with three steps, the same for all:
//! - `resolve`: the model's input (already parsed into its [`args`](super::args)
//!   type) checked against the rules and the database, and turned into the
//!   **canonical arguments**: the resolved values that will run (venue ids
//!   next to codes, trimmed text, tiers in order). They are what the
//!   approval stores and hashes.
//! - `describe`: the card (French title and body) built from canonical
//!   arguments alone, so a card shown again after a restart is built the
//!   same way as the first one, from exactly what will run.
//! - `input`: the canonical arguments turned back into the tool's input,
//!   so whoever runs them later can resolve them again against the database
//!   as it is then, and see that nothing changed.
use super::{Mode, Proposal, ToolContext, ToolError};
use sqlx::PgConnection;

pub mod add_knowledge_entry;
pub mod add_members_to_catalog;
pub mod create_reminder;
pub mod create_training_session;
mod parse;
pub mod request_availability_check;
pub mod save_memory;
pub mod text;
pub mod update_request;

pub use parse::parse;

/// The write tools, by name.
pub const NAMES: &[&str] = &[
    "add_members_to_catalog",
    "update_request",
    "request_availability_check",
    "create_training_session",
    "add_knowledge_entry",
    "save_memory",
    "create_reminder",
];

/// Validates a write tool call and describes it for the approval card.
pub async fn propose(
    ctx: &ToolContext,
    mode: Mode,
    name: &str,
    input: &serde_json::Value,
) -> Result<Proposal, ToolError> {
    if !NAMES.contains(&name) {
        return Err(ToolError::UnknownTool(name.to_string()));
    }
    let mut conn = ctx.db.acquire().await.map_err(unavailable)?;
    let arguments = resolve(&mut conn, mode, name, input).await?;
    let (title, body) = describe(&mut conn, mode, name, &arguments).await?;
    Ok(Proposal {
        arguments,
        title,
        body,
    })
}

/// The canonical arguments of a call, as JSON (see the module doc).
///
/// A model may copy a wrapped field of a tool's output into its call (a
/// venue's reason, a memo): every string is read with its wrappers taken
/// off, so what the card shows and what is stored — and later shown on the
/// pages, the organizer's included — is the text as written. Canonical
/// arguments hold no wrapper, so resolving them again changes nothing.
pub async fn resolve(
    conn: &mut PgConnection,
    mode: Mode,
    name: &str,
    input: &serde_json::Value,
) -> Result<serde_json::Value, ToolError> {
    let input = &crate::llm::external::json_for_people(input.clone());
    let value = match name {
        "add_members_to_catalog" => {
            let args = add_members_to_catalog::resolve(conn, mode, &parse(input)?).await?;
            serde_json::to_value(args)
        }
        "update_request" => {
            let args = update_request::resolve(conn, &parse(input)?).await?;
            serde_json::to_value(args)
        }
        "request_availability_check" => {
            let args = request_availability_check::resolve(conn, &parse(input)?).await?;
            serde_json::to_value(args)
        }
        "create_training_session" => {
            let args = create_training_session::resolve(conn, &parse(input)?).await?;
            serde_json::to_value(args)
        }
        "add_knowledge_entry" => {
            let args = add_knowledge_entry::resolve(conn, &parse(input)?).await?;
            serde_json::to_value(args)
        }
        "save_memory" => serde_json::to_value(save_memory::resolve(&parse(input)?)?),
        "create_reminder" => {
            let args = create_reminder::resolve(conn, &parse(input)?).await?;
            serde_json::to_value(args)
        }
        _ => return Err(ToolError::UnknownTool(name.to_string())),
    };
    value.map_err(|e| {
        tracing::error!(error = %e, tool = name, "canonical arguments do not serialize");
        ToolError::Unavailable
    })
}

/// The card's title and body for canonical `arguments` of tool `name`.
///
/// Lenient on purpose: a venue deleted since the proposal still gets a
/// line (« lieu supprimé »), so a pending card can always be shown again.
pub async fn describe(
    conn: &mut PgConnection,
    mode: Mode,
    name: &str,
    arguments: &serde_json::Value,
) -> Result<(String, app::chat::CardBody), ToolError> {
    match name {
        "add_members_to_catalog" => {
            add_members_to_catalog::describe(conn, mode, &stored(arguments)?).await
        }
        "update_request" => update_request::describe(conn, &stored(arguments)?).await,
        "request_availability_check" => {
            request_availability_check::describe(conn, &stored(arguments)?).await
        }
        "create_training_session" => {
            create_training_session::describe(conn, &stored(arguments)?).await
        }
        "add_knowledge_entry" => add_knowledge_entry::describe(conn, &stored(arguments)?).await,
        "save_memory" => Ok(save_memory::describe(&stored(arguments)?)),
        "create_reminder" => Ok(create_reminder::describe(&stored(arguments)?)),
        _ => Err(ToolError::UnknownTool(name.to_string())),
    }
}

/// Canonical arguments read back (from an approval): they were written by
/// [`resolve`], so a failure here means the stored row was tampered with.
pub fn stored<T: serde::de::DeserializeOwned>(
    arguments: &serde_json::Value,
) -> Result<T, ToolError> {
    serde_json::from_value(arguments.clone())
        .map_err(|e| ToolError::InvalidArguments(format!("arguments enregistrés illisibles : {e}")))
}

/// A database failure while checking a call: logged here, once; the model
/// reads the generic « réessaie plus tard ».
pub fn unavailable(e: sqlx::Error) -> ToolError {
    tracing::error!(error = %e, "a write tool could not read the database");
    ToolError::Unavailable
}
