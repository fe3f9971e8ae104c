//! The kinds of event as the team says them: the key a request stores
//! (`seminaire`, `soiree`…) is never shown to a person. The table lives
//! with the other labels in [`crate::fr`]; this path stays for its callers.

/// The French label of an event-type key (see [`crate::fr::event_type`]).
pub fn label(key: &str) -> String {
    crate::fr::event_type(key)
}
