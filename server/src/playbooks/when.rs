//! `when`: the small boolean language of a playbook's `activation.when` and
//! of its steps' guards, e.g. `'sales' in profiles`,
//! `request.participants > 200 and station == 'chat'`,
//! `not ('junior' in profiles) or request.event_type in ['seminaire', 'conference']`.
//!
//! Parsed with winnow into a tree and evaluated over a whitelist of fields
//! ([`FIELDS`]); nothing is ever evaluated as code. Unknown fields, syntax
//! errors and type errors are all refused by [`parse`], with the 1-based
//! column and a French message, so a definition is checked when it is
//! saved, not when a turn runs.
//!
//! Grammar (lowest binding first; keywords are lower-case):
//!
//! ```text
//! expr       := and ( ("or" | "||") and )*
//! and        := unary ( ("and" | "&&") unary )*
//! unary      := ("not" | "!") unary | "(" expr ")" | comparison
//! comparison := value ( op value )?          -- a value alone is a truthiness test
//! op         := "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not" "in"
//! value      := field | literal | "[" ( literal ( "," literal )* ","? )? "]"
//! field      := ident ( "." ident )*        -- one of FIELDS
//! literal    := 'text' | "text" | -?digits(.digits)? | true | false | null
//! ```
//!
//! Strings escape only `\\`, `\'` and `\"`. Types: `==`/`!=` need both
//! sides of one kind (or one side `null`); `<`, `<=`, `>`, `>=` need
//! numbers; `in` looks a text up in a list field, or any value up in a list
//! literal of its kind; a value alone must be a field or `true`/`false`.
//!
//! Semantics over nulls: a field of a null `request` is null; `== null`
//! tests it; `<`, `>`… with a null side are false; `x in` a null list is
//! false; `!=` and `not in` are exactly the negations of `==` and `in`.
//! A bare field is true when non-null, non-empty and not false. Texts
//! compare exactly (slugs and profiles are lower-case).

mod ast;
mod eval;
pub mod facts;
mod fields;
mod parser;
mod types;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use eval::{Facts, RequestFacts};
pub use facts::facts_for;
pub use fields::{Field, FieldKind, FIELDS};

use std::fmt;

/// Longest accepted source, in characters: expressions are one-liners, and
/// the bound keeps parsing and evaluation shallow.
pub const MAX_CHARS: usize = 2000;

/// A parsed, well-typed expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr(ast::Node);

/// Why a source was refused, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("colonne {column} : {message}")]
pub struct WhenError {
    /// 1-based, in characters of the source.
    pub column: usize,
    /// French.
    pub message: String,
}

/// Parses and checks `source`: syntax, fields and types.
pub fn parse(source: &str) -> Result<Expr, WhenError> {
    if let Some((offset, _)) = source.char_indices().nth(MAX_CHARS) {
        return Err(WhenError {
            column: column_of(source, offset),
            message: format!("expression trop longue : {MAX_CHARS} caractères au plus"),
        });
    }
    parser::parse(source)
        .map(Expr)
        .map_err(|located| WhenError {
            column: column_of(source, located.offset),
            message: located.message,
        })
}

/// The 1-based character column of a byte offset.
fn column_of(source: &str, offset: usize) -> usize {
    source
        .get(..offset)
        .map_or(source.chars().count(), |head| head.chars().count())
        + 1
}

impl Expr {
    /// Whether the expression holds for `facts`.
    pub fn eval(&self, facts: &Facts) -> bool {
        eval::eval(&self.0, facts)
    }

    /// The whitelisted fields it reads, in order of first appearance.
    pub fn fields(&self) -> Vec<&'static str> {
        let mut names = Vec::new();
        self.0.collect_fields(&mut names);
        names
    }
}

/// The canonical text: minimal parentheses, single quotes, `and`/`or`/`not`.
/// Parsing it gives the same expression back.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
