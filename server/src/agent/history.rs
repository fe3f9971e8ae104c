//! The history the model reads: the last messages of the conversation,
//! bounded (seed 000: 30; past ~50 the model drifts) on a boundary that never
//! separates a tool call from its result, and repaired so the provider
//! always gets a well-formed exchange.
//!
//! - The cut starts the kept history on a person's message: a tool result
//!   whose call was cut, or an assistant answer without its question, is
//!   never the first message.
//! - A tool call without a result (the turn was stopped or its server died
//!   between the two) gets an error result saying so; a result without its
//!   call is dropped.
//! - The result of a WRITE call says what became of its approval now
//!   (waiting, executed, failed, rejected with the reason, expired), so the
//!   model learns the team's decision in place and a rejection tells it not
//!   to retry.
//! - What was cut is summarised ([`summary`]) into the system prompt, so a
//!   long conversation does not forget its start.
use crate::db::ai_conversations::ApprovalOutcome;
use crate::db::ai_messages::StoredMessage;
use crate::llm::{Block, ChatMessage, ChatRole};
use std::collections::{HashMap, HashSet};

/// Where the kept history starts in `messages` (oldest first): at most
/// `max` messages, starting with a `user` message when the window has one.
/// Everything before the index is cut (and summarised).
pub fn bound(messages: &[StoredMessage], max: usize) -> usize {
    let start = messages.len().saturating_sub(max);
    messages[start..]
        .iter()
        .position(|m| m.role == "user")
        // No person's message in the window (one turn of many tool rounds):
        // keep the window anyway, repaired by `to_chat`, rather than nothing.
        .map_or(start, |i| start + i)
}

/// The kept messages as the model reads them.
pub fn to_chat(kept: &[StoredMessage], outcomes: &[ApprovalOutcome]) -> Vec<ChatMessage> {
    let by_call: HashMap<&str, &ApprovalOutcome> = outcomes
        .iter()
        .map(|o| (o.tool_call_id.as_str(), o))
        .collect();
    let mut out: Vec<ChatMessage> = Vec::with_capacity(kept.len());
    let mut open_calls: Vec<String> = Vec::new();
    // Each call's input, so a refused proposal can name what was refused.
    let mut inputs: HashMap<String, (String, serde_json::Value)> = HashMap::new();
    for message in kept {
        match message.role.as_str() {
            "assistant" => {
                close_open_calls(&mut out, &mut open_calls);
                let content: Vec<Block> = message
                    .content
                    .0
                    .iter()
                    .filter(|b| !matches!(b, Block::ToolResult { .. }))
                    .filter(|b| !matches!(b, Block::Text { text } if text.trim().is_empty()))
                    .cloned()
                    .collect();
                open_calls = content
                    .iter()
                    .filter_map(|b| match b {
                        Block::ToolUse { id, .. } => Some(id.clone()),
                        _ => None,
                    })
                    .collect();
                for block in &content {
                    if let Block::ToolUse { id, name, input } = block {
                        inputs.insert(id.clone(), (name.clone(), input.clone()));
                    }
                }
                if out.is_empty() {
                    // The history must start with the user.
                    out.push(ChatMessage::user_text("(suite de la conversation)"));
                }
                push(&mut out, ChatRole::Assistant, content);
            }
            "tool" => {
                let expected: HashSet<&str> = open_calls.iter().map(String::as_str).collect();
                let results: Vec<Block> = message
                    .content
                    .0
                    .iter()
                    .filter_map(|b| match b {
                        Block::ToolResult {
                            tool_use_id,
                            content,
                            is_error,
                        } if expected.contains(tool_use_id.as_str()) => {
                            Some(match by_call.get(tool_use_id.as_str()) {
                                Some(outcome) => Block::ToolResult {
                                    tool_use_id: tool_use_id.clone(),
                                    content: outcome_for_call(
                                        outcome,
                                        inputs.get(tool_use_id.as_str()),
                                    ),
                                    is_error: false,
                                },
                                None => Block::ToolResult {
                                    tool_use_id: tool_use_id.clone(),
                                    content: content.clone(),
                                    is_error: *is_error,
                                },
                            })
                        }
                        _ => None,
                    })
                    .collect();
                let answered: HashSet<String> = results
                    .iter()
                    .filter_map(|b| match b {
                        Block::ToolResult { tool_use_id, .. } => Some(tool_use_id.clone()),
                        _ => None,
                    })
                    .collect();
                open_calls.retain(|id| !answered.contains(id));
                push(&mut out, ChatRole::User, results);
                close_open_calls(&mut out, &mut open_calls);
            }
            _ => {
                close_open_calls(&mut out, &mut open_calls);
                let content: Vec<Block> = message
                    .content
                    .0
                    .iter()
                    .filter(|b| matches!(b, Block::Text { .. }))
                    .cloned()
                    .collect();
                push(&mut out, ChatRole::User, content);
            }
        }
    }
    close_open_calls(&mut out, &mut open_calls);
    out
}

