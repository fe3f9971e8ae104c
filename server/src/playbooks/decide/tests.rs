//! Every rule of the decision and its edges, as a table.
use super::*;

const DEFAULT: Guidance = Guidance {
    enforce: 0.85,
    suggest: 0.5,
    margin: 0.05,
    max_mode: Band::Enforce,
};

fn capped(max_mode: Band) -> Guidance {
    Guidance {
        max_mode,
        ..DEFAULT
    }
}

fn c(name: &str, score: f64) -> Candidate {
    Candidate {
        name: name.into(),
        eligible: true,
        deterministic_trigger: false,
        score,
        observe_only: false,
    }
}

fn ineligible(name: &str, score: f64) -> Candidate {
    Candidate {
        eligible: false,
        ..c(name, score)
    }
}

fn trigger(name: &str, score: f64) -> Candidate {
    Candidate {
        deterministic_trigger: true,
        ..c(name, score)
    }
}

fn on_trial(candidate: Candidate) -> Candidate {
    Candidate {
        observe_only: true,
        ..candidate
    }
}

struct Case {
    what: &'static str,
    guidance: Guidance,
    candidates: Vec<Candidate>,
    mode: Band,
    uncapped: Band,
    opened: Option<&'static str>,
    suggested: &'static [&'static str],
    by_trigger: bool,
}

fn case(
    what: &'static str,
    guidance: Guidance,
    candidates: Vec<Candidate>,
    (mode, uncapped): (Band, Band),
    opened: Option<&'static str>,
    suggested: &'static [&'static str],
) -> Case {
    Case {
        what,
        guidance,
        candidates,
        mode,
        uncapped,
        opened,
        suggested,
        by_trigger: false,
    }
}

fn by_trigger(mut case: Case) -> Case {
    case.by_trigger = true;
    case
}

use Band::{Enforce as E, Observe as O, Suggest as S};

