//! The state of a turn, read from the request alone (the planner keeps
//! nothing between calls): the user's last message with text, the tool
//! calls made since, each with its result, and the catalogue proposals the
//! team refused earlier in the conversation (their venues and reason).
use super::intent::{self, Intent};
use super::target::{self, Target};
use crate::llm::{Block, ChatRequest, ChatRole};
use serde_json::Value;
use std::collections::HashMap;

/// What a tool call gave.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A JSON answer (the read tools').
    Json(Value),
    /// A text answer (a write tool's pending-approval note).
    Text(String),
    /// `is_error`: the French error text.
    Error(String),
    /// No result in the history (yet).
    Missing,
}

/// One tool call of this turn.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub name: String,
    pub input: Value,
    pub outcome: Outcome,
}

/// A catalogue proposal the team refused in this conversation (the
/// history says so in the call's result, `agent::history::REFUSED`).
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// The venues it proposed.
    pub codes: Vec<String>,
    /// The team's reason, as written (wrapper off).
    pub reason: String,
}

/// Everything the planner knows.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    /// The user's words.
    pub text: String,
    pub intent: Intent,
    pub target: Option<Target>,
    /// Tool calls since the user's message, in order.
    pub steps: Vec<Step>,
    /// Assistant messages since the user's message (tool rounds).
    pub rounds: usize,
    /// The tools the request offers.
    pub offered: Vec<String>,
    /// Refused catalogue proposals of the whole history, oldest first.
    pub refusals: Vec<Refusal>,
}

impl Turn {
    pub fn read(request: &ChatRequest) -> Turn {
        let start = request.messages.iter().rposition(|m| {
            m.role == ChatRole::User && m.content.iter().any(|b| matches!(b, Block::Text { .. }))
        });
        let text = start
            .map(|i| request.messages[i].text())
            .unwrap_or_default();
        let after = start.map_or(&request.messages[..0], |i| &request.messages[i + 1..]);
        let mut steps = Vec::new();
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut rounds = 0;
        for message in after {
            if message.role == ChatRole::Assistant {
                rounds += 1;
            }
            for block in &message.content {
                match block {
                    Block::ToolUse { id, name, input } if message.role == ChatRole::Assistant => {
                        index.insert(id, steps.len());
                        steps.push(Step {
                            name: name.clone(),
                            input: input.clone(),
                            outcome: Outcome::Missing,
                        });
                    }
                    Block::ToolResult {
                        tool_use_id,
                        content,
                        is_error,
                    } => {
                        if let Some(&i) = index.get(tool_use_id.as_str()) {
                            steps[i].outcome = outcome(content, *is_error);
                        }
                    }
                    _ => {}
                }
            }
        }
        let mut target = target::find(&request.system, &text);
        if let Some(t) = &mut target {
            resolve(t, &steps);
        }
        Turn {
            intent: intent::recognise(&text),
            target,
            text,
            steps,
            rounds,
            offered: request.tools.iter().map(|t| t.name.clone()).collect(),
            refusals: refusals(request),
        }
    }

    /// The last call of `name`.
    pub fn step(&self, name: &str) -> Option<&Step> {
        self.steps.iter().rev().find(|s| s.name == name)
    }

    /// The JSON answer of the last call of `name`.
    pub fn json(&self, name: &str) -> Option<&Value> {
        match &self.step(name)?.outcome {
            Outcome::Json(v) => Some(v),
            _ => None,
        }
    }

    /// The first call that failed: (tool, error text).
    pub fn error(&self) -> Option<(&str, &str)> {
        self.steps.iter().find_map(|s| match &s.outcome {
            Outcome::Error(e) => Some((s.name.as_str(), e.as_str())),
            _ => None,
        })
    }

    /// True when the same call (name and input) was already made.
    pub fn made(&self, name: &str, input: &Value) -> bool {
        self.steps
            .iter()
            .any(|s| s.name == name && &s.input == input)
    }

    pub fn offers(&self, name: &str) -> bool {
        self.offered.iter().any(|t| t == name)
    }
}

/// The refused `add_members_to_catalog` calls of the history.
fn refusals(request: &ChatRequest) -> Vec<Refusal> {
    let mut proposals: HashMap<&str, Vec<String>> = HashMap::new();
    let mut out = Vec::new();
    for block in request.messages.iter().flat_map(|m| &m.content) {
        match block {
            Block::ToolUse { id, name, input } if name == "add_members_to_catalog" => {
                let codes = input
                    .get("picks")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|p| p.get("member_code").and_then(Value::as_str))
                    .map(str::to_string)
                    .collect();
                proposals.insert(id, codes);
            }
            Block::ToolResult {
                tool_use_id,
                content,
                is_error: false,
            } if content.contains(crate::agent::history::REFUSED) => {
                if let Some(codes) = proposals.get(tool_use_id.as_str()) {
                    out.push(Refusal {
                        codes: codes.clone(),
                        reason: reason_of(content),
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// The reason in a refusal's text: the wrapped part, as written.
fn reason_of(content: &str) -> String {
    let start = content.find("<external_content");
    let end = content
        .rfind("</external_content>")
        .map(|i| i + "</external_content>".len());
    match (start, end) {
        (Some(s), Some(e)) if s < e => crate::llm::external::for_people(&content[s..e])
            .trim()
            .to_string(),
        _ => String::new(),
    }
}

fn outcome(content: &str, is_error: bool) -> Outcome {
    if is_error {
        return Outcome::Error(content.trim().to_string());
    }
    match serde_json::from_str::<Value>(content) {
        // Read as data, wrappers off: the planner quotes it to people and
        // passes it on to tools as written.
        Ok(v) if v.is_object() => Outcome::Json(crate::llm::external::json_for_people(v)),
        _ => Outcome::Text(content.to_string()),
    }
}

/// A reference the user typed, once `get_request` read it by that
/// reference: the target becomes the request read, checked.
fn resolve(target: &mut Target, steps: &[Step]) {
    let Some(asked) = &target.unverified_reference else {
        return;
    };
    let read = steps.iter().rev().find_map(|s| match &s.outcome {
        Outcome::Json(v)
            if s.name == "get_request"
                && s.input
                    .get("reference")
                    .and_then(Value::as_str)
                    .is_some_and(|r| r.eq_ignore_ascii_case(asked)) =>
        {
            Some(v.get("request").unwrap_or(v))
        }
        _ => None,
    });
    let id = read
        .filter(|r| {
            r.get("reference")
                .and_then(Value::as_str)
                .is_some_and(|r| r.eq_ignore_ascii_case(asked))
        })
        .and_then(|r| r.get("id")?.as_i64());
    if let Some(id) = id {
        target.id = id;
        target.unverified_reference = None;
    }
}