/// Calls left without a result get one that says why.
fn close_open_calls(out: &mut Vec<ChatMessage>, open: &mut Vec<String>) {
    if open.is_empty() {
        return;
    }
    let results = open
        .drain(..)
        .map(|id| Block::ToolResult {
            tool_use_id: id,
            content: "Appel interrompu avant sa réponse (tour arrêté).".into(),
            is_error: true,
        })
        .collect();
    push(out, ChatRole::User, results);
}

/// Appends, merging with the previous message of the same role (providers
/// want roles to alternate; tool results must lead their user message).
fn push(out: &mut Vec<ChatMessage>, role: ChatRole, content: Vec<Block>) {
    if content.is_empty() {
        return;
    }
    match out.last_mut() {
        Some(last) if last.role == role => {
            if role == ChatRole::User && content.iter().any(is_result) {
                // Results of the previous assistant message go first.
                let mut merged = content;
                merged.append(&mut last.content);
                merged.sort_by_key(|b| !is_result(b));
                last.content = merged;
            } else {
                last.content.extend(content);
            }
        }
        _ => out.push(ChatMessage { role, content }),
    }
}

fn is_result(block: &Block) -> bool {
    matches!(block, Block::ToolResult { .. })
}

/// Says a proposal was refused: the offline planner looks for it in the
/// history (`planner::turn`), a model reads it.
pub const REFUSED: &str = "refusée par l'équipe";

/// [`outcome_text`], and for a refused catalogue proposal the venues it
/// held: the model (and the offline planner) must not propose them again
/// in this conversation unless asked, and reads the reason as a constraint.
fn outcome_for_call(
    outcome: &ApprovalOutcome,
    call: Option<&(String, serde_json::Value)>,
) -> String {
    let text = outcome_text(outcome);
    let Some((name, input)) = call else {
        return text;
    };
    if outcome.status != "rejected" || name != "add_members_to_catalog" {
        return text;
    }
    let codes: Vec<&str> = input
        .get("picks")
        .and_then(|p| p.as_array())
        .into_iter()
        .flatten()
        .filter_map(|p| p.get("member_code").and_then(|c| c.as_str()))
        .collect();
    if codes.is_empty() {
        return text;
    }
    format!(
        "{text} Lieux refusés : {}. Ne les repropose pas dans cette conversation sauf si \
         l'équipe le demande, et applique la raison du refus (zone, distance, critère) à la \
         prochaine recherche.",
        codes.join(", ")
    )
}

/// What the model reads as the result of a write call, from its approval.
pub fn outcome_text(outcome: &ApprovalOutcome) -> String {
    let id = outcome.id;
    match outcome.status.as_str() {
        "pending" | "approved" => pending_text(id),
        "executed" => format!("Proposition n°{id} approuvée par l'équipe et exécutée."),
        "failed" => format!(
            "Proposition n°{id} approuvée mais son exécution a échoué : {}.",
            outcome.error.as_deref().unwrap_or("erreur inconnue")
        ),
        "rejected" => format!(
            "Proposition n°{id} {REFUSED}. Raison : {}. Ne refais pas cet appel.",
            crate::llm::external::wrap(
                "rejection_reason",
                outcome.reject_reason.as_deref().unwrap_or("")
            )
        ),
        "expired" => format!("Proposition n°{id} expirée sans décision de l'équipe."),
        other => format!("Proposition n°{id} : état {other}."),
    }
}

/// What the model reads as the result of a write call just proposed.
pub fn pending_text(approval_id: i64) -> String {
    format!(
        "Proposition n°{approval_id} enregistrée : elle attend l'approbation d'un membre de \
         l'équipe sur une carte. Rien n'est écrit avant. Ne la refais pas ; dis ce que tu \
         proposes."
    )
}

/// An extractive summary of the history cut off (offline and cheap): what
/// the team asked first and what was answered last before the cut.
pub fn summary(cut: &[StoredMessage]) -> Option<String> {
    let asks: Vec<String> = cut
        .iter()
        .filter(|m| m.role == "user")
        .filter_map(first_text)
        .take(4)
        .map(|t| format!("- demandé : {}", clip(&t, 200)))
        .collect();
    let last_answer = cut
        .iter()
        .rev()
        .filter(|m| m.role == "assistant")
        .find_map(first_text)
        .map(|t| format!("- dernière réponse avant la coupure : {}", clip(&t, 300)));
    let lines: Vec<String> = asks.into_iter().chain(last_answer).collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

pub(super) fn first_text(message: &StoredMessage) -> Option<String> {
    message.content.0.iter().find_map(|b| match b {
        Block::Text { text } if !text.trim().is_empty() => Some(text.trim().to_string()),
        _ => None,
    })
}

pub(super) fn clip(text: &str, max_chars: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &flat[..cut]),
        None => flat,
    }
}

#[cfg(test)]
#[path = "history_tests.rs"]
mod tests;

/// What the person wrote last (the action a playbook decision scores);
/// empty when the history holds no text of theirs.
pub fn last_user_text(messages: &[StoredMessage]) -> String {
    messages
        .iter()
        .rev()
        .find(|m| m.role == "user")
        .map(|m| {
            m.content
                .iter()
                .filter_map(|b| match b {
                    Block::Text { text } => Some(text.trim()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}
