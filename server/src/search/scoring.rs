//! Stage 3 without a language model: a transparent score from the facts we
//! hold (semantic similarity, capacity fit, distance, history, favourite,
//! reactivity), tiers that are never padded with weak venues, and for each
//! pick a French sentence (`reasons`) built from the facts that weighed most.
use super::finalist::{Finalist, Similarity};
use super::lessons::Effects;
pub use super::preferences::{budget_fit, Wants};
use super::reasons;
use crate::db::venue_search::Signals;

pub struct Scored {
    pub member_id: i64,
    pub score: f64,
    pub reason: String,
}

pub struct Tiers {
    pub recommended: Vec<Scored>,
    pub compatible: Vec<Scored>,
    pub rejected: usize,
    /// Finalists the LLM explicitly turned down, with its reason (the
    /// deterministic scorer only counts what falls under its floors).
    pub rejected_reasons: Vec<Scored>,
}

/// Tier floors: a venue below them is left out rather than shown as a filler.
const RECOMMENDED_FLOOR: f64 = 0.55;
const COMPATIBLE_FLOOR: f64 = 0.40;
const PER_TIER: usize = 4;
/// What carrying every feature asked for adds to a score (0–1): a fifth of
/// the scale, so that a venue whose sheet says it has what was asked for
/// leads venues otherwise alike, not one that suits the request much better.
const FEATURES_BONUS: f64 = 0.20;
/// What a venue loses when a meal was asked for and its rooms that hold
/// the group are all theatre or classroom: enough to leave the recommended
/// tier to venues where the meal can be served, not to hide it.
const UNSUITED_FOR_THE_MEAL: f64 = 0.25;

/// multilingual-e5 similarities crowd into a narrow band, 0.78–0.88: this
/// maps that band onto 0–1. Other models get a generic band, 0.20–0.60.
fn absolute_similarity(model: &str, cosine: f64) -> f64 {
    let (low, high) = if model.contains("e5") {
        (0.78, 0.88)
    } else {
        (0.20, 0.60)
    };
    ((cosine - low) / (high - low)).clamp(0.0, 1.0)
}

/// How well the matched room fits: a room much too big feels empty, a room
/// at its limit is tight.
pub fn capacity_fit(participants: Option<u32>, capacity: i32) -> f64 {
    let Some(p) = participants else { return 0.6 };
    let ratio = f64::from(p) / f64::from(capacity.max(1));
    if ratio > 0.95 {
        0.7
    } else if ratio >= 0.5 {
        1.0
    } else {
        (ratio / 0.5).max(0.2)
    }
}

fn distance_score(km: Option<f64>) -> f64 {
    km.map_or(0.5, |d| 1.0 / (1.0 + d / 3.0))
}

fn history_score(s: &Signals) -> f64 {
    (s.past_picks.min(5) as f64) / 5.0
}

fn reactivity_score(s: &Signals) -> f64 {
    match (s.answer_rate, s.median_response_hours) {
        (Some(rate), Some(hours)) => rate * (1.0 / (1.0 + hours / 24.0)),
        (Some(rate), None) => rate * 0.5,
        _ => 0.5,
    }
}

/// Every finalist's score (reason left empty) with its semantic part (none
/// when the search had no description), best first; the team's training (`effects`) moves it up or down. The LLM
/// ranker shows these scores next to its own choices.
pub fn scores(
    finalists: &[Finalist<'_>],
    wants: &Wants,
    source: Similarity,
    model: &str,
    effects: &Effects,
) -> Vec<(Scored, Option<f64>)> {
    let sims: Vec<f64> = finalists.iter().filter_map(|f| f.similarity).collect();
    let (min, max) = sims
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), &s| (lo.min(s), hi.max(s)));
    let relative = |s: f64| {
        if max - min > 1e-6 {
            (s - min) / (max - min)
        } else {
            0.5
        }
    };
    let semantic = |s: Option<f64>| -> Option<f64> {
        match (source, s) {
            (Similarity::Vector, Some(s)) => {
                Some(0.5 * relative(s) + 0.5 * absolute_similarity(model, s))
            }
            (Similarity::FullText, Some(s)) => Some(0.4 + 0.6 * relative(s)),
            (Similarity::FullText, None) => Some(0.2),
            (Similarity::Vector, None) => Some(0.1),
            (Similarity::None, _) => None,
        }
    };
    let mut scored: Vec<(Scored, Option<f64>)> = finalists
        .iter()
        .map(|f| {
            let c = f.candidate;
            let km = c.distance_m.map(|m| m / 1000.0);
            let parts = [
                (semantic(f.similarity), 0.40),
                (Some(capacity_fit(wants.people, c.capacity)), 0.20),
                (budget_fit(wants.budget_per_person, &f.signals), 0.10),
                (Some(distance_score(km)), 0.15),
                (Some(history_score(&f.signals)), 0.10),
                (Some(if f.signals.favourite { 1.0 } else { 0.0 }), 0.07),
                (Some(reactivity_score(&f.signals)), 0.08),
            ];
            let (sum, weight) = parts
                .iter()
                .filter_map(|(v, w)| v.map(|v| (v * w, *w)))
                .fold((0.0, 0.0), |(s, t), (v, w)| (s + v, t + w));
            let score = if weight > 0.0 { sum / weight } else { 0.0 };
            // Features asked for and said on the sheet lift a venue; their
            // absence lowers none: a venue described like a rooftop without
            // the tag keeps its chance (seed 001), and its reason says what
            // the sheet does not.
            let features = wants.tags_fit(&f.signals).unwrap_or(0.0) * FEATURES_BONUS;
            let meal = if wants.unsuited_for_the_meal(&c.configuration) {
                UNSUITED_FOR_THE_MEAL
            } else {
                0.0
            };
            let score = (score + features - meal + effects.delta(c.id)).clamp(0.0, 1.0);
            // None without a description: no reason speaks of one.
            let sem = semantic(f.similarity);
            (
                Scored {
                    member_id: c.id,
                    score,
                    reason: String::new(),
                },
                sem,
            )
        })
        .collect();
    scored.sort_by(|a, b| {
        b.0.score
            .total_cmp(&a.0.score)
            .then(a.0.member_id.cmp(&b.0.member_id))
    });
    scored
}

