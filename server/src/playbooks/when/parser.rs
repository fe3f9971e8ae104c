//! The grammar (see the module doc of `when`), written with winnow's
//! combinators over `&str`. Every refusal is a cut carrying its French
//! message and the input left at the faulty spot, from which `parse` turns
//! it into a column. Fields are resolved and comparisons typed as they are
//! read, so the errors point at the operand at fault.

use super::ast::{CmpOp, Literal, Node, Operand};
use super::fields;
use super::types::{check_comparison, check_list_element, check_truthy, Side};
use winnow::ascii::{digit1, multispace0};
use winnow::combinator::{alt, not as not_followed_by, opt, peek, terminated};
use winnow::error::{ErrMode, ParserError};
use winnow::token::{any, literal, one_of, take_while};
use winnow::Parser;

/// Parentheses and `not`s nest at most this deep: the parser and the
/// evaluator recurse, and an admin's typo must not exhaust the stack.
const MAX_DEPTH: usize = 32;

/// Where parsing stopped and why.
#[derive(Debug)]
pub(super) struct Failure {
    /// Bytes of input left at the faulty spot.
    remaining: usize,
    /// French; none for a plain "this alternative does not match".
    message: Option<String>,
}

impl<'s> ParserError<&'s str> for Failure {
    type Inner = Self;

    fn from_input(input: &&'s str) -> Self {
        Failure {
            remaining: input.len(),
            message: None,
        }
    }

    /// Of two failed alternatives, keep the explained one, else the one
    /// that went further.
    fn or(self, other: Self) -> Self {
        match (&self.message, &other.message) {
            (Some(_), None) => self,
            (None, Some(_)) => other,
            _ if self.remaining < other.remaining => self,
            _ => other,
        }
    }

    fn into_inner(self) -> Result<Self, Self> {
        Ok(self)
    }
}

type PResult<T> = Result<T, ErrMode<Failure>>;

/// A refusal at the spot where `remaining` bytes of input are left.
fn cut_at(remaining: usize, message: impl Into<String>) -> ErrMode<Failure> {
    ErrMode::Cut(Failure {
        remaining,
        message: Some(message.into()),
    })
}

fn backtrack(input: &str) -> ErrMode<Failure> {
    ErrMode::Backtrack(Failure {
        remaining: input.len(),
        message: None,
    })
}

/// A byte offset into the source and the French reason.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Located {
    pub offset: usize,
    pub message: String,
}

/// Parses a whole expression.
pub(super) fn parse(source: &str) -> Result<Node, Located> {
    let mut input = source;
    whole(&mut input).map_err(|error| {
        let failure = match error {
            ErrMode::Backtrack(f) | ErrMode::Cut(f) => Some(f),
            ErrMode::Incomplete(_) => None,
        };
        let offset = failure
            .as_ref()
            .map_or(0, |f| source.len().saturating_sub(f.remaining));
        let rest = source.get(offset..).unwrap_or_default();
        let message = failure
            .and_then(|f| f.message)
            .unwrap_or_else(|| format!("expression illisible, trouvé {}", found(rest)));
        Located { offset, message }
    })
}

fn whole(i: &mut &str) -> PResult<Node> {
    let source = *i;
    ws(i)?;
    if i.is_empty() {
        return Err(cut_at(
            source.len(),
            "expression vide : écrivez une condition, par exemple « 'sales' in profiles »",
        ));
    }
    let node = expect(i, |i| or_expr(i, 0), "condition attendue")?;
    ws(i)?;
    if !i.is_empty() {
        let message = if i.starts_with(')') {
            "« ) » sans parenthèse ouvrante".to_string()
        } else {
            format!("« and » ou « or » attendu, trouvé {}", found(i))
        };
        return Err(cut_at(i.len(), message));
    }
    Ok(node)
}

/// « « word » » for the token starting `rest`, or the end of the expression.
fn found(rest: &str) -> String {
    let Some(first) = rest.chars().next() else {
        return "la fin de l'expression".to_string();
    };
    let token: String = if is_ident_char(first) {
        rest.chars().take_while(|c| is_ident_char(*c)).collect()
    } else {
        first.to_string()
    };
    format!("« {token} »")
}

/// Runs `parser`; if nothing there matches, refuses with « {what}, trouvé … ».
fn expect<'s, T>(
    i: &mut &'s str,
    mut parser: impl FnMut(&mut &'s str) -> PResult<T>,
    what: &str,
) -> PResult<T> {
    let start = *i;
    match parser(i) {
        Err(ErrMode::Backtrack(_)) => {
            *i = start;
            Err(cut_at(
                start.len(),
                format!("{what}, trouvé {}", found(start)),
            ))
        }
        other => other,
    }
}

fn ws(i: &mut &str) -> PResult<()> {
    multispace0.void().parse_next(i)
}

