//! The audit log: who did what, when, on which object; and its reading for
//! the admin console (`app::admin::AuditLog`).
//!
//! Two ways to record. [`record`] never fails the action it describes: a
//! write error is logged (once, server side) and the action goes on; it is
//! for rows written on their own (sign-ins, link uses). [`write`] returns the
//! error: it is for a row written in the transaction of the edit it
//! describes ([`catalogue`]), where a failed row must fail the edit — a
//! swallowed error would leave the transaction aborted, and its COMMIT would
//! silently roll the edit back while the caller reports success.
//!
//! Rows that an outsider can cause ([`record_capped`]) are capped per key and
//! window, and per action across all keys with the excess summarised as one
//! row per minute ([`throttle`]); every text in the details is cut to
//! [`MAX_DETAIL_CHARS`] and every list to [`MAX_DETAIL_ITEMS`], so the log
//! cannot be flooded.
pub mod catalogue;
pub mod journal;
pub mod labels;
mod objects;
mod reader;
pub mod throttle;

pub use reader::AuditReader;
pub use throttle::{AuditThrottle, Cap};

use crate::db::audit_log::{self, NewEntry};
use serde_json::Value;
use std::net::IpAddr;
use throttle::Admission;

/// Who acted.
#[derive(Clone, Copy, Debug)]
pub enum Actor {
    User(i64),
    MagicLink,
    System,
    Anonymous,
}

/// One thing that happened.
pub struct Event<'a> {
    pub actor: Actor,
    /// Dotted lower-case name: `auth.sign_in`, `magic_link.revoked`…
    pub action: &'a str,
    pub object: Option<(&'a str, i64)>,
    pub ip: Option<IpAddr>,
    /// Extra facts. Never secrets: no passwords, no tokens.
    pub details: Value,
}

impl<'a> Event<'a> {
    pub fn new(actor: Actor, action: &'a str) -> Self {
        Event {
            actor,
            action,
            object: None,
            ip: None,
            details: Value::Object(Default::default()),
        }
    }

    pub fn on(mut self, object_type: &'a str, id: i64) -> Self {
        self.object = Some((object_type, id));
        self
    }

    pub fn from_ip(mut self, ip: IpAddr) -> Self {
        self.ip = Some(ip).filter(|ip| !ip.is_unspecified());
        self
    }

    pub fn details(mut self, details: Value) -> Self {
        self.details = details;
        self
    }
}

/// The longest text kept in an entry's details (longer ones are cut).
pub const MAX_DETAIL_CHARS: usize = 256;

/// The longest list kept in an entry's details (the rest is dropped; the
/// biggest list written today is a training catalogue's 25 picks).
pub const MAX_DETAIL_ITEMS: usize = 32;

/// Cuts every string of `value` to [`MAX_DETAIL_CHARS`] characters and every
/// list to [`MAX_DETAIL_ITEMS`] items.
fn cap_texts(value: &mut Value) {
    match value {
        Value::String(s) => {
            if let Some((end, _)) = s.char_indices().nth(MAX_DETAIL_CHARS) {
                s.truncate(end);
                s.push('…');
            }
        }
        Value::Array(items) => {
            items.truncate(MAX_DETAIL_ITEMS);
            items.iter_mut().for_each(cap_texts)
        }
        Value::Object(map) => map.values_mut().for_each(cap_texts),
        _ => {}
    }
}

/// Records `event`, an outsider's, as `throttle` admits it: written (saying
/// how many rows its key left out before), left out when its key has
/// written enough rows in this window, or counted in the minute's summary
/// row when its action has written enough rows this minute, all keys
/// together. Like [`record`], a failure is only logged.
pub async fn record_capped(
    db: impl sqlx::PgExecutor<'_>,
    throttle: &AuditThrottle,
    key: &str,
    cap: Cap,
    mut event: Event<'_>,
) {
    match throttle.admit(event.action, key, cap) {
        Admission::LeaveOut => {}
        Admission::Write { suppressed } => {
            if suppressed > 0 {
                if let Value::Object(map) = &mut event.details {
                    map.insert("suppressed".into(), suppressed.into());
                }
            }
            record(db, event).await;
        }
        Admission::Summarise { rows } => {
            let (_, actor_kind) = actor_columns(event.actor);
            let rows = i64::try_from(rows).unwrap_or(i64::MAX);
            if let Err(e) = audit_log::add_to_summary(db, actor_kind, event.action, rows).await {
                tracing::error!(error = %e, action = event.action, "cannot write the audit summary");
            }
        }
    }
}

/// Appends `event` to the log (its texts capped); a failure is only logged.
pub async fn record(db: impl sqlx::PgExecutor<'_>, event: Event<'_>) {
    let action = event.action;
    if let Err(e) = write(db, event).await {
        tracing::error!(error = %e, action, "cannot write the audit log");
    }
}

/// Appends `event` to the log (its texts capped) and says if it failed: the
/// caller's transaction must then fail too.
pub async fn write(db: impl sqlx::PgExecutor<'_>, mut event: Event<'_>) -> sqlx::Result<()> {
    cap_texts(&mut event.details);
    let (actor_id, actor_kind) = actor_columns(event.actor);
    let entry = NewEntry {
        actor_id,
        actor_kind,
        action: event.action,
        object_type: event.object.map(|(t, _)| t),
        object_id: event.object.map(|(_, id)| id),
        ip: event.ip,
        details: event.details,
    };
    audit_log::insert(db, &entry).await
}

/// The `actor_id` and `actor_kind` columns of `actor`.
fn actor_columns(actor: Actor) -> (Option<i64>, &'static str) {
    match actor {
        Actor::User(id) => (Some(id), "user"),
        Actor::MagicLink => (None, "magic_link"),
        Actor::System => (None, "system"),
        Actor::Anonymous => (None, "anonymous"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_in_details_are_cut() {
        let mut details = serde_json::json!({
            "email": "x".repeat(600),
            "nested": ["é".repeat(300), 3],
            "short": "ok",
        });
        cap_texts(&mut details);
        assert_eq!(
            details["email"].as_str().map(|s| s.chars().count()),
            Some(257)
        );
        assert_eq!(
            details["nested"][0].as_str().map(|s| s.chars().count()),
            Some(257)
        );
        assert_eq!(details["short"], "ok");
    }

    #[test]
    fn long_lists_in_details_are_cut() {
        let mut details = serde_json::json!({ "picks": (0..100).collect::<Vec<i32>>() });
        cap_texts(&mut details);
        assert_eq!(
            details["picks"].as_array().map(Vec::len),
            Some(MAX_DETAIL_ITEMS)
        );
        assert_eq!(details["picks"][0], 0);
    }
}
