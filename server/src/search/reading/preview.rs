//! How a dropped value shows in the logs: its start only.

/// The start of a value, for the logs.
pub(super) fn preview(text: &str) -> String {
    let short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        format!("{short:?}…")
    } else {
        format!("{short:?}")
    }
}
