//! Tuning the memory search's ranking ([`crate::memory::ranking`]) on the
//! labelled cases, and measuring it on the held-out half.
//!
//! Per case, the evidence of each of its memories is gathered as the
//! search gathers it (cosine from the memory pipeline, full-text rank from
//! PostgreSQL, the date window); the pure ranking then runs over a grid of
//! tunings. What is optimised, in this order:
//! 1. **right first**: answerable cases whose first hit is the answer;
//! 2. **silence on no-answer cases**: « correspond » must stay silent on at
//!    least [`MIN_NONE_SILENT`] of the cases nothing answers;
//! 3. within that, the most right answers said « correspond », each wrong
//!    « correspond » on an answerable case costing two right ones;
//! 4. the highest keep floor that loses no right-first case, so questions
//!    nothing answers fall to « aucun souvenir ne correspond » as often as
//!    the evidence allows.
use super::cases::{Case, CaseKind, Half};
use crate::memory::dates;
use crate::memory::ranking::{Evidence, Tuning};
use crate::memory::Confidence;
use std::collections::BTreeMap;

/// Share of no-answer cases on which nothing may be said « correspond ».
pub const MIN_NONE_SILENT: f64 = 0.95;

/// One case's evidence, ready for the ranking.
#[derive(Clone, Debug)]
pub struct CaseEvidence {
    pub id: String,
    pub kind: CaseKind,
    pub half: Half,
    pub answer: Option<usize>,
    pub evidence: Vec<Evidence>,
}

/// Cosines and word ranks in case order, one per memory; the date window
/// is read here.
pub fn case_evidence(case: &Case, cosines: &[f64], word_ranks: &[f64]) -> CaseEvidence {
    let today = case.today.unwrap_or(super::cases::DEFAULT_TODAY);
    let window = dates::window_in(&case.query, today);
    let best_words = word_ranks.iter().copied().fold(0.0, f64::max);
    let evidence = case
        .memories
        .iter()
        .zip(cosines.iter().zip(word_ranks))
        .map(|(m, (&cosine, &rank))| Evidence {
            cosine: Some(cosine),
            words: if best_words > 0.0 {
                rank / best_words
            } else {
                0.0
            },
            in_window: window.is_some_and(|w| {
                m.due.is_some_and(|d| w.contains(d))
                    || dates::mentions_date_in(&format!("{}\n{}", m.title, m.content), &w, today)
            }),
        })
        .collect();
    CaseEvidence {
        id: case.id.clone(),
        kind: case.kind,
        half: case.half,
        answer: case.answer_index(),
        evidence,
    }
}

/// How a tuning fares on a set of cases.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    pub answerable: usize,
    /// Answerable cases whose first hit is the answer.
    pub right_first: usize,
    /// Answerable cases whose answer is said « correspond ».
    pub right_matches: usize,
    /// « correspond » said of a memory that is not the answer (any case).
    pub wrong_matches: usize,
    pub no_answer: usize,
    /// No-answer cases where nothing is « correspond ».
    pub none_silent: usize,
    /// No-answer cases where nothing is shown at all (recency answers).
    pub none_empty: usize,
    /// Right first, per kind: (right, cases).
    pub by_kind: BTreeMap<CaseKind, (usize, usize)>,
}

