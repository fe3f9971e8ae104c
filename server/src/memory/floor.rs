//! The similarity floor of the memory search's vector path, per embedding
//! model, chosen from the labelled calibration set (`maxy calibrate memory`).

/// The floor for `model`; `configured` (`MAXY_MEMORY_SIMILARITY_FLOOR`) wins.
pub fn for_model(model: &str, configured: Option<f64>) -> f64 {
    if let Some(f) = configured {
        return f;
    }
    match model {
        // Placeholder until the calibration lands.
        _ => 0.55,
    }
}
