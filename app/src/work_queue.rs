//! « À faire »: what needs the signed-in member now, for the home page —
//! approval cards waiting in their conversations, what organizers said about
//! their catalogues, requests to qualify, reminders due, venues' answers; and
//! for admins, the budget and playbook alerts. Each item is a French sentence
//! and a link to where it is handled.
use crate::errors::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// What an item is about; the home page groups items by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkKind {
    /// A write the assistant proposed, waiting for my decision.
    Approval,
    /// An organizer commented on a catalogue of one of my requests, or on
    /// one of its venues.
    Comment,
    /// An organizer marked a venue as a favourite.
    Favourite,
    /// A request assigned to me, still to qualify.
    ToQualify,
    /// One of my reminders, due today or overdue.
    Reminder,
    /// A venue answered an availability check.
    Availability,
    /// Admins: the month's model spend nears or passes its cap.
    Budget,
    /// Admins: suggested playbooks to review, runs abandoned.
    Playbook,
}

impl WorkKind {
    /// The section heading on the home page.
    pub fn heading(self) -> &'static str {
        match self {
            WorkKind::Approval => "Propositions à approuver",
            WorkKind::Comment => "Commentaires des organisateurs",
            WorkKind::Favourite => "Favoris des organisateurs",
            WorkKind::ToQualify => "Demandes à qualifier",
            WorkKind::Reminder => "Rappels",
            WorkKind::Availability => "Réponses des lieux",
            WorkKind::Budget => "Budget IA",
            WorkKind::Playbook => "Playbooks",
        }
    }

    /// The order of the sections: what blocks others first.
    pub const ORDER: [WorkKind; 8] = [
        WorkKind::Approval,
        WorkKind::Reminder,
        WorkKind::Comment,
        WorkKind::Favourite,
        WorkKind::Availability,
        WorkKind::ToQualify,
        WorkKind::Budget,
        WorkKind::Playbook,
    ];

    /// The key in `data-kind` attributes (never shown).
    pub fn key(self) -> &'static str {
        match self {
            WorkKind::Approval => "approval",
            WorkKind::Comment => "comment",
            WorkKind::Favourite => "favourite",
            WorkKind::ToQualify => "to_qualify",
            WorkKind::Reminder => "reminder",
            WorkKind::Availability => "availability",
            WorkKind::Budget => "budget",
            WorkKind::Playbook => "playbook",
        }
    }
}

/// One thing to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkItem {
    pub kind: WorkKind,
    /// French, as people read it (third-party text already unwrapped).
    pub text: String,
    /// The request's public reference (« D-2026-00043 »), when it has one.
    pub reference: Option<String>,
    /// « il y a 5 min », « aujourd'hui à 14:00 », « en retard depuis le
    /// 03/12 à 09:00 »… (Paris time).
    pub when: String,
    /// Where it is handled.
    pub href: String,
    /// Overdue or over the cap: shown in red.
    pub urgent: bool,
}

/// The queue of the signed-in member, most pressing first within a kind.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WorkQueue {
    pub items: Vec<WorkItem>,
}

impl WorkQueue {
    /// The items of `kind`, in their order.
    pub fn of(&self, kind: WorkKind) -> Vec<WorkItem> {
        self.items
            .iter()
            .filter(|i| i.kind == kind)
            .cloned()
            .collect()
    }
}

/// The work queue (implemented by the server).
#[cfg(feature = "ssr")]
#[async_trait::async_trait]
pub trait WorkQueueDesk: Send + Sync {
    /// `admin`: the budget and playbook alerts are added.
    async fn queue(&self, user_id: i64, admin: bool) -> Result<WorkQueue, AppError>;
}

/// What needs the signed-in member now.
#[server(endpoint = "home/queue")]
pub async fn my_work_queue() -> Result<WorkQueue, AppError> {
    let user = crate::auth::access::require_team()?;
    crate::services::service::<dyn WorkQueueDesk>()?
        .queue(user.id, user.is_admin())
        .await
}
