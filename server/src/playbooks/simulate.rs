//! The simulator (seed 004): the decision function dry-run, for the console
//! and `maxy playbooks simulate`. It reads one JSON object and answers one,
//! and writes nothing anywhere.
//!
//! Two input forms:
//! - explicit ([`explicit`]): the thresholds and the candidates as they
//!   would reach [`decide`](super::decide::decide) — no database needed;
//! - from the configuration (`station`, `profiles`, `context`, `action`):
//!   eligibility, triggers and scores computed as in production.
//!
//! The output, whatever the form: `{"mode", "opened", "suggested",
//! "candidates": [{"name", "score", "band", "eligible", "reason"}]}`
//! ([`output`]).
use super::decide::{decide, Decision};
use serde_json::{json, Value};

pub mod cli;
mod configuration;
mod explicit_input;

pub use configuration::from_configuration;

/// Why a simulation was refused. Messages are French and say where.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SimulateError {
    /// The input is refused; `at` is where (« candidates[2].score »),
    /// empty when it is the input as a whole.
    #[error("{}", located(at, message))]
    Invalid { at: String, message: String },
    /// The input is fine but the configuration could not be read
    /// (database, scorer).
    #[error("{0}")]
    Unavailable(String),
}

impl SimulateError {
    pub fn invalid(at: impl Into<String>, message: impl Into<String>) -> Self {
        SimulateError::Invalid {
            at: at.into(),
            message: message.into(),
        }
    }
}

fn located(at: &str, message: &str) -> String {
    if at.is_empty() {
        message.to_string()
    } else {
        format!("{at} : {message}")
    }
}

/// One JSON value from text, with a French error that says where it breaks.
pub fn parse(text: &str) -> Result<Value, SimulateError> {
    use serde_json::error::Category;
    if text.trim().is_empty() {
        return Err(SimulateError::invalid(
            "",
            "entrée vide : un objet JSON est attendu",
        ));
    }
    serde_json::from_str(text).map_err(|e| {
        let what = match e.classify() {
            Category::Eof => "JSON incomplet",
            Category::Syntax | Category::Data => "JSON mal formé",
            Category::Io => "entrée illisible",
        };
        SimulateError::invalid(
            "",
            format!("{what} (ligne {}, colonne {})", e.line(), e.column()),
        )
    })
}

/// The explicit form is recognised by its `candidates`.
pub fn is_explicit(input: &Value) -> bool {
    input.get("candidates").is_some()
}

/// The explicit form: validate, decide, answer.
pub fn explicit(input: &Value) -> Result<Value, SimulateError> {
    let (guidance, candidates) = explicit_input::read(input)?;
    Ok(output(&decide(&guidance, &candidates)))
}

/// The simulator's answer for a decision (both forms).
pub fn output(decision: &Decision) -> Value {
    let candidates: Vec<Value> = decision
        .candidates
        .iter()
        .map(|j| {
            json!({
                "name": j.name,
                "score": j.score,
                "band": j.band.upper(),
                "eligible": j.eligible,
                "reason": j.reason,
            })
        })
        .collect();
    json!({
        "mode": decision.mode.upper(),
        "opened": decision.opened,
        "suggested": decision.suggested,
        "candidates": candidates,
    })
}

#[cfg(test)]
mod tests;
