//! Catalogue writes in the audit log: every builder edit, fill from the
//! search, approved assistant proposal, new version and send leaves one row
//! `catalogue.<what>` on the catalogue, with its actor and a compact JSON of
//! what changed.
//!
//! The row is written with [`super::write`] on the edit's own transaction:
//! a refused or failed edit leaves no row, and a committed edit always has
//! its row (if the row cannot be written, the edit fails with it).
//!
//! The details name venues by id and code, never by what someone typed (the
//! add box's query) nor by a third party's text: the only free text is the
//! reason, which is the team's own (cut like every text of the log).
use super::{write, Actor, Event};
use serde_json::{json, Value};
use sqlx::PgConnection;

/// A venue as the log names it.
#[derive(Clone, Copy, Debug)]
pub struct Venue<'a> {
    pub id: i64,
    pub code: &'a str,
}

/// A pick as a fill or an approved proposal wrote it.
#[derive(Clone, Copy, Debug)]
pub struct Written<'a> {
    pub venue: Venue<'a>,
    pub tier: &'a str,
    pub position: i32,
    pub room_id: Option<i64>,
}

/// What changed in the catalogue.
#[derive(Clone, Debug)]
pub enum Change<'a> {
    Added {
        venue: Venue<'a>,
        tier: &'a str,
    },
    Removed {
        venue: Venue<'a>,
        tier: &'a str,
    },
    Moved {
        venue: Venue<'a>,
        from: &'a str,
        to: &'a str,
    },
    /// Positions are 0-based within the tier.
    Reordered {
        venue: Venue<'a>,
        tier: &'a str,
        from: usize,
        to: usize,
    },
    /// `room_id: None` unpins.
    RoomPinned {
        venue: Venue<'a>,
        room_id: Option<i64>,
        before: Option<i64>,
    },
    ReasonEdited {
        venue: Venue<'a>,
        reason: &'a str,
    },
    /// « Remplir depuis la recherche »: the picks it added, how many of the
    /// search's picks were already there, how many found no free slot.
    Filled {
        added: Vec<Written<'a>>,
        already: usize,
        left_out: usize,
    },
    /// An approved `add_members_to_catalog` (the assistant's proposal).
    ProposalApplied {
        conversation_id: i64,
        added: Vec<Written<'a>>,
        updated: Vec<Written<'a>>,
    },
    /// « Nouvelle version »: this draft copies catalogue `from`.
    VersionCreated {
        from: i64,
    },
    Sent {
        link_id: i64,
        picks: i64,
        resend: bool,
    },
}

impl Change<'_> {
    /// The log's action name.
    pub fn action(&self) -> &'static str {
        match self {
            Change::Added { .. } => "catalogue.pick_added",
            Change::Removed { .. } => "catalogue.pick_removed",
            Change::Moved { .. } => "catalogue.pick_moved",
            Change::Reordered { .. } => "catalogue.pick_reordered",
            Change::RoomPinned { .. } => "catalogue.room_pinned",
            Change::ReasonEdited { .. } => "catalogue.reason_edited",
            Change::Filled { .. } => "catalogue.filled",
            Change::ProposalApplied { .. } => "catalogue.proposal_applied",
            Change::VersionCreated { .. } => "catalogue.version_created",
            Change::Sent { .. } => "catalogue.sent",
        }
    }

    fn details(&self) -> Value {
        match self {
            Change::Added { venue, tier } | Change::Removed { venue, tier } => {
                json!({ "member_id": venue.id, "code": venue.code, "tier": tier })
            }
            Change::Moved { venue, from, to } => {
                json!({ "member_id": venue.id, "code": venue.code, "from": from, "to": to })
            }
            Change::Reordered {
                venue,
                tier,
                from,
                to,
            } => json!({
                "member_id": venue.id, "code": venue.code, "tier": tier, "from": from, "to": to,
            }),
            Change::RoomPinned {
                venue,
                room_id,
                before,
            } => json!({
                "member_id": venue.id, "code": venue.code, "room_id": room_id, "before": before,
            }),
            Change::ReasonEdited { venue, reason } => {
                json!({ "member_id": venue.id, "code": venue.code, "reason": reason })
            }
            Change::Filled {
                added,
                already,
                left_out,
            } => json!({ "added": picks(added), "already": already, "left_out": left_out }),
            Change::ProposalApplied {
                conversation_id,
                added,
                updated,
            } => json!({
                "conversation_id": conversation_id,
                "added": picks(added),
                "updated": picks(updated),
            }),
            Change::VersionCreated { from } => json!({ "copied_from": from }),
            Change::Sent {
                link_id,
                picks,
                resend,
            } => json!({ "link_id": link_id, "picks": picks, "resend": resend }),
        }
    }
}

fn picks(written: &[Written<'_>]) -> Value {
    written
        .iter()
        .map(|w| {
            json!({
                "member_id": w.venue.id,
                "code": w.venue.code,
                "tier": w.tier,
                "position": w.position,
                "room_id": w.room_id,
            })
        })
        .collect()
}

/// Records `change` of catalogue `catalogue_id` by `user_id`, on the edit's
/// transaction; `version` is the catalogue's version after the edit (none
/// for a send, which does not change it).
pub async fn record(
    conn: &mut PgConnection,
    user_id: i64,
    catalogue_id: i64,
    version: Option<i32>,
    change: &Change<'_>,
) -> sqlx::Result<()> {
    let mut details = change.details();
    if let (Some(version), Value::Object(map)) = (version, &mut details) {
        map.insert("version".into(), version.into());
    }
    let event = Event::new(Actor::User(user_id), change.action())
        .on("catalogue", catalogue_id)
        .details(details);
    write(conn, event).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_change_names_its_venue_by_id_and_code_only() {
        let venue = Venue {
            id: 7,
            code: "#101",
        };
        let moved = Change::Moved {
            venue,
            from: "recommended",
            to: "compatible",
        };
        assert_eq!(moved.action(), "catalogue.pick_moved");
        assert_eq!(
            moved.details(),
            json!({"member_id": 7, "code": "#101", "from": "recommended", "to": "compatible"})
        );
        let filled = Change::Filled {
            added: vec![Written {
                venue,
                tier: "recommended",
                position: 0,
                room_id: Some(3),
            }],
            already: 1,
            left_out: 2,
        };
        assert_eq!(
            filled.details(),
            json!({"added": [{"member_id": 7, "code": "#101", "tier": "recommended",
                              "position": 0, "room_id": 3}],
                   "already": 1, "left_out": 2})
        );
    }
}
