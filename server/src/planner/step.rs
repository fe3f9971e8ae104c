//! What the planner decides for one call: tool calls to make (one round),
//! or the French answer that ends the turn.
use serde_json::Value;

#[derive(Clone, Debug, PartialEq)]
pub enum Next {
    /// Tool calls, run together before the planner is called again.
    Call(Vec<Call>),
    /// The answer; the turn ends.
    Say(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    pub name: &'static str,
    pub input: Value,
}

impl Next {
    /// One tool call.
    pub fn call(name: &'static str, input: Value) -> Next {
        Next::Call(vec![Call { name, input }])
    }
}
