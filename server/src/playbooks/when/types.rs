//! Type rules, checked while parsing so a badly typed expression is refused
//! at save time (`profiles > 3`, `request.participants == 'x'`) rather than
//! silently false at every turn.

use super::ast::{CmpOp, Literal, Operand};
use super::fields::FieldKind;

/// What an operand holds, as far as the rules care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Null,
    Text,
    Number,
    Bool,
    TextList,
    Object,
    /// A list literal; its elements' type (`Null` when empty or all null).
    List(Scalar),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scalar {
    Null,
    Text,
    Number,
    Bool,
}

impl Scalar {
    fn of(literal: &Literal) -> Scalar {
        match literal {
            Literal::Null => Scalar::Null,
            Literal::Bool(_) => Scalar::Bool,
            Literal::Number(_) => Scalar::Number,
            Literal::Text(_) => Scalar::Text,
        }
    }

    fn ty(self) -> Ty {
        match self {
            Scalar::Null => Ty::Null,
            Scalar::Text => Ty::Text,
            Scalar::Number => Ty::Number,
            Scalar::Bool => Ty::Bool,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Scalar::Null => "null",
            Scalar::Text => "un texte",
            Scalar::Number => "un nombre",
            Scalar::Bool => "un booléen",
        }
    }
}

fn ty(operand: &Operand) -> Ty {
    match operand {
        Operand::Field(field) => match field.kind {
            FieldKind::Text => Ty::Text,
            FieldKind::Number => Ty::Number,
            FieldKind::Bool => Ty::Bool,
            FieldKind::TextList => Ty::TextList,
            FieldKind::Object => Ty::Object,
        },
        Operand::Literal(literal) => Scalar::of(literal).ty(),
        // Parsing already refused a list mixing types.
        Operand::List(items) => Ty::List(
            items
                .iter()
                .map(Scalar::of)
                .find(|s| *s != Scalar::Null)
                .unwrap_or(Scalar::Null),
        ),
    }
}

fn label(ty: Ty) -> &'static str {
    match ty {
        Ty::Null => "null",
        Ty::Text => "un texte",
        Ty::Number => "un nombre",
        Ty::Bool => "un booléen",
        Ty::TextList => "une liste de textes",
        Ty::Object => "un objet",
        Ty::List(_) => "une liste",
    }
}

fn is_scalar(ty: Ty) -> bool {
    matches!(ty, Ty::Null | Ty::Text | Ty::Number | Ty::Bool)
}

/// Which side of a comparison an error points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Side {
    Left,
    Right,
}

/// A refused comparison: the side at fault and the French reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Refusal {
    pub side: Side,
    pub message: String,
}

fn refuse(side: Side, message: String) -> Result<(), Refusal> {
    Err(Refusal { side, message })
}

/// Whether `left op right` means something.
pub(super) fn check_comparison(left: &Operand, op: CmpOp, right: &Operand) -> Result<(), Refusal> {
    let (l, r) = (ty(left), ty(right));
    let symbol = op.symbol();
    match op {
        CmpOp::Eq | CmpOp::Ne => {
            for (side, operand, t) in [(Side::Left, left, l), (Side::Right, right, r)] {
                if matches!(t, Ty::List(_)) {
                    return refuse(
                        side,
                        format!("une liste ne se compare pas avec « {symbol} » : utilisez « in »"),
                    );
                }
                if t == Ty::TextList && l != Ty::Null && r != Ty::Null {
                    return refuse(
                        side,
                        format!("« {operand} » est une liste de textes : utilisez « in » (par exemple « 'x' in {operand} »)"),
                    );
                }
                if t == Ty::Object && l != Ty::Null && r != Ty::Null {
                    return refuse(
                        side,
                        format!("« {operand} » se compare seulement à null (ou s'écrit seul)"),
                    );
                }
            }
            if l == r || l == Ty::Null || r == Ty::Null {
                Ok(())
            } else {
                refuse(
                    Side::Right,
                    format!(
                        "« {left} » est {}, « {right} » est {} : comparaison impossible",
                        label(l),
                        label(r)
                    ),
                )
            }
        }
        CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge => {
            for (side, operand, t) in [(Side::Left, left, l), (Side::Right, right, r)] {
                if t != Ty::Number {
                    return refuse(
                        side,
                        format!(
                            "« {symbol} » compare des nombres : « {operand} » est {}",
                            label(t)
                        ),
                    );
                }
            }
            Ok(())
        }
        CmpOp::In | CmpOp::NotIn => {
            let element = match r {
                Ty::TextList => Ty::Text,
                Ty::List(scalar) => scalar.ty(),
                _ => {
                    return refuse(
                        Side::Right,
                        format!(
                            "« {symbol} » attend une liste à droite : « {right} » est {}",
                            label(r)
                        ),
                    )
                }
            };
            if !is_scalar(l) {
                return refuse(
                    Side::Left,
                    format!(
                        "« {symbol} » cherche une valeur simple dans une liste : « {left} » est {}",
                        label(l)
                    ),
                );
            }
            if l == element || l == Ty::Null || element == Ty::Null {
                Ok(())
            } else {
                refuse(
                    Side::Left,
                    format!(
                        "« {left} » est {}, mais « {right} » contient {}",
                        label(l),
                        plural(element)
                    ),
                )
            }
        }
    }
}

fn plural(element: Ty) -> &'static str {
    match element {
        Ty::Number => "des nombres",
        Ty::Bool => "des booléens",
        _ => "des textes",
    }
}

/// Whether `operand` may stand alone as a condition: a field (tested for
/// being set) or `true`/`false`; a lone `'x'` or `3` is surely a mistake.
pub(super) fn check_truthy(operand: &Operand) -> Result<(), String> {
    match operand {
        Operand::Field(_) | Operand::Literal(Literal::Bool(_)) => Ok(()),
        Operand::Literal(literal) => Err(format!(
            "« {operand} » seul n'est pas une condition ({}) : comparez-le à un champ",
            Scalar::of(literal).label()
        )),
        Operand::List(_) => Err(format!(
            "« {operand} » seule n'est pas une condition : écrivez « champ in {operand} »"
        )),
    }
}

/// The elements of a list literal share one type (null aside).
pub(super) fn check_list_element(items: &[Literal], next: &Literal) -> Result<(), String> {
    let next_scalar = Scalar::of(next);
    match items.iter().map(Scalar::of).find(|s| *s != Scalar::Null) {
        Some(first) if next_scalar != Scalar::Null && next_scalar != first => Err(format!(
            "liste mêlant {} et {} : une liste contient des valeurs d'un seul type",
            first.label(),
            next_scalar.label()
        )),
        _ => Ok(()),
    }
}