fn cases() -> Vec<Case> {
    let near = Guidance {
        enforce: 0.7,
        ..DEFAULT
    };
    vec![
        // Rule 3: inclusive edges.
        case(
            "enforce exactly",
            DEFAULT,
            vec![c("a", 0.85), c("b", 0.2)],
            (E, E),
            Some("a"),
            &[],
        ),
        case(
            "just under enforce",
            DEFAULT,
            vec![c("a", 0.849_999)],
            (S, S),
            None,
            &["a"],
        ),
        case(
            "suggest exactly",
            DEFAULT,
            vec![c("a", 0.5), c("b", 0.1)],
            (S, S),
            None,
            &["a"],
        ),
        case(
            "just under suggest",
            DEFAULT,
            vec![c("a", 0.499_999)],
            (O, O),
            None,
            &[],
        ),
        case(
            "clear winner",
            DEFAULT,
            vec![c("b", 0.6), c("a", 0.95)],
            (E, E),
            Some("a"),
            &[],
        ),
        // Rule 4: margin, compared as decimals.
        case(
            "margin exactly (0.80 − 0.75)",
            near,
            vec![c("b", 0.75), c("a", 0.80)],
            (S, S),
            None,
            &["a", "b"],
        ),
        case(
            "margin exactly (0.90 − 0.85)",
            DEFAULT,
            vec![c("a", 0.90), c("b", 0.85)],
            (S, S),
            None,
            &["a", "b"],
        ),
        case(
            "just over the margin",
            near,
            vec![c("a", 0.80), c("b", 0.749_999)],
            (E, E),
            Some("a"),
            &[],
        ),
        case(
            "margin: second below enforce",
            DEFAULT,
            vec![c("a", 0.86), c("b", 0.84)],
            (E, E),
            Some("a"),
            &[],
        ),
        case(
            "margin: equal scores",
            DEFAULT,
            vec![c("a", 0.9), c("b", 0.9)],
            (S, S),
            None,
            &["a", "b"],
        ),
        case(
            "margin lists only those within it of the best",
            DEFAULT,
            vec![c("c", 0.89), c("a", 0.95), c("b", 0.92), c("d", 0.7)],
            (S, S),
            None,
            &["a", "b"],
        ),
        case(
            "margin zero, equal scores",
            Guidance {
                margin: 0.0,
                ..DEFAULT
            },
            vec![c("a", 0.9), c("b", 0.9)],
            (S, S),
            None,
            &["a", "b"],
        ),
        // Rule 5: every eligible candidate ≥ suggest, best first.
        case(
            "band suggest lists all ≥ suggest",
            DEFAULT,
            vec![
                c("a", 0.7),
                c("b", 0.5),
                c("x", 0.3),
                c("c", 0.6),
                ineligible("z", 0.8),
            ],
            (S, S),
            None,
            &["a", "c", "b"],
        ),
        // Rule 1: eligibility first.
        case(
            "ineligible top score",
            DEFAULT,
            vec![ineligible("x", 0.99), c("a", 0.9)],
            (E, E),
            Some("a"),
            &[],
        ),
        case(
            "ineligible top, rest low",
            DEFAULT,
            vec![ineligible("x", 0.99), c("a", 0.2)],
            (O, O),
            None,
            &[],
        ),
        case(
            "ineligible trigger ignored",
            DEFAULT,
            vec![
                Candidate {
                    eligible: false,
                    ..trigger("t", 0.1)
                },
                c("a", 0.9),
            ],
            (E, E),
            Some("a"),
            &[],
        ),
        // Rule 2: triggers open against higher scores, whatever the cap.
        by_trigger(case(
            "trigger, cap enforce",
            capped(E),
            vec![c("a", 0.99), trigger("t", 0.1)],
            (E, E),
            Some("t"),
            &[],
        )),
        by_trigger(case(
            "trigger, cap suggest",
            capped(S),
            vec![c("a", 0.99), trigger("t", 0.1)],
            (E, E),
            Some("t"),
            &[],
        )),
        by_trigger(case(
            "trigger, cap observe",
            capped(O),
            vec![c("a", 0.99), trigger("t", 0.1)],
            (E, E),
            Some("t"),
            &[],
        )),
        by_trigger(case(
            "several triggers: the first eligible opens",
            DEFAULT,
            vec![
                Candidate {
                    eligible: false,
                    ..trigger("x", 0.9)
                },
                trigger("t1", 0.2),
                trigger("t2", 0.9),
            ],
            (E, E),
            Some("t1"),
            &[],
        )),
        // Rule 6: the cap.
        case(
            "cap suggest: the one that would open",
            capped(S),
            vec![c("a", 0.9), c("b", 0.7)],
            (S, E),
            None,
            &["a"],
        ),
        case(
            "cap suggest: a suggest is unchanged",
            capped(S),
            vec![c("a", 0.7), c("b", 0.6)],
            (S, S),
            None,
            &["a", "b"],
        ),
        case(
            "cap suggest: margin unchanged",
            capped(S),
            vec![c("a", 0.9), c("b", 0.88)],
            (S, S),
            None,
            &["a", "b"],
        ),
        case(
            "cap observe: enforce computed",
            capped(O),
            vec![c("a", 0.9)],
            (O, E),
            None,
            &[],
        ),
        case(
            "cap observe: suggest computed",
            capped(O),
            vec![c("a", 0.6)],
            (O, S),
            None,
            &[],
        ),
        // Rule 7.
        case("no candidates", DEFAULT, vec![], (O, O), None, &[]),
        case(
            "all ineligible",
            DEFAULT,
            vec![ineligible("x", 0.99), ineligible("y", 0.6)],
            (O, O),
            None,
            &[],
        ),
        // observe_only: listed, never opened nor suggested.
        case(
            "observe_only winner",
            DEFAULT,
            vec![on_trial(c("o", 0.95)), c("a", 0.6)],
            (O, E),
            None,
            &[],
        ),
        case(
            "observe_only winner, cap suggest",
            capped(S),
            vec![on_trial(c("o", 0.95))],
            (O, E),
            None,
            &[],
        ),
        case(
            "observe_only in band suggest",
            DEFAULT,
            vec![on_trial(c("o", 0.7)), c("a", 0.6)],
            (S, S),
            None,
            &["a"],
        ),
        case(
            "observe_only alone in band suggest",
            DEFAULT,
            vec![on_trial(c("o", 0.7)), c("a", 0.2)],
            (O, S),
            None,
            &[],
        ),
        case(
            "observe_only within the margin",
            DEFAULT,
            vec![on_trial(c("o", 0.9)), c("a", 0.88)],
            (S, S),
            None,
            &["a"],
        ),
        by_trigger(case(
            "observe_only trigger",
            DEFAULT,
            vec![on_trial(trigger("t", 0.1)), c("a", 0.9)],
            (O, E),
            None,
            &[],
        )),
    ]
}

#[test]
fn every_rule_and_edge() {
    for case in cases() {
        let d = decide(&case.guidance, &case.candidates);
        let what = case.what;
        assert_eq!(d.mode, case.mode, "{what}: mode ({d:#?})");
        assert_eq!(d.uncapped, case.uncapped, "{what}: uncapped");
        assert_eq!(d.opened.as_deref(), case.opened, "{what}: opened");
        assert_eq!(d.suggested, case.suggested, "{what}: suggested");
        assert_eq!(d.by_trigger, case.by_trigger, "{what}: by_trigger");
        assert_eq!(
            d.candidates.len(),
            case.candidates.len(),
            "{what}: all listed"
        );
        assert!(d
            .candidates
            .iter()
            .all(|j| !j.reason.is_empty() && !j.reason.contains('\n')));
    }
}

