//! The tree a `when` expression parses into, and its canonical text
//! (`Display`): parsing that text gives the same tree back, which the
//! console uses to show an expression the way the server understood it.

use super::fields::Field;
use std::fmt;

/// A boolean node. `Or`/`And` are binary and left-associative, as parsed.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Node {
    Or(Box<Node>, Box<Node>),
    And(Box<Node>, Box<Node>),
    Not(Box<Node>),
    Compare {
        left: Operand,
        op: CmpOp,
        right: Operand,
    },
    /// A bare operand: true when non-null, non-empty and not false.
    Truthy(Operand),
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Operand {
    Field(&'static Field),
    Literal(Literal),
    List(Vec<Literal>),
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Literal {
    Null,
    Bool(bool),
    Number(f64),
    Text(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
}

impl CmpOp {
    pub(super) fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::In => "in",
            CmpOp::NotIn => "not in",
        }
    }
}

impl Node {
    /// Binding strength: a child binding less than its parent needs parentheses.
    fn precedence(&self) -> u8 {
        match self {
            Node::Or(..) => 1,
            Node::And(..) => 2,
            Node::Not(_) => 3,
            Node::Compare { .. } | Node::Truthy(_) => 4,
        }
    }

    /// Every field read, in order of first appearance.
    pub(super) fn collect_fields(&self, into: &mut Vec<&'static str>) {
        match self {
            Node::Or(a, b) | Node::And(a, b) => {
                a.collect_fields(into);
                b.collect_fields(into);
            }
            Node::Not(a) => a.collect_fields(into),
            Node::Compare { left, right, .. } => {
                left.collect_field(into);
                right.collect_field(into);
            }
            Node::Truthy(operand) => operand.collect_field(into),
        }
    }
}

impl Operand {
    fn collect_field(&self, into: &mut Vec<&'static str>) {
        if let Operand::Field(field) = self {
            if !into.contains(&field.name) {
                into.push(field.name);
            }
        }
    }
}

/// Writes `child`, in parentheses when it binds less than `floor`.
fn child(f: &mut fmt::Formatter<'_>, node: &Node, floor: u8) -> fmt::Result {
    if node.precedence() < floor {
        write!(f, "({node})")
    } else {
        write!(f, "{node}")
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Left-associative: the right child of the same operator keeps
            // its parentheses, or it would reparse as a different tree.
            Node::Or(a, b) => {
                child(f, a, 1)?;
                f.write_str(" or ")?;
                child(f, b, 2)
            }
            Node::And(a, b) => {
                child(f, a, 2)?;
                f.write_str(" and ")?;
                child(f, b, 3)
            }
            Node::Not(a) => {
                f.write_str("not ")?;
                child(f, a, 3)
            }
            Node::Compare { left, op, right } => write!(f, "{left} {} {right}", op.symbol()),
            Node::Truthy(operand) => write!(f, "{operand}"),
        }
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Field(field) => f.write_str(field.name),
            Operand::Literal(literal) => write!(f, "{literal}"),
            Operand::List(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
        }
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Null => f.write_str("null"),
            Literal::Bool(b) => write!(f, "{b}"),
            // Rust prints the shortest decimal that reads back as the same
            // f64, without an exponent: exactly the grammar's numbers.
            Literal::Number(n) => write!(f, "{n}"),
            Literal::Text(text) => {
                f.write_str("'")?;
                for c in text.chars() {
                    if c == '\'' || c == '\\' {
                        f.write_str("\\")?;
                    }
                    write!(f, "{c}")?;
                }
                f.write_str("'")
            }
        }
    }
}
