//! A running turn that goes silent: the page says « Le modèle ne répond
//! pas… » and offers to stop it. The watch is the browser's own (a tick a
//! second while a turn runs), so it also works when the server sends
//! nothing at all: no event, no error, a stream held open.
// Without `hydrate` (the server, unit tests) nothing ticks.
#![cfg_attr(not(feature = "hydrate"), allow(dead_code))]

use super::timeline::{Entry, Timeline};

/// Seconds without any change before the page says the model is silent.
pub const STALL_AFTER_SECS: u32 = 5;

/// What the page last saw of a running turn, and for how many ticks it has
/// not changed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Silence {
    seen: Option<(i64, usize, usize)>,
    ticks: u32,
}

impl Silence {
    /// One tick (a second): returns whether the turn is silent now. A turn
    /// not running, or running a tool (a venue search may take a while;
    /// the page shows it), is never silent.
    pub fn tick(&mut self, timeline: &Timeline) -> bool {
        if !timeline.running || running_tool(timeline) {
            *self = Silence::default();
            return false;
        }
        let now = Some(signature(timeline));
        if now == self.seen {
            self.ticks = self.ticks.saturating_add(1);
        } else {
            self.seen = now;
            self.ticks = 0;
        }
        self.ticks >= STALL_AFTER_SECS
    }
}

/// What changes with any event: its seq, the number of entries, the length
/// of the last one's text.
fn signature(timeline: &Timeline) -> (i64, usize, usize) {
    let last = match timeline.entries.last() {
        Some(Entry::Assistant { text, .. }) => text.len(),
        _ => 0,
    };
    (timeline.last_seq, timeline.entries.len(), last)
}

fn running_tool(timeline: &Timeline) -> bool {
    matches!(
        timeline.entries.last(),
        Some(Entry::Tool { summary: None, .. })
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::{ChatEvent, SeqEvent};

    fn running() -> Timeline {
        Timeline {
            running: true,
            ..Timeline::default()
        }
    }

    #[test]
    fn a_silent_running_turn_is_stalled_after_five_ticks() {
        let mut silence = Silence::default();
        let timeline = running();
        let said: Vec<bool> = (0..7).map(|_| silence.tick(&timeline)).collect();
        // The first tick only sees the turn; five more without a change.
        assert_eq!(said, [false, false, false, false, false, true, true]);
    }

    #[test]
    fn any_event_resets_the_watch_and_an_ended_turn_is_never_stalled() {
        let mut silence = Silence::default();
        let mut timeline = running();
        for _ in 0..5 {
            silence.tick(&timeline);
        }
        timeline.apply(&SeqEvent {
            seq: 1,
            event: ChatEvent::TextDelta {
                text: "Voici".into(),
            },
        });
        assert!(!silence.tick(&timeline), "an event resets it");
        for _ in 0..4 {
            assert!(!silence.tick(&timeline));
        }
        assert!(silence.tick(&timeline));
        timeline.running = false;
        assert!(!silence.tick(&timeline));
    }

    #[test]
    fn a_running_tool_is_not_the_model_being_silent() {
        let mut silence = Silence::default();
        let mut timeline = running();
        timeline.apply(&SeqEvent {
            seq: 1,
            event: ChatEvent::ToolStarted {
                call_id: "c1".into(),
                name: "search_members".into(),
                label: "Recherche de lieux…".into(),
            },
        });
        assert!((0..10).all(|_| !silence.tick(&timeline)));
    }
}
