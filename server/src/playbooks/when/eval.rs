//! Evaluation over the caller's context. `Facts` is the whole context an
//! expression can see: the whitelist's values, nothing else. Total: every
//! well-typed tree gives a boolean, nulls included (see the rules below).

use super::ast::{CmpOp, Literal, Node, Operand};

/// The caller's context, as the whitelist names it.
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Facts {
    /// The caller's role (`admin`) and profiles, deduplicated.
    #[serde(default)]
    pub profiles: Vec<String>,
    #[serde(default)]
    pub station: String,
    /// The automation event that opened the turn (`organizer_comment`).
    #[serde(default)]
    pub event: Option<String>,
    #[serde(default)]
    pub request: Option<RequestFacts>,
}

#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct RequestFacts {
    #[serde(default)]
    pub participants: Option<i64>,
    #[serde(default)]
    pub event_type: Option<String>,
    #[serde(default)]
    pub status: String,
    /// The pool's slug.
    #[serde(default)]
    pub pool: Option<String>,
    #[serde(default)]
    pub configurations: Vec<String>,
    #[serde(default)]
    pub postal_codes: Vec<String>,
    #[serde(default)]
    pub budget_eur: Option<f64>,
    #[serde(default)]
    pub has_catalogue: bool,
    /// An organizer commented a sent catalogue of the request.
    #[serde(default)]
    pub organizer_comment: bool,
}

/// A value as the rules see it, borrowed from the facts or the tree.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Value<'a> {
    Null,
    Bool(bool),
    Number(f64),
    Text(&'a str),
    List(&'a [String]),
    Present,
}

fn text(value: Option<&String>) -> Value<'_> {
    value.map_or(Value::Null, |s| Value::Text(s))
}

/// The value of a whitelisted field; a field of a null request is null.
fn field_value<'a>(name: &str, facts: &'a Facts) -> Value<'a> {
    match name {
        "profiles" => return Value::List(&facts.profiles),
        "station" => return Value::Text(&facts.station),
        "event" => return text(facts.event.as_ref()),
        _ => {}
    }
    let Some(request) = facts.request.as_ref() else {
        return Value::Null;
    };
    match name {
        "request" => Value::Present,
        "event_type" | "request.event_type" => text(request.event_type.as_ref()),
        // i64 → f64 is exact below 2^53, far above any head count.
        "request.participants" => request
            .participants
            .map_or(Value::Null, |n| Value::Number(n as f64)),
        "request.status" => Value::Text(&request.status),
        "request.pool" => text(request.pool.as_ref()),
        "request.configurations" => Value::List(&request.configurations),
        "request.postal_codes" => Value::List(&request.postal_codes),
        "request.budget_eur" => request.budget_eur.map_or(Value::Null, Value::Number),
        "request.has_catalogue" => Value::Bool(request.has_catalogue),
        "request.organizer_comment" => Value::Bool(request.organizer_comment),
        // Parsing only lets whitelisted names through.
        _ => Value::Null,
    }
}

fn literal_value(literal: &Literal) -> Value<'_> {
    match literal {
        Literal::Null => Value::Null,
        Literal::Bool(b) => Value::Bool(*b),
        Literal::Number(n) => Value::Number(*n),
        Literal::Text(s) => Value::Text(s),
    }
}

fn operand_value<'a>(operand: &'a Operand, facts: &'a Facts) -> Value<'a> {
    match operand {
        Operand::Field(field) => field_value(field.name, facts),
        Operand::Literal(literal) => literal_value(literal),
        // Only the right side of `in` holds a list literal; handled there.
        Operand::List(_) => Value::Null,
    }
}

/// Non-null, non-empty, not false (0 counts as set: it is a value).
fn truthy(value: Value<'_>) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => b,
        Value::Text(s) => !s.is_empty(),
        Value::List(items) => !items.is_empty(),
        Value::Number(_) | Value::Present => true,
    }
}

/// `null == null` is true; numbers compare as f64.
fn equal(a: Value<'_>, b: Value<'_>) -> bool {
    a == b
}

/// Ordering: false as soon as a side is null.
fn order(a: Value<'_>, b: Value<'_>, op: CmpOp) -> bool {
    let (Value::Number(a), Value::Number(b)) = (a, b) else {
        return false;
    };
    match op {
        CmpOp::Lt => a < b,
        CmpOp::Le => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::Ge => a >= b,
        _ => false,
    }
}

/// `left in right`: false when the list field is null.
fn member(left: Value<'_>, right: &Operand, facts: &Facts) -> bool {
    match right {
        Operand::List(items) => items.iter().any(|item| equal(left, literal_value(item))),
        other => match (left, operand_value(other, facts)) {
            (Value::Text(needle), Value::List(items)) => items.iter().any(|item| item == needle),
            _ => false,
        },
    }
}

pub(super) fn eval(node: &Node, facts: &Facts) -> bool {
    match node {
        Node::Or(a, b) => eval(a, facts) || eval(b, facts),
        Node::And(a, b) => eval(a, facts) && eval(b, facts),
        Node::Not(a) => !eval(a, facts),
        Node::Truthy(operand) => truthy(operand_value(operand, facts)),
        Node::Compare { left, op, right } => {
            let l = operand_value(left, facts);
            match op {
                CmpOp::Eq => equal(l, operand_value(right, facts)),
                // `a != b` is exactly `not (a == b)`, nulls included.
                CmpOp::Ne => !equal(l, operand_value(right, facts)),
                CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge => {
                    order(l, operand_value(right, facts), *op)
                }
                CmpOp::In => member(l, right, facts),
                // Likewise `a not in b` is `not (a in b)`.
                CmpOp::NotIn => !member(l, right, facts),
            }
        }
    }
}
