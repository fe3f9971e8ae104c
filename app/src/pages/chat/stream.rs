//! Following a conversation live: the browser's `EventSource` on
//! `/api/chat/conversations/{id}/events?after={last_seq}`, each message one
//! JSON [`SeqEvent`] folded into the [`Timeline`].
//!
//! The turn runs on the server and never depends on this stream. When the
//! stream fails or ends early, the page reloads the conversation (the
//! authoritative log: it says whether the turn still runs) and, if it does,
//! reopens the stream after the last event it saw. The browser's own
//! reconnection is not used: it would resume from the URL's first `after`.
//! Nothing here runs on the server (effects and clicks only run in the
//! browser); without the `hydrate` feature every method does nothing.
// Without `hydrate` (the server, unit tests) the follower only carries its
// handles: nothing reads them there.
#![cfg_attr(not(feature = "hydrate"), allow(dead_code))]

use super::timeline::Timeline;
use leptos::prelude::*;

/// Drives the live stream of one conversation. `Copy`: every handler holds
/// one.
#[derive(Clone, Copy)]
pub struct Follower {
    conversation_id: i64,
    timeline: RwSignal<Timeline>,
    /// Bumped when a turn ends, so the conversation list refreshes.
    refresh: RwSignal<u32>,
    /// What the page says when the stream cannot be followed.
    problem: RwSignal<Option<String>>,
    /// Failures since the last event received (for the back-off).
    failures: StoredValue<u32>,
    #[cfg(feature = "hydrate")]
    live: StoredValue<Option<browser::Live>, LocalStorage>,
}

/// After this many failed attempts in a row the page stops trying and says so.
const MAX_FAILURES: u32 = 8;

/// The URL of the stream after `seq`.
pub fn events_url(conversation_id: i64, after: i64) -> String {
    format!("/api/chat/conversations/{conversation_id}/events?after={after}")
}

/// Milliseconds to wait before the `failures`-th reconnection: 0.5 s,
/// doubling, at most 8 s.
pub fn backoff_ms(failures: u32) -> u32 {
    500u32.saturating_mul(1 << failures.saturating_sub(1).min(4))
}

impl Follower {
    /// A follower for this conversation; the stream closes with the view.
    pub fn new(
        conversation_id: i64,
        timeline: RwSignal<Timeline>,
        refresh: RwSignal<u32>,
        problem: RwSignal<Option<String>>,
    ) -> Self {
        let follower = Follower {
            conversation_id,
            timeline,
            refresh,
            problem,
            failures: StoredValue::new(0),
            #[cfg(feature = "hydrate")]
            live: StoredValue::new_local(None),
        };
        on_cleanup(move || follower.close());
        follower
    }

    /// Opens the stream after the last event seen, unless it is open.
    pub fn follow(self) {
        #[cfg(feature = "hydrate")]
        browser::open(self);
    }

    /// Closes the stream, if open.
    pub fn close(self) {
        #[cfg(feature = "hydrate")]
        browser::close(self);
    }

    /// Refreshes the conversation list (its pending-approval badges).
    pub fn refresh_list(self) {
        self.refresh.update(|n| *n += 1);
    }

    /// Reloads the conversation, applies what was missed and follows the
    /// stream again if a turn runs (after a decision, a lost stream, or the
    /// end of a turn: the log has the exact cost).
    pub fn resync(self) {
        #[cfg(feature = "hydrate")]
        leptos::task::spawn_local(async move {
            match crate::chat::load_conversation(self.conversation_id).await {
                Ok(log) => {
                    self.problem.set(None);
                    self.timeline.update(|t| t.merge_log(&log));
                    if log.running {
                        self.follow();
                    }
                }
                Err(error) => self.failed(error.to_string()),
            }
        });
    }

    /// The stream or the reload failed: try again later, up to a point.
    fn failed(self, why: String) {
        let failures = self.failures.get_value() + 1;
        self.failures.set_value(failures);
        if failures > MAX_FAILURES {
            self.problem.set(Some(format!(
                "Le fil de la conversation est interrompu ({why}). Rechargez la page pour voir la suite."
            )));
        } else {
            #[cfg(feature = "hydrate")]
            set_timeout(
                move || self.resync(),
                std::time::Duration::from_millis(backoff_ms(failures).into()),
            );
        }
    }
}

#[cfg(feature = "hydrate")]
mod browser {
    //! The `EventSource` itself (wasm only).
    use super::{events_url, Follower};
    use crate::chat::{ChatEvent, SeqEvent};
    use leptos::prelude::*;
    use wasm_bindgen::{closure::Closure, JsCast};
    use web_sys::{Event, EventSource, MessageEvent};

    /// An open stream and its handlers (dropped with it, never from inside
    /// one of them: see [`close`]).
    pub struct Live {
        source: EventSource,
        _on_message: Closure<dyn FnMut(MessageEvent)>,
        _on_error: Closure<dyn FnMut(Event)>,
    }

    pub fn open(follower: Follower) {
        let open = follower.live.with_value(|live| {
            live.as_ref()
                .is_some_and(|l| l.source.ready_state() != EventSource::CLOSED)
        });
        if open {
            return;
        }
        let after = follower.timeline.with_untracked(|t| t.last_seq);
        let source = match EventSource::new(&events_url(follower.conversation_id, after)) {
            Ok(source) => source,
            Err(_) => return follower.failed("le navigateur refuse le flux".into()),
        };
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |message: MessageEvent| {
            let Some(data) = message.data().as_string() else {
                return;
            };
            // A line we cannot read is skipped: the reload after the turn
            // (or after a failure) brings the authoritative log anyway.
            let Ok(event) = serde_json::from_str::<SeqEvent>(&data) else {
                return;
            };
            follower.failures.set_value(0);
            let finished = matches!(event.event, ChatEvent::TurnFinished { .. });
            follower.timeline.update(|t| {
                t.apply(&event);
            });
            if finished {
                close(follower);
                follower.refresh_list();
                follower.resync();
            }
        });
        let on_error = Closure::<dyn FnMut(Event)>::new(move |_: Event| {
            // A network failure, or the server closing the stream: the
            // browser would reconnect on its own from the first `after`;
            // reload the log instead, and resume from the last seq seen.
            close(follower);
            follower.failed("connexion perdue".into());
        });
        source.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        source.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        // Replacing a closed stream drops its handlers here, outside them.
        follower.live.set_value(Some(Live {
            source,
            _on_message: on_message,
            _on_error: on_error,
        }));
    }

    /// Closes the stream but keeps its handlers alive: `close` runs inside
    /// them, and a handler must not be dropped while it runs.
    pub fn close(follower: Follower) {
        follower.live.with_value(|live| {
            if let Some(live) = live {
                live.source.close();
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_resumes_after_the_last_seq() {
        assert_eq!(
            events_url(12, 340),
            "/api/chat/conversations/12/events?after=340"
        );
    }

    #[test]
    fn reconnections_back_off_up_to_eight_seconds() {
        let delays: Vec<u32> = (1..=8).map(backoff_ms).collect();
        assert_eq!(delays, [500, 1000, 2000, 4000, 8000, 8000, 8000, 8000]);
        assert_eq!(backoff_ms(0), 500);
        assert_eq!(backoff_ms(u32::MAX), 8000);
    }
}
