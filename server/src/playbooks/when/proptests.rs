//! Properties: parsing never panics, whatever the input; any well-typed
//! tree over the whitelist prints to a text that parses back to the same
//! tree; evaluation keeps the logical identities the docs promise.

use super::ast::{CmpOp, Literal, Node, Operand};
use super::fields::{lookup, FieldKind, FIELDS};
use super::*;
use proptest::prelude::*;

/// Pieces of the language, so random inputs reach deep into the grammar.
const TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    ",",
    "'",
    "\"",
    "\\",
    "not",
    "!",
    "and",
    "&&",
    "or",
    "||",
    "in",
    "==",
    "!=",
    "=",
    "<",
    "<=",
    ">",
    ">=",
    "null",
    "true",
    "false",
    "-",
    ".",
    "12",
    "3.5",
    "'sales'",
    "\"chat\"",
    "profiles",
    "station",
    "request",
    "request.participants",
    "request.event_type",
    "request.",
    "foo",
    "é",
    " ",
    "\t",
    "#",
];

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..24).prop_map(|t| t.concat())
}

fn field_of(kinds: &'static [FieldKind]) -> impl Strategy<Value = Operand> {
    let names: Vec<&'static str> = FIELDS
        .iter()
        .filter(|f| kinds.contains(&f.kind))
        .map(|f| f.name)
        .collect();
    prop::sample::select(names).prop_map(|name| match lookup(name) {
        Some(field) => Operand::Field(field),
        None => Operand::Literal(Literal::Null),
    })
}

fn text() -> impl Strategy<Value = Literal> {
    prop_oneof![
        prop::sample::select(vec![
            "sales",
            "chat",
            "seminaire",
            "it's",
            "a\\b",
            "",
            "été"
        ])
        .prop_map(|s| Literal::Text(s.to_string())),
        prop::collection::vec(any::<char>(), 0..6)
            .prop_map(|c| Literal::Text(c.into_iter().collect())),
    ]
}

fn number() -> impl Strategy<Value = Literal> {
    prop_oneof![
        (-100_000i64..100_000, 0u32..3)
            .prop_map(|(n, k)| Literal::Number(n as f64 / 10f64.powi(k as i32))),
        (-1.0e9f64..1.0e9).prop_map(Literal::Number),
    ]
}

fn boolean() -> impl Strategy<Value = Literal> {
    any::<bool>().prop_map(Literal::Bool)
}

fn compare(left: Operand, op: CmpOp, right: Operand) -> Node {
    Node::Compare { left, op, right }
}

fn equality() -> impl Strategy<Value = CmpOp> {
    prop::sample::select(vec![CmpOp::Eq, CmpOp::Ne])
}

fn membership() -> impl Strategy<Value = CmpOp> {
    prop::sample::select(vec![CmpOp::In, CmpOp::NotIn])
}

fn ordering() -> impl Strategy<Value = CmpOp> {
    prop::sample::select(vec![
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
    ])
}

const TEXT: &[FieldKind] = &[FieldKind::Text];
const NUMBER: &[FieldKind] = &[FieldKind::Number];
const BOOL: &[FieldKind] = &[FieldKind::Bool];
const LIST: &[FieldKind] = &[FieldKind::TextList];
const ANY: &[FieldKind] = &[
    FieldKind::Text,
    FieldKind::Number,
    FieldKind::Bool,
    FieldKind::TextList,
    FieldKind::Object,
];

/// One well-typed comparison or truthiness test.
fn leaf() -> impl Strategy<Value = Node> {
    let null = || Just(Operand::Literal(Literal::Null));
    prop_oneof![
        field_of(ANY).prop_map(Node::Truthy),
        boolean().prop_map(|b| Node::Truthy(Operand::Literal(b))),
        (field_of(ANY), equality()).prop_map(move |(f, op)| compare(
            f,
            op,
            Operand::Literal(Literal::Null)
        )),
        (
            field_of(TEXT),
            equality(),
            prop_oneof![
                text().prop_map(Operand::Literal),
                field_of(TEXT),
                null().boxed()
            ]
        )
            .prop_map(|(f, op, v)| compare(f, op, v)),
        (text(), equality(), field_of(TEXT)).prop_map(|(t, op, f)| compare(
            Operand::Literal(t),
            op,
            f
        )),
        (
            field_of(NUMBER),
            ordering(),
            prop_oneof![number().prop_map(Operand::Literal), field_of(NUMBER)]
        )
            .prop_map(|(f, op, v)| compare(f, op, v)),
        (field_of(BOOL), equality(), boolean()).prop_map(|(f, op, b)| compare(
            f,
            op,
            Operand::Literal(b)
        )),
        (text(), membership(), field_of(LIST)).prop_map(|(t, op, f)| compare(
            Operand::Literal(t),
            op,
            f
        )),
        (field_of(TEXT), membership(), field_of(LIST)).prop_map(|(t, op, f)| compare(t, op, f)),
        (
            field_of(TEXT),
            membership(),
            prop::collection::vec(text(), 0..4)
        )
            .prop_map(|(f, op, items)| compare(f, op, Operand::List(items))),
        (
            field_of(NUMBER),
            membership(),
            prop::collection::vec(number(), 0..4)
        )
            .prop_map(|(f, op, items)| compare(f, op, Operand::List(items))),
    ]
}