impl Outcome {
    pub fn right_first_rate(&self) -> f64 {
        ratio(self.right_first, self.answerable)
    }
    pub fn none_silent_rate(&self) -> f64 {
        ratio(self.none_silent, self.no_answer)
    }
    /// Of the « correspond » said, the share that were right.
    pub fn match_precision(&self) -> f64 {
        ratio(self.right_matches, self.right_matches + self.wrong_matches)
    }
    /// Of the answerable cases, the share whose answer was said « correspond ».
    pub fn match_recall(&self) -> f64 {
        ratio(self.right_matches, self.answerable)
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// Runs `tuning` over the cases of `half` (all when `None`).
pub fn evaluate(cases: &[CaseEvidence], tuning: &Tuning, half: Option<Half>) -> Outcome {
    let mut o = Outcome::default();
    for case in cases.iter().filter(|c| half.is_none_or(|h| c.half == h)) {
        let ranked = tuning.rank(&case.evidence);
        let matched: Vec<usize> = ranked
            .iter()
            .filter(|r| r.confidence == Confidence::Matches)
            .map(|r| r.index)
            .collect();
        o.wrong_matches += matched.iter().filter(|&&i| Some(i) != case.answer).count();
        match case.answer {
            Some(answer) => {
                o.answerable += 1;
                let first = ranked.first().is_some_and(|r| r.index == answer);
                o.right_first += usize::from(first);
                o.right_matches += usize::from(matched.contains(&answer));
                let k = o.by_kind.entry(case.kind).or_default();
                k.0 += usize::from(first);
                k.1 += 1;
            }
            None => {
                o.no_answer += 1;
                o.none_silent += usize::from(matched.is_empty());
                o.none_empty += usize::from(ranked.is_empty());
            }
        }
    }
    o
}

const WORDS_WEIGHTS: [f64; 9] = [0.0, 0.01, 0.02, 0.03, 0.05, 0.08, 0.12, 0.2, 0.3];
const DATE_WEIGHTS: [f64; 7] = [0.0, 0.02, 0.04, 0.06, 0.1, 0.2, 0.3];
const MARGINS: [f64; 16] = [
    0.0, 0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.06, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25,
];

/// Floors from -0.2 to 1.3 by 0.005: fused scores exceed the cosine range
/// by the weights.
fn floors() -> impl Iterator<Item = f64> {
    (-40..=260).map(|i| f64::from(i) * 0.005)
}

/// The best tuning on the tuning half (see the module docs for the order).
pub fn tune(cases: &[CaseEvidence]) -> Tuning {
    let half = Some(Half::Tuning);
    let mut best: Option<(Tuning, (usize, i64, usize))> = None;
    for words_weight in WORDS_WEIGHTS {
        for date_weight in DATE_WEIGHTS {
            let open = Tuning {
                words_weight,
                date_weight,
                keep_floor: f64::NEG_INFINITY,
                match_floor: f64::INFINITY,
                match_margin: 0.0,
            };
            let right_first = evaluate(cases, &open, half).right_first;
            // The highest keep floor that keeps every right-first case.
            let keep_floor = floors()
                .take_while(|&f| {
                    let t = Tuning {
                        keep_floor: f,
                        ..open
                    };
                    evaluate(cases, &t, half).right_first == right_first
                })
                .last()
                .unwrap_or(f64::NEG_INFINITY);
            let kept = Tuning { keep_floor, ..open };
            let (matching, gain) = best_matching(cases, kept);
            let none_empty = evaluate(cases, &matching, half).none_empty;
            let key = (right_first, gain, none_empty);
            if best.as_ref().is_none_or(|(_, k)| key > *k) {
                best = Some((matching, key));
            }
        }
    }
    best.map(|(t, _)| t).unwrap_or(Tuning {
        words_weight: 0.0,
        date_weight: 0.0,
        keep_floor: 0.0,
        match_floor: f64::INFINITY,
        match_margin: 0.0,
    })
}

/// The match floor and margin that keep « correspond » silent on enough
/// no-answer cases, with the most right answers said « correspond » (each
/// wrong one costing two); the gain is returned with it.
fn best_matching(cases: &[CaseEvidence], kept: Tuning) -> (Tuning, i64) {
    let half = Some(Half::Tuning);
    let mut best = (
        Tuning {
            match_floor: f64::INFINITY,
            ..kept
        },
        0i64,
    );
    for match_margin in MARGINS {
        for match_floor in floors() {
            let t = Tuning {
                match_floor,
                match_margin,
                ..kept
            };
            let o = evaluate(cases, &t, half);
            if o.none_silent_rate() < MIN_NONE_SILENT {
                continue;
            }
            let gain = o.right_matches as i64 - 2 * o.wrong_matches as i64;
            // On equal gain, the stricter bar: it holds better on new cases.
            let stricter =
                t.match_floor + t.match_margin > best.0.match_floor.min(2.0) + best.0.match_margin;
            if gain > best.1 || (gain == best.1 && stricter) {
                best = (t, gain);
            }
        }
    }
    best
}

/// The report of a tuning on both halves, in the words of the docs.
pub fn report(cases: &[CaseEvidence], t: &Tuning) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "tuning: words weight {:.3}, date weight {:.3}, keep floor {:.3}, match floor {:.3}, match margin {:.3}",
        t.words_weight, t.date_weight, t.keep_floor, t.match_floor, t.match_margin
    );
    for (name, half) in [("tuning", Half::Tuning), ("held-out", Half::HeldOut)] {
        let o = evaluate(cases, t, Some(half));
        let _ = writeln!(
            out,
            "{name:>8}: right first {}/{} ({:.1} %) · « correspond » precision {:.1} % recall {:.1} % ({} right, {} wrong) · no-answer cases silent {}/{} ({:.1} %), shown nothing {}",
            o.right_first,
            o.answerable,
            100.0 * o.right_first_rate(),
            100.0 * o.match_precision(),
            100.0 * o.match_recall(),
            o.right_matches,
            o.wrong_matches,
            o.none_silent,
            o.no_answer,
            100.0 * o.none_silent_rate(),
            o.none_empty,
        );
        let kinds: Vec<String> = o
            .by_kind
            .iter()
            .map(|(k, (r, n))| format!("{} {r}/{n}", k.label()))
            .collect();
        let _ = writeln!(out, "          right first by kind: {}", kinds.join(", "));
    }
    let misses: Vec<&str> = cases
        .iter()
        .filter(|c| c.half == Half::HeldOut)
        .filter(|c| {
            let ranked = t.rank(&c.evidence);
            match c.answer {
                Some(a) => ranked.first().is_none_or(|r| r.index != a),
                None => ranked.iter().any(|r| r.confidence == Confidence::Matches),
            }
        })
        .map(|c| c.id.as_str())
        .collect();
    let _ = writeln!(out, "held-out misses: {}", misses.join(", "));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(id: &str, half: Half, answer: Option<usize>, cosines: &[f64]) -> CaseEvidence {
        CaseEvidence {
            id: id.into(),
            kind: if answer.is_some() {
                CaseKind::Concept
            } else {
                CaseKind::None
            },
            half,
            answer,
            evidence: cosines
                .iter()
                .map(|&c| Evidence {
                    cosine: Some(c),
                    words: 0.0,
                    in_window: false,
                })
                .collect(),
        }
    }

    #[test]
    fn tuning_finds_a_bar_between_answers_and_no_answers() {
        let cases = vec![
            case("a", Half::Tuning, Some(0), &[0.9, 0.7]),
            case("b", Half::Tuning, Some(1), &[0.6, 0.88]),
            case("n", Half::Tuning, None, &[0.75, 0.74]),
            case("h", Half::HeldOut, Some(0), &[0.91, 0.5]),
        ];
        let t = tune(&cases);
        let o = evaluate(&cases, &t, Some(Half::Tuning));
        assert_eq!((o.right_first, o.answerable), (2, 2));
        assert_eq!(o.right_matches, 2, "{t:?}");
        assert_eq!(o.none_silent, 1);
        assert_eq!(o.wrong_matches, 0, "{t:?}");
        let held = evaluate(&cases, &t, Some(Half::HeldOut));
        assert_eq!((held.right_first, held.right_matches), (1, 1));
        assert!(report(&cases, &t).contains("held-out: right first 1/1"));
    }
}