/// The tiers: best scores first, floors never lowered to fill a tier. A
/// venue the training rejected for this kind of event is turned down with
/// the training as its reason; a demoted one is at best compatible.
pub fn rank(
    finalists: &[Finalist<'_>],
    wants: &Wants,
    source: Similarity,
    model: &str,
    effects: &Effects,
) -> Tiers {
    let scored = scores(finalists, wants, source, model, effects);
    let by_id = |id: i64| finalists.iter().find(|f| f.candidate.id == id);
    let mut tiers = Tiers {
        recommended: Vec::new(),
        compatible: Vec::new(),
        rejected: 0,
        rejected_reasons: Vec::new(),
    };
    for (mut s, sem) in scored {
        let Some(f) = by_id(s.member_id) else {
            continue;
        };
        let effect = effects.get(s.member_id);
        let annotate = |text: String| effect.map_or_else(|| text.clone(), |e| e.annotate(&text));
        if let Some(reason) = effect.and_then(|e| e.rejection()) {
            s.reason = reason;
            tiers.rejected += 1;
            tiers.rejected_reasons.push(s);
        } else if tiers.recommended.len() < PER_TIER
            && s.score >= RECOMMENDED_FLOOR
            && !effect.is_some_and(|e| e.is_demoted())
        {
            s.reason = annotate(reasons::sentence(f, wants, sem, true));
            tiers.recommended.push(s);
        } else if tiers.compatible.len() < PER_TIER && s.score >= COMPATIBLE_FLOOR {
            s.reason = annotate(reasons::sentence(f, wants, sem, false));
            tiers.compatible.push(s);
        } else {
            tiers.rejected += 1;
        }
    }
    tiers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_room_fits_best_when_well_filled() {
        assert_eq!(capacity_fit(Some(80), 100), 1.0);
        assert!(capacity_fit(Some(100), 100) < 1.0, "at its limit is tight");
        assert!(capacity_fit(Some(20), 500) < 0.3, "far too big");
        assert!(capacity_fit(Some(20), 500) >= 0.2);
    }

    #[test]
    fn a_budget_prefers_venues_within_it_and_ignores_unknown_prices() {
        let priced = |min: Option<i32>, max: Option<i32>| Signals {
            price_per_person_min_eur: min,
            price_per_person_max_eur: max,
            ..Signals::default()
        };
        assert_eq!(budget_fit(Some(60), &priced(Some(40), Some(55))), Some(1.0));
        assert_eq!(budget_fit(Some(60), &priced(Some(50), Some(90))), Some(0.8));
        let above = budget_fit(Some(60), &priced(Some(120), Some(150))).unwrap();
        assert!(above < 0.3, "twice the budget: {above}");
        assert_eq!(budget_fit(Some(60), &priced(None, None)), None);
        assert_eq!(budget_fit(None, &priced(Some(40), Some(55))), None);
        assert_eq!(budget_fit(Some(60), &priced(None, Some(50))), Some(1.0));
    }

    #[test]
    fn without_a_description_no_reason_speaks_of_one() {
        use crate::db::venue_search::Candidate;
        let candidates: Vec<Candidate> = (1..=6)
            .map(|i| Candidate {
                id: i,
                code: format!("#{i}"),
                name: format!("Lieu {i}"),
                city: "Paris".into(),
                postal_code: "75011".into(),
                room_id: i,
                room_name: "Verrière".into(),
                configuration: "cocktail".into(),
                // Rooms that suit the group, near: only the description
                // could earn a compatible venue its caveat.
                capacity: 50 + i as i32,
                distance_m: Some(300.0 * i as f64),
            })
            .collect();
        let finalists: Vec<Finalist<'_>> = candidates
            .iter()
            .map(|c| Finalist {
                candidate: c,
                similarity: None,
                signals: Signals::default(),
            })
            .collect();
        let wants = Wants {
            people: Some(40),
            ..Wants::default()
        };
        let tiers = rank(
            &finalists,
            &wants,
            Similarity::None,
            "",
            &Effects::default(),
        );
        let reasons: Vec<&str> = tiers
            .recommended
            .iter()
            .chain(&tiers.compatible)
            .map(|s| s.reason.as_str())
            .collect();
        assert!(!tiers.compatible.is_empty(), "{reasons:#?}");
        assert!(
            reasons.iter().all(|r| !r.contains("description")),
            "{reasons:#?}"
        );
    }

    #[test]
    fn e5_similarities_are_spread_over_its_band() {
        assert_eq!(absolute_similarity("multilingual-e5-small-q4", 0.70), 0.0);
        assert_eq!(absolute_similarity("multilingual-e5-small-q4", 0.95), 1.0);
        assert!((absolute_similarity("multilingual-e5-small-q4", 0.83) - 0.5).abs() < 1e-9);
    }
}
