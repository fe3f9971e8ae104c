//! The text a training session is embedded from, shared by the session's
//! embedding job and the memory backfill (`memory::backfill::batch`), so
//! both embed the same words.
use crate::db::training_sessions;

/// The text a session is embedded from: its event type, reason and directives.
pub fn text_of(source: &training_sessions::EmbeddingSource) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(t) = &source.event_type {
        parts.push(t.clone());
    }
    if !source.reason.trim().is_empty() {
        parts.push(source.reason.trim().to_string());
    }
    if let Some(d) = source
        .directives
        .as_ref()
        .and_then(super::directives::Directives::from_stored)
    {
        let mut line = format!("quand {}", d.trigger);
        if !d.prefer.is_empty() {
            line.push_str(&format!(" : préférer {}", d.prefer.join(", ")));
        }
        if !d.avoid.is_empty() {
            line.push_str(&format!(" ; éviter {}", d.avoid.join(", ")));
        }
        parts.push(line);
    }
    parts.join(". ")
}
