//! Properties of the decision over random thresholds and candidates:
//! scores on a grid of hundredths so ties and exact edges are frequent.
use super::*;
use proptest::prelude::*;

fn hundredths() -> impl Strategy<Value = f64> {
    (0u32..=100).prop_map(|k| f64::from(k) / 100.0)
}

fn band() -> impl Strategy<Value = Band> {
    prop_oneof![
        Just(Band::Observe),
        Just(Band::Suggest),
        Just(Band::Enforce)
    ]
}

fn guidance() -> impl Strategy<Value = Guidance> {
    (hundredths(), hundredths(), 0u32..=20, band()).prop_map(|(a, b, m, max_mode)| Guidance {
        enforce: a.max(b),
        suggest: a.min(b),
        margin: f64::from(m) / 100.0,
        max_mode,
    })
}

/// Up to 8 candidates with unique names; `triggers` allows deterministic ones.
fn candidates(triggers: bool) -> impl Strategy<Value = Vec<Candidate>> {
    let one = (
        prop::bool::weighted(0.8),
        prop::bool::weighted(if triggers { 0.15 } else { 0.0 }),
        hundredths(),
        prop::bool::weighted(0.15),
    );
    prop::collection::vec(one, 0..8).prop_map(|rows| {
        rows.into_iter()
            .enumerate()
            .map(
                |(i, (eligible, deterministic_trigger, score, observe_only))| Candidate {
                    name: format!("c{i}"),
                    eligible,
                    deterministic_trigger,
                    score,
                    observe_only,
                },
            )
            .collect()
    })
}

fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort();
    names
}

fn find<'a>(candidates: &'a [Candidate], name: &str) -> Option<&'a Candidate> {
    candidates.iter().find(|c| c.name == name)
}

proptest! {
    #[test]
    fn permuting_candidates_changes_nothing(
        g in guidance(),
        (original, permuted) in candidates(true)
            // The first trigger in the given order opens: order matters
            // there by design, so keep at most one.
            .prop_map(|mut cs| {
                let mut seen = false;
                for c in &mut cs {
                    if c.deterministic_trigger {
                        c.deterministic_trigger = !seen;
                        seen = true;
                    }
                }
                cs
            })
            .prop_flat_map(|cs| (Just(cs.clone()), Just(cs).prop_shuffle())),
    ) {
        let a = decide(&g, &original);
        let b = decide(&g, &permuted);
        prop_assert_eq!(a.mode, b.mode);
        prop_assert_eq!(a.uncapped, b.uncapped);
        prop_assert_eq!(a.opened, b.opened);
        prop_assert_eq!(sorted(a.suggested), sorted(b.suggested));
    }

    #[test]
    fn raising_enforce_never_turns_observe_into_enforce(
        g in guidance(),
        raise in hundredths(),
        cs in candidates(true),
    ) {
        let higher = Guidance { enforce: (g.enforce + raise).min(1.0), ..g };
        if decide(&g, &cs).mode == Band::Observe {
            prop_assert_ne!(decide(&higher, &cs).mode, Band::Enforce);
        }
    }

    #[test]
    fn lowering_max_mode_never_opens_more(g in guidance(), lower in band(), cs in candidates(true)) {
        let lower = lower.min(g.max_mode);
        let wide = decide(&g, &cs);
        let narrow = decide(&Guidance { max_mode: lower, ..g }, &cs);
        if narrow.opened.is_some() {
            prop_assert_eq!(narrow.opened, wide.opened);
        }
        prop_assert!(narrow.mode <= wide.mode);
        prop_assert_eq!(narrow.uncapped, wide.uncapped);
    }

    #[test]
    fn only_eligible_candidates_open_or_are_suggested(g in guidance(), cs in candidates(true)) {
        let d = decide(&g, &cs);
        prop_assert_eq!(d.opened.is_some(), d.mode == Band::Enforce);
        prop_assert_eq!(!d.suggested.is_empty(), d.mode == Band::Suggest);
        if let Some(name) = &d.opened {
            let c = find(&cs, name);
            prop_assert!(c.is_some_and(|c| c.eligible && !c.observe_only));
        }
        for name in &d.suggested {
            let c = find(&cs, name);
            prop_assert!(c.is_some_and(|c| c.eligible
                && !c.observe_only
                && millionths(c.score) >= millionths(g.suggest)));
        }
        prop_assert_eq!(d.candidates.len(), cs.len());
    }

    #[test]
    fn without_triggers_the_cap_is_respected(g in guidance(), cs in candidates(false)) {
        let d = decide(&g, &cs);
        prop_assert!(d.mode <= g.max_mode);
        prop_assert!(d.mode <= d.uncapped);
    }
}