fn reason_of<'a>(d: &'a Decision, name: &str) -> &'a str {
    d.candidates
        .iter()
        .find(|j| j.name == name)
        .map_or("", |j| j.reason.as_str())
}

#[test]
fn reasons_say_what_happened() {
    let d = decide(
        &DEFAULT,
        &[c("a", 0.99), trigger("t", 0.1), trigger("u", 0.5)],
    );
    assert_eq!(reason_of(&d, "t"), "déclencheur déterministe : ouvert");
    assert!(reason_of(&d, "u").contains("« t »"), "{d:#?}");
    assert!(reason_of(&d, "a").contains("déclencheur déterministe de « t »"));

    let d = decide(&DEFAULT, &[ineligible("x", 0.99), c("a", 0.3)]);
    assert_eq!(reason_of(&d, "x"), "non admissible pour ce profil");
    assert_eq!(reason_of(&d, "a"), "sous le seuil de suggestion");

    let near = Guidance {
        enforce: 0.7,
        ..DEFAULT
    };
    let d = decide(&near, &[c("a", 0.80), c("b", 0.75)]);
    assert_eq!(
        reason_of(&d, "b"),
        "au-dessus du seuil imposé mais à moins de la marge de 0,05 : suggéré"
    );

    let d = decide(&capped(O), &[c("a", 0.9)]);
    assert!(reason_of(&d, "a").contains("aurait été ouvert"), "{d:#?}");

    let d = decide(&DEFAULT, &[on_trial(c("o", 0.95))]);
    assert!(reason_of(&d, "o").contains("en observation"), "{d:#?}");
}

#[test]
fn candidates_by_descending_score_ineligible_last() {
    let d = decide(
        &DEFAULT,
        &[
            ineligible("x", 0.99),
            c("low", 0.1),
            c("high", 0.7),
            trigger("t", 0.4),
        ],
    );
    let names: Vec<&str> = d.candidates.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["high", "t", "low", "x"]);
    let bands: Vec<Band> = d.candidates.iter().map(|j| j.band).collect();
    // The trigger is ENFORCE whatever its score; the ineligible keeps its score's band.
    assert_eq!(bands, [S, E, O, E]);
}

#[test]
fn judged_serializes_its_band_in_capitals() {
    let d = decide(&DEFAULT, &[c("a", 0.91)]);
    let json = serde_json::to_value(&d.candidates[0]).unwrap_or_default();
    assert_eq!(
        json,
        serde_json::json!({"name": "a", "score": 0.91, "band": "ENFORCE", "eligible": true,
            "reason": "au-dessus du seuil imposé : ouvert"})
    );
}

#[test]
fn guidance_is_validated_as_decimals() {
    let bad = |g: Guidance| g.validate().err().map(|e| (e.field, e.message));
    assert_eq!(bad(DEFAULT), None);
    assert_eq!(
        bad(Guidance {
            suggest: 0.9,
            ..DEFAULT
        }),
        Some((
            "suggest",
            "suggest (0.9) doit être inférieur ou égal à enforce (0.85)".into()
        ))
    );
    let unit = Some("doit être entre 0 et 1".to_string());
    assert_eq!(
        bad(Guidance {
            enforce: 1.2,
            ..DEFAULT
        })
        .map(|e| e.0),
        Some("enforce")
    );
    assert_eq!(
        bad(Guidance {
            enforce: 1.2,
            ..DEFAULT
        })
        .map(|e| e.1),
        unit
    );
    assert_eq!(
        bad(Guidance {
            suggest: -0.1,
            ..DEFAULT
        })
        .map(|e| e.0),
        Some("suggest")
    );
    assert_eq!(
        bad(Guidance {
            margin: f64::NAN,
            ..DEFAULT
        })
        .map(|e| e.0),
        Some("margin")
    );
    // Equal is allowed, and 0.1 + 0.2 is 0.3 here.
    assert_eq!(
        bad(Guidance {
            suggest: 0.85,
            ..DEFAULT
        }),
        None
    );
    assert_eq!(
        bad(Guidance {
            suggest: 0.1 + 0.2,
            enforce: 0.3,
            ..DEFAULT
        }),
        None
    );
    assert_eq!(
        Guidance {
            suggest: 0.9,
            ..DEFAULT
        }
        .validate()
        .map_err(|e| e.to_string()),
        Err("suggest : suggest (0.9) doit être inférieur ou égal à enforce (0.85)".into())
    );
}

#[test]
fn bands_spell_themselves() {
    for band in [E, S, O] {
        assert_eq!(Band::parse(band.as_str()), Some(band));
        assert_eq!(band.upper(), band.as_str().to_uppercase());
    }
    assert_eq!(Band::parse("ENFORCE"), None);
    assert_eq!(
        [E.label(), S.label(), O.label()],
        ["Imposé", "Suggéré", "Observé"]
    );
    assert!(O < S && S < E);
}
