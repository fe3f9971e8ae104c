//! Properties of the calibration mapping (in [0,1], monotonic in the cosine
//! and in the lead, whatever the constants) and of the model answer's
//! parser (never panics; every candidate is scored or the answer is
//! refused; names that are no candidate change nothing).
use super::answer::parse;
use super::calibration::{features, Features, Mapping, FITTED};
use proptest::prelude::*;

fn mapping() -> impl Strategy<Value = Mapping> {
    prop_oneof![
        Just(FITTED),
        (-200.0..200.0f64, -200.0..200.0f64, -200.0..200.0f64)
            .prop_map(|(bias, cosine, lead)| Mapping { bias, cosine, lead }),
    ]
}

proptest! {
    #[test]
    fn scores_are_in_the_unit_interval(
        m in mapping(),
        cosines in proptest::collection::vec(-1.0..=1.0f64, 0..30),
    ) {
        for s in m.scores(&cosines) {
            prop_assert!((0.0..=1.0).contains(&s), "{s}");
        }
    }

    #[test]
    fn a_higher_cosine_or_lead_never_lowers_a_score(
        m in mapping(),
        cosine in -1.0..=1.0f64,
        lead in -2.0..=2.0f64,
        more in 0.0..0.5f64,
    ) {
        let base = m.apply(Features { cosine, lead });
        let higher = m.apply(Features { cosine: cosine + more, lead });
        let leading = m.apply(Features { cosine, lead: lead + more });
        prop_assert!(higher >= base, "{} < {}", higher, base);
        prop_assert!(leading >= base, "{} < {}", leading, base);
    }

    #[test]
    fn raising_one_candidate_raises_it_and_lowers_no_one_else_above_it(
        cosines in proptest::collection::vec(0.7..=0.95f64, 1..25),
        at in any::<proptest::sample::Index>(),
        more in 0.0..0.1f64,
    ) {
        let i = at.index(cosines.len());
        let before = FITTED.scores(&cosines);
        let mut raised = cosines.clone();
        raised[i] += more;
        let after = FITTED.scores(&raised);
        prop_assert!(after[i] >= before[i]);
        for (j, (a, b)) in after.iter().zip(&before).enumerate() {
            if j != i {
                prop_assert!(a <= b, "another candidate gained: {} {} {}", j, a, b);
            }
        }
    }

    #[test]
    fn the_best_cosine_gets_the_best_score(
        cosines in proptest::collection::vec(0.7..=0.95f64, 1..25),
    ) {
        let scores = FITTED.scores(&cosines);
        let best = cosines.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let f = features(&cosines);
        for (k, c) in cosines.iter().enumerate() {
            if *c == best {
                prop_assert!(scores.iter().all(|s| *s <= scores[k]), "{:?} {:?}", f, scores);
            }
        }
    }

    #[test]
    fn the_parser_never_panics(text in ".{0,200}", n in 0usize..5) {
        let names = ["a", "b-c", "d_e", "f", "g"];
        let _ = parse(&text, &names[..n]);
    }

    #[test]
    fn every_candidate_scored_is_read_in_order_and_extra_names_change_nothing(
        scores in proptest::collection::vec(0.0..=1.0f64, 0..8),
        extra in proptest::collection::vec(("[a-z]{1,8}", 0.0..=1.0f64), 0..4),
        fenced in any::<bool>(),
    ) {
        let names: Vec<String> = (0..scores.len()).map(|i| format!("candidat-{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut object = serde_json::Map::new();
        for (name, s) in extra.iter().rev() {
            object.insert(name.clone(), serde_json::json!(s));
        }
        for (name, s) in names.iter().zip(&scores) {
            object.insert(name.clone(), serde_json::json!(s));
        }
        let body = serde_json::json!({"scores": object}).to_string();
        let text = if fenced { format!("```json\n{body}\n```") } else { body };
        let parsed = parse(&text, &refs).expect("every candidate is scored");
        prop_assert_eq!(parsed.len(), scores.len());
        // serde_json reads decimals back to within the last bit.
        for (p, s) in parsed.iter().zip(&scores) {
            prop_assert!((p - s).abs() < 1e-12, "{} {}", p, s);
        }
    }

    #[test]
    fn a_missing_candidate_refuses_the_answer(
        scores in proptest::collection::vec(0.0..=1.0f64, 1..8),
        at in any::<proptest::sample::Index>(),
    ) {
        let names: Vec<String> = (0..scores.len()).map(|i| format!("candidat-{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let left_out = at.index(names.len());
        let object: serde_json::Map<String, serde_json::Value> = names
            .iter()
            .zip(&scores)
            .enumerate()
            .filter(|(i, _)| *i != left_out)
            .map(|(_, (n, s))| (n.clone(), serde_json::json!(s)))
            .collect();
        let text = serde_json::json!({"scores": object}).to_string();
        let err = parse(&text, &refs).expect_err("a candidate is missing");
        prop_assert!(err.contains(&names[left_out]), "{}", err);
    }
}
