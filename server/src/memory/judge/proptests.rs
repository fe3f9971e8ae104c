//! Properties of the answer parser: no input makes it panic; whatever it
//! accepts names only candidates shown, once each, in the model's order;
//! a list of numbers shown, each once, is always accepted; one number out
//! of range or repeated refuses the whole answer.
use super::answer::parse;
use proptest::prelude::*;

/// Lists of distinct numbers from 1 to `shown`, in any order.
fn valid(shown: usize) -> impl Strategy<Value = Vec<u64>> {
    Just((1..=shown as u64).collect::<Vec<_>>())
        .prop_shuffle()
        .prop_flat_map(move |all| (Just(all), 0..=shown))
        .prop_map(|(all, n)| all[..n].to_vec())
}

fn json(numbers: &[u64]) -> String {
    format!("{{\"answers\": {numbers:?}}}")
}

proptest! {
    #[test]
    fn never_panics(text in ".{0,200}", shown in 0usize..10) {
        let _ = parse(&text, shown);
    }

    #[test]
    fn accepted_answers_are_candidates_shown_once_each(
        items in proptest::collection::vec(-3i64..15, 0..12),
        shown in 0usize..10,
        fenced in any::<bool>(),
    ) {
        let body = format!("{{\"answers\": {items:?}}}");
        let text = if fenced { format!("```json\n{body}\n```") } else { body };
        if let Ok(indices) = parse(&text, shown) {
            prop_assert_eq!(indices.len(), items.len());
            for (i, n) in indices.iter().zip(&items) {
                prop_assert!(*i < shown);
                prop_assert_eq!(*i as i64, n - 1, "the model's order is kept");
            }
            let mut distinct = indices.clone();
            distinct.sort_unstable();
            distinct.dedup();
            prop_assert_eq!(distinct.len(), indices.len());
        }
    }

    #[test]
    fn numbers_shown_once_each_are_read_in_order(
        (shown, numbers) in (1usize..=8).prop_flat_map(|s| (Just(s), valid(s)))
    ) {
        let indices = parse(&json(&numbers), shown).expect("valid answer");
        let expected: Vec<usize> = numbers.iter().map(|n| *n as usize - 1).collect();
        prop_assert_eq!(indices, expected);
    }

    #[test]
    fn one_bad_number_refuses_the_whole_answer(
        (shown, numbers, outside) in (1usize..=8)
            .prop_flat_map(|s| (Just(s), valid(s), out_of_range(s))),
        at in any::<proptest::sample::Index>(),
        repeat in any::<bool>(),
    ) {
        let mut numbers = numbers;
        let bad = match numbers.first() {
            Some(first) if repeat => *first,
            _ => outside,
        };
        numbers.insert(at.index(numbers.len() + 1), bad);
        prop_assert!(parse(&json(&numbers), shown).is_err(), "{:?}", numbers);
    }
}

/// Numbers no candidate was shown with.
fn out_of_range(shown: usize) -> impl Strategy<Value = u64> {
    prop_oneof![Just(0u64), (shown as u64 + 1)..100, Just(u64::MAX)]
}
