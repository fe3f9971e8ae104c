//! The audit log: who did what, when, on which object.
//!
//! Recording never fails the action it describes: a write error is logged
//! (once, server side) and the action goes on.
use crate::db::audit_log::{self, NewEntry};
use serde_json::Value;
use std::net::IpAddr;

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

pub async fn record(db: impl sqlx::PgExecutor<'_>, event: Event<'_>) {
    let (actor_id, actor_kind) = match event.actor {
        Actor::User(id) => (Some(id), "user"),
        Actor::MagicLink => (None, "magic_link"),
        Actor::System => (None, "system"),
        Actor::Anonymous => (None, "anonymous"),
    };
    let entry = NewEntry {
        actor_id,
        actor_kind,
        action: event.action,
        object_type: event.object.map(|(t, _)| t),
        object_id: event.object.map(|(_, id)| id),
        ip: event.ip,
        details: event.details,
    };
    if let Err(e) = audit_log::insert(db, &entry).await {
        tracing::error!(error = %e, action = event.action, "cannot write the audit log");
    }
}
