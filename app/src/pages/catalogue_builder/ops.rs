//! The builder's operations as the page runs them: one server function per
//! operation, each given the version on screen; the answer replaces the
//! catalogue on screen, a stale version reloads the other member's.
use crate::catalogue_builder::{
    add_catalogue_pick, edit_catalogue_reason, fill_catalogue_from_search, load_catalogue,
    move_catalogue_pick, new_catalogue_version, pin_catalogue_room, remove_catalogue_pick,
    reorder_catalogue_pick, CatalogueView, Tier,
};
use crate::errors::AppError;
use leptos::prelude::*;

/// One operation of the builder.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    Fill,
    Add {
        member: String,
        tier: Tier,
    },
    Remove {
        member_id: i64,
    },
    Move {
        member_id: i64,
        tier: Tier,
    },
    Reorder {
        member_id: i64,
        position: i64,
    },
    Pin {
        member_id: i64,
        room_id: Option<i64>,
    },
    Reason {
        member_id: i64,
        reason: String,
    },
    NewVersion,
}

/// What the last operation did.
#[derive(Clone, Debug, PartialEq)]
pub enum SaveState {
    Idle,
    Saving,
    Done,
    /// Refused because the catalogue changed (or was sent): reloaded.
    Stale(String),
    /// Refused for another reason (bad input…): nothing was written.
    Failed(String),
}

/// The builder's state: the catalogue on screen, the save status, and the
/// action running operations one at a time.
#[derive(Clone, Copy)]
pub struct Builder {
    pub view: RwSignal<CatalogueView>,
    pub saved: RwSignal<SaveState>,
    pub act: Action<Op, ()>,
}

async fn run(catalogue_id: i64, version: i32, op: Op) -> Result<CatalogueView, AppError> {
    match op {
        Op::Fill => fill_catalogue_from_search(catalogue_id, version).await,
        Op::Add { member, tier } => {
            add_catalogue_pick(catalogue_id, version, member, tier.key().to_string()).await
        }
        Op::Remove { member_id } => remove_catalogue_pick(catalogue_id, version, member_id).await,
        Op::Move { member_id, tier } => {
            move_catalogue_pick(catalogue_id, version, member_id, tier.key().to_string()).await
        }
        Op::Reorder {
            member_id,
            position,
        } => reorder_catalogue_pick(catalogue_id, version, member_id, position).await,
        Op::Pin { member_id, room_id } => {
            pin_catalogue_room(catalogue_id, version, member_id, room_id).await
        }
        Op::Reason { member_id, reason } => {
            edit_catalogue_reason(catalogue_id, version, member_id, reason).await
        }
        Op::NewVersion => new_catalogue_version(catalogue_id).await,
    }
}

impl Builder {
    pub fn new(initial: CatalogueView) -> Builder {
        let view = RwSignal::new(initial);
        let saved = RwSignal::new(SaveState::Idle);
        let act = Action::new(move |op: &Op| {
            let op = op.clone();
            async move {
                let (catalogue_id, version) = view.with_untracked(|v| (v.catalogue_id, v.version));
                saved.set(SaveState::Saving);
                match run(catalogue_id, version, op).await {
                    Ok(fresh) => {
                        view.set(fresh);
                        saved.set(SaveState::Done);
                    }
                    Err(AppError::Conflict(message)) => {
                        if let Ok(fresh) = load_catalogue(catalogue_id).await {
                            view.set(fresh);
                        }
                        saved.set(SaveState::Stale(message));
                    }
                    Err(e) => saved.set(SaveState::Failed(e.to_string())),
                }
            }
        });
        Builder { view, saved, act }
    }
}