fn tree() -> impl Strategy<Value = Node> {
    leaf().prop_recursive(5, 32, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Node::Or(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Node::And(Box::new(a), Box::new(b))),
            inner.prop_map(|a| Node::Not(Box::new(a))),
        ]
    })
}

fn words() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(
        prop::sample::select(vec![
            "sales",
            "senior",
            "chat",
            "seminaire",
            "hotels",
            "theatre",
            "",
        ]),
        0..3,
    )
    .prop_map(|w| w.into_iter().map(str::to_string).collect())
}

fn maybe_word() -> impl Strategy<Value = Option<String>> {
    prop::option::of(prop::sample::select(vec![
        "seminaire",
        "chat",
        "organizer_comment",
        "hotels",
    ]))
    .prop_map(|w| w.map(str::to_string))
}

fn facts() -> impl Strategy<Value = Facts> {
    let request = (
        prop::option::of(0i64..500),
        maybe_word(),
        prop::sample::select(vec!["new", "qualifying", ""]),
        maybe_word(),
        words(),
        prop::option::of(-10.0f64..20_000.0),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(
                participants,
                event_type,
                status,
                pool,
                configurations,
                budget_eur,
                has_catalogue,
                organizer_comment,
            )| {
                RequestFacts {
                    participants,
                    event_type,
                    status: status.to_string(),
                    pool,
                    configurations,
                    postal_codes: vec!["75008".to_string()],
                    budget_eur,
                    has_catalogue,
                    organizer_comment,
                }
            },
        );
    (
        words(),
        prop::sample::select(vec!["chat", "training", ""]),
        maybe_word(),
        prop::option::of(request),
    )
        .prop_map(|(profiles, station, event, request)| Facts {
            profiles,
            station: station.to_string(),
            event,
            request,
        })
}

fn not(node: Node) -> Node {
    Node::Not(Box::new(node))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn parse_never_panics_on_any_string(source in any::<String>()) {
        let _ = parse(&source);
    }

    #[test]
    fn parse_never_panics_on_token_soup(source in token_soup()) {
        if let Err(error) = parse(&source) {
            prop_assert!(error.column >= 1 && error.column <= source.chars().count() + 1);
            prop_assert!(!error.message.is_empty());
        }
    }

    #[test]
    fn well_typed_trees_print_and_parse_back(node in tree(), f in facts()) {
        let expr = Expr(node);
        let text = expr.to_string();
        let reparsed = parse(&text);
        prop_assert_eq!(reparsed.as_ref(), Ok(&expr), "{}", text);
        // Evaluation is total: no panic, whatever the facts.
        let _ = expr.eval(&f);
    }

    #[test]
    fn negations_and_de_morgan_hold(a in tree(), b in tree(), f in facts()) {
        let and = Expr(Node::And(Box::new(a.clone()), Box::new(b.clone())));
        let de_morgan = Expr(Node::Or(Box::new(not(a.clone())), Box::new(not(b.clone()))));
        prop_assert_eq!(!and.eval(&f), de_morgan.eval(&f));
        if let Node::Compare { left, op, right } = &a {
            let flipped = match op {
                CmpOp::Eq => Some(CmpOp::Ne),
                CmpOp::In => Some(CmpOp::NotIn),
                _ => None,
            };
            if let Some(flipped) = flipped {
                let negated = Expr(compare(left.clone(), flipped, right.clone()));
                prop_assert_eq!(negated.eval(&f), !Expr(a.clone()).eval(&f));
            }
        }
    }

    #[test]
    fn fields_are_whitelisted_names(node in tree()) {
        for name in Expr(node).fields() {
            prop_assert!(lookup(name).is_some());
        }
    }
}
