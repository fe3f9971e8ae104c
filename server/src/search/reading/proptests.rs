//! Properties of the answer parser: no input makes it panic, and whatever
//! it keeps is within the contract's bounds, whatever the model wrote.
use super::answer::{parse, MAX_PARTICIPANTS, MAX_PER_PERSON_EUR, MAX_TOTAL_EUR};
use super::places::MIN_RADIUS_KM;
use crate::geo;
use crate::search::criteria::MAX_RADIUS_KM;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{json, Value};

const REQUEST: &str = "80 personnes dans le 8e ou le 75999, près du Louvre, #102 et # 7, -20 pax";

/// A value of the wrong type, now and then: the answer is then refused.
fn stranger() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<bool>().prop_map(Value::from),
        any::<String>().prop_map(Value::from),
        Just(json!({"x": 1})),
    ]
}

/// A head count as a model might write one, in or out of bounds.
fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        10 => Just(Value::Null),
        10 => (0u32..6000).prop_map(Value::from),
        5 => (-10.0..6000.0f64).prop_map(|f| json!(f)),
        3 => any::<i64>().prop_map(Value::from),
        3 => any::<f64>().prop_map(|f| json!(f)),
        1 => stranger(),
    ]
}

fn list() -> impl Strategy<Value = Value> {
    prop_oneof![
        10 => prop::collection::vec(select(STRINGS), 0..5).prop_map(|v| json!(v)),
        2 => Just(Value::Null),
        1 => stranger(),
    ]
}

fn near() -> impl Strategy<Value = Value> {
    let radius = prop_oneof![
        Just(Value::Null),
        (-10.0..200.0f64).prop_map(|f| json!(f)),
        any::<f64>().prop_map(|f| json!(f)),
    ];
    prop_oneof![
        10 => (select(STRINGS), radius).prop_map(|(p, r)| json!({"place": p, "radius_km": r})),
        3 => Just(Value::Null),
        1 => stranger(),
    ]
}

fn budget() -> impl Strategy<Value = Value> {
    prop_oneof![
        10 => (number(), -10.0..1e8f64, -10.0..1e6f64).prop_map(|(n, t, p)| {
            json!({"total_eur": if n.is_null() { n } else { json!(t) }, "per_person_eur": p})
        }),
        3 => Just(Value::Null),
        1 => stranger(),
    ]
}

fn text() -> impl Strategy<Value = Value> {
    prop_oneof![
        10 => select(STRINGS).prop_map(Value::from),
        2 => Just(Value::Null),
        2 => any::<String>().prop_map(Value::from),
    ]
}

/// Every field of the contract, each maybe missing, and now and then a
/// field the contract does not have.
fn answer() -> impl Strategy<Value = String> {
    let fields = (
        (number(), number(), number(), list(), list(), near()),
        (list(), any::<bool>(), budget(), text(), text()),
    );
    (
        fields,
        prop::collection::vec(any::<bool>(), 11),
        prop::bool::weighted(0.05),
        any::<bool>(),
    )
        .prop_map(
            |(((a, b, c, d, e, f), (g, h, i, j, k)), present, stranger, fenced)| {
                let values = [a, b, c, d, e, f, g, json!(h), i, j, k];
                let mut object = serde_json::Map::new();
                for ((name, value), keep) in FIELDS.iter().zip(values).zip(present) {
                    // The description is required: mostly present.
                    if keep || *name == "semantic_query" {
                        object.insert(name.to_string(), value);
                    }
                }
                if stranger {
                    object.insert("other".into(), json!(1));
                }
                let json = Value::Object(object).to_string();
                if fenced {
                    format!("```json\n{json}\n```")
                } else {
                    json
                }
            },
        )
}

const STRINGS: &[&str] = &[
    "75008",
    "75116",
    "75999",
    "75021",
    "92100",
    "91300",
    "00000",
    "7500",
    "theatre",
    "cocktail",
    "piscine",
    "#102",
    "# 7",
    "#7",
    "#99",
    "#1234567890",
    "Louvre",
    "gare de Lyon",
    "Paris 8e",
    "Atlantide",
    "-20 pax",
    "20 pax",
    "",
    "rooftop",
];

const FIELDS: &[&str] = &[
    "participants",
    "participants_max",
    "participants_about",
    "configurations",
    "postal_codes",
    "near",
    "member_codes",
    "broad_area",
    "budget",
    "negative_amount",
    "semantic_query",
];

fn check(text: &str) -> Result<(), TestCaseError> {
    let Ok(parsed) = parse(text, REQUEST) else {
        return Ok(());
    };
    let c = &parsed.criteria;
    for n in [c.participants, c.participants_max, c.participants_about]
        .into_iter()
        .flatten()
    {
        prop_assert!((1..=MAX_PARTICIPANTS).contains(&n));
    }
    if let Some(max) = c.participants_max {
        prop_assert!(c.participants.is_some_and(|min| min < max));
    }
    let mut layouts = c.configurations.clone();
    layouts.dedup();
    prop_assert_eq!(layouts.len(), c.configurations.len());
    for code in &c.postal_codes {
        prop_assert!(code.len() == 5 && code.bytes().all(|b| b.is_ascii_digit()));
        let known = geo::postal_code_center(code).is_some();
        prop_assert!(known || REQUEST.contains(code.as_str()), "{}", code);
    }
    for code in &c.unknown_postal_codes {
        prop_assert!(code.starts_with("75") && REQUEST.contains(code.as_str()));
        prop_assert!(geo::arrondissement_by_postal_code(code).is_none());
    }
    if let Some(near) = &c.near {
        let place = geo::lookup(&near.label).map(|p| p.position()).or_else(|| {
            geo::ARRONDISSEMENTS
                .iter()
                .find(|a| a.name == near.label)
                .map(|a| (a.lat, a.lng))
        });
        prop_assert_eq!(place, Some((near.lat, near.lng)), "{}", near.label);
        if let Some(r) = near.radius_km {
            prop_assert!((MIN_RADIUS_KM..=MAX_RADIUS_KM).contains(&r));
        }
    }
    for code in &c.member_codes {
        let digits = code.strip_prefix('#').unwrap_or_default();
        prop_assert!((1..=9).contains(&digits.len()));
        prop_assert!(digits.bytes().all(|b| b.is_ascii_digit()));
    }
    if let Some(b) = &c.budget {
        prop_assert!(b.total_eur.is_none_or(|t| (1..=MAX_TOTAL_EUR).contains(&t)));
        prop_assert!(b
            .per_person_eur
            .is_none_or(|p| (1..=MAX_PER_PERSON_EUR).contains(&p)));
    }
    if let Some(amount) = &c.negative_amount {
        prop_assert!(REQUEST.contains(amount.as_str()));
    }
    if c.broad_area {
        prop_assert!(c.postal_codes.is_empty() && c.near.is_none());
    }
    prop_assert!(c.semantic_query.chars().count() <= REQUEST.chars().count());
    prop_assert!(!c.semantic_query.chars().any(char::is_control));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        check(&text)?;
    }

    #[test]
    fn whatever_is_kept_is_within_bounds(text in answer()) {
        check(&text)?;
    }
}