// Letters beyond ASCII read as part of a name, so `requête` is reported
// whole as an unknown field rather than cut at the « ê ».
fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `word` as a whole word (`not` but not `notes`).
fn keyword<'s>(word: &'static str) -> impl Parser<&'s str, &'s str, ErrMode<Failure>> {
    terminated(literal(word), not_followed_by(one_of(is_ident_char)))
}

fn or_expr(i: &mut &str, depth: usize) -> PResult<Node> {
    let mut node = and_expr(i, depth)?;
    loop {
        let before = *i;
        ws(i)?;
        let Some(op) = opt(alt((keyword("or"), literal("||")))).parse_next(i)? else {
            *i = before;
            return Ok(node);
        };
        ws(i)?;
        let what = format!("condition attendue après « {op} »");
        let right = expect(i, |i| and_expr(i, depth), &what)?;
        node = Node::Or(Box::new(node), Box::new(right));
    }
}

fn and_expr(i: &mut &str, depth: usize) -> PResult<Node> {
    let mut node = unary(i, depth)?;
    loop {
        let before = *i;
        ws(i)?;
        let Some(op) = opt(alt((keyword("and"), literal("&&")))).parse_next(i)? else {
            *i = before;
            return Ok(node);
        };
        ws(i)?;
        let what = format!("condition attendue après « {op} »");
        let right = expect(i, |i| unary(i, depth), &what)?;
        node = Node::And(Box::new(node), Box::new(right));
    }
}

fn unary(i: &mut &str, depth: usize) -> PResult<Node> {
    if depth >= MAX_DEPTH {
        return Err(cut_at(
            i.len(),
            format!("expression trop imbriquée ({MAX_DEPTH} niveaux de parenthèses ou de « not » au plus)"),
        ));
    }
    ws(i)?;
    let negation = alt((
        keyword("not"),
        terminated(literal("!"), not_followed_by('=')),
    ));
    if let Some(op) = opt(negation).parse_next(i)? {
        ws(i)?;
        let what = format!("condition attendue après « {op} »");
        let inner = expect(i, |i| unary(i, depth + 1), &what)?;
        return Ok(Node::Not(Box::new(inner)));
    }
    if opt('(').parse_next(i)?.is_some() {
        ws(i)?;
        let inner = expect(
            i,
            |i| or_expr(i, depth + 1),
            "condition attendue après « ( »",
        )?;
        ws(i)?;
        if opt(')').parse_next(i)?.is_none() {
            return Err(cut_at(
                i.len(),
                format!("parenthèse fermante « ) » attendue, trouvé {}", found(i)),
            ));
        }
        return Ok(inner);
    }
    comparison(i)
}

/// `value (op value)?`; a value alone is a truthiness test.
fn comparison(i: &mut &str) -> PResult<Node> {
    let start = *i;
    let left = value(i)?;
    let left_text = start.get(..start.len() - i.len()).unwrap_or_default();
    let after_left = *i;
    ws(i)?;
    match comparison_operator(i)? {
        Some(op) => {
            ws(i)?;
            let right_start = *i;
            let what = format!("valeur attendue après « {} »", op.symbol());
            let right = expect(i, value, &what)?;
            check_comparison(&left, op, &right).map_err(|refusal| {
                let at = match refusal.side {
                    Side::Left => start.len(),
                    Side::Right => right_start.len(),
                };
                cut_at(at, refusal.message)
            })?;
            Ok(Node::Compare { left, op, right })
        }
        None if ends_condition(i) => {
            *i = after_left;
            check_truthy(&left).map_err(|message| cut_at(start.len(), message))?;
            Ok(Node::Truthy(left))
        }
        None => Err(cut_at(
            i.len(),
            format!(
                "opérateur attendu après « {left_text} », trouvé {}",
                found(i)
            ),
        )),
    }
}

/// What may follow a bare value: the end, `)`, `and`, `or`.
fn ends_condition(i: &mut &str) -> bool {
    i.is_empty()
        || peek(alt((
            literal(")"),
            literal("&&"),
            literal("||"),
            keyword("and"),
            keyword("or"),
        )))
        .parse_next(i)
        .is_ok()
}

fn comparison_operator(i: &mut &str) -> PResult<Option<CmpOp>> {
    if i.starts_with('=') && !i.starts_with("==") {
        return Err(cut_at(
            i.len(),
            "« = » seul ne compare pas : écrivez « == »",
        ));
    }
    opt(alt((
        literal("==").value(CmpOp::Eq),
        literal("!=").value(CmpOp::Ne),
        literal("<=").value(CmpOp::Le),
        literal(">=").value(CmpOp::Ge),
        literal("<").value(CmpOp::Lt),
        literal(">").value(CmpOp::Gt),
        (keyword("not"), multispace0, keyword("in")).value(CmpOp::NotIn),
        keyword("in").value(CmpOp::In),
    )))
    .parse_next(i)
}

/// A literal, a list literal or a field path.
fn value(i: &mut &str) -> PResult<Operand> {
    match i.chars().next() {
        Some('[') => list(i).map(Operand::List),
        Some(c) if is_ident_start(c) => word(i),
        Some(_) => literal_value(i).map(Operand::Literal),
        None => Err(backtrack(i)),
    }
}

fn literal_value(i: &mut &str) -> PResult<Literal> {
    alt((
        string.map(Literal::Text),
        number.map(Literal::Number),
        keyword("true").value(Literal::Bool(true)),
        keyword("false").value(Literal::Bool(false)),
        keyword("null").value(Literal::Null),
    ))
    .parse_next(i)
}

fn ident<'s>(i: &mut &'s str) -> PResult<&'s str> {
    (one_of(is_ident_start), take_while(0.., is_ident_char))
        .take()
        .parse_next(i)
}

/// `true`, `false`, `null` or a whitelisted field path `ident(.ident)*`.
fn word(i: &mut &str) -> PResult<Operand> {
    let start = *i;
    match ident(i)? {
        "true" => return Ok(Operand::Literal(Literal::Bool(true))),
        "false" => return Ok(Operand::Literal(Literal::Bool(false))),
        "null" => return Ok(Operand::Literal(Literal::Null)),
        // Operators are not values: let the caller say what it expected.
        "and" | "or" | "not" | "in" => {
            *i = start;
            return Err(backtrack(i));
        }
        _ => {}
    }
    while opt('.').parse_next(i)?.is_some() {
        if opt(ident).parse_next(i)?.is_none() {
            let so_far = start.get(..start.len() - i.len()).unwrap_or_default();
            return Err(cut_at(
                i.len(),
                format!(
                    "nom de champ attendu après « {so_far} », trouvé {}",
                    found(i)
                ),
            ));
        }
    }
    let path = start.get(..start.len() - i.len()).unwrap_or_default();
    match fields::lookup(path) {
        Some(field) => Ok(Operand::Field(field)),
        None => {
            let hint = fields::closest(path)
                .map(|name| format!(" (vouliez-vous dire « {name} » ?)"))
                .unwrap_or_default();
            Err(cut_at(
                start.len(),
                format!(
                    "champ inconnu « {path} »{hint} : champs permis : {}",
                    fields::names()
                ),
            ))
        }
    }
}

/// Single- or double-quoted; `\\`, `\'` and `\"` are the only escapes.
fn string(i: &mut &str) -> PResult<String> {
    let start = *i;
    let quote = one_of(['\'', '"']).parse_next(i)?;
    let mut text = String::new();
    loop {
        let at = *i;
        let unclosed = || {
            cut_at(
                start.len(),
                format!("chaîne non fermée : il manque le {quote} final"),
            )
        };
        match opt(any).parse_next(i)? {
            None => return Err(unclosed()),
            Some(c) if c == quote => return Ok(text),
            Some('\\') => match opt(any).parse_next(i)? {
                Some(escaped @ ('\\' | '\'' | '"')) => text.push(escaped),
                Some(other) => {
                    return Err(cut_at(
                        at.len(),
                        format!(
                        "échappement inconnu « \\{other} » : seuls \\\\, \\' et \\\" sont permis"
                    ),
                    ))
                }
                None => return Err(unclosed()),
            },
            Some(c) => text.push(c),
        }
    }
}

/// `-?digits(.digits)?`, read as f64.
fn number(i: &mut &str) -> PResult<f64> {
    let start = *i;
    let text = (opt('-'), digit1, opt(('.', digit1)))
        .take()
        .parse_next(i)?;
    match text.parse::<f64>() {
        Ok(n) if n.is_finite() => Ok(n),
        _ => Err(cut_at(start.len(), format!("nombre trop grand « {text} »"))),
    }
}

/// `[literal, …]`, all of one type (null aside); a trailing comma is fine.
fn list(i: &mut &str) -> PResult<Vec<Literal>> {
    '['.parse_next(i)?;
    let mut items = Vec::new();
    loop {
        ws(i)?;
        if opt(']').parse_next(i)?.is_some() {
            return Ok(items);
        }
        let at = *i;
        let item = match literal_value(i) {
            Err(ErrMode::Backtrack(_)) => {
                return Err(cut_at(
                    at.len(),
                    format!(
                    "valeur attendue dans la liste (texte, nombre, true, false ou null), trouvé {}",
                    found(at)
                ),
                ))
            }
            other => other?,
        };
        check_list_element(&items, &item).map_err(|message| cut_at(at.len(), message))?;
        items.push(item);
        ws(i)?;
        if opt(',').parse_next(i)?.is_some() {
            continue;
        }
        if opt(']').parse_next(i)?.is_some() {
            return Ok(items);
        }
        return Err(cut_at(
            i.len(),
            format!("« , » ou « ] » attendu dans la liste, trouvé {}", found(i)),
        ));
    }
}
