//! The builder's operations as the page runs them: one server function per
//! operation, each given the version on screen; the answer replaces the
//! catalogue on screen, a stale version reloads the other member's.
use crate::catalogue_builder::{
    add_catalogue_pick, edit_catalogue_reason, fill_catalogue_from_search, load_catalogue,
    move_catalogue_pick, new_catalogue_version, pin_catalogue_room, remove_catalogue_pick,
    reorder_catalogue_pick, CatalogueView, PickView, Tier,
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
    /// « Annuler » the last change: the operations that put the catalogue
    /// back as it was, run in order (see [`undo_of`]).
    Undo(Vec<Op>),
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

/// The builder's state: the catalogue on screen, the save status, the
/// action running operations one at a time, and how to undo the last one.
#[derive(Clone, Copy)]
pub struct Builder {
    pub view: RwSignal<CatalogueView>,
    pub saved: RwSignal<SaveState>,
    pub act: Action<Op, ()>,
    /// What « Annuler » runs; `None` when there is nothing to undo.
    pub undo: RwSignal<Option<Vec<Op>>>,
}

/// The operations that bring `after` back to `before` (one catalogue, two
/// versions): picks added are removed, picks removed come back in their
/// tier, place, reason and room, and what moved goes back. Computed from
/// the two versions rather than per operation, so it covers every change,
/// a fill from the search included.
pub fn undo_of(before: &CatalogueView, after: &CatalogueView) -> Vec<Op> {
    let all = |v: &CatalogueView| -> Vec<PickView> {
        v.recommended.iter().chain(&v.compatible).cloned().collect()
    };
    let (old, new) = (all(before), all(after));
    let find = |list: &[PickView], id: i64| list.iter().find(|p| p.member_id == id).cloned();
    let mut ops = Vec::new();
    for p in &new {
        if find(&old, p.member_id).is_none() {
            ops.push(Op::Remove {
                member_id: p.member_id,
            });
        }
    }
    let mut placed: Vec<&PickView> = Vec::new();
    for p in &old {
        match find(&new, p.member_id) {
            None => ops.push(Op::Add {
                member: p.code.clone(),
                tier: p.tier,
            }),
            Some(now) if now.tier != p.tier => ops.push(Op::Move {
                member_id: p.member_id,
                tier: p.tier,
            }),
            Some(_) => {}
        }
        placed.push(p);
    }
    // Each tier in its old order, first place first.
    placed.sort_by_key(|p| (p.tier.key(), p.position));
    for p in placed {
        ops.push(Op::Reorder {
            member_id: p.member_id,
            position: i64::from(p.position),
        });
        let now = find(&new, p.member_id);
        if now.as_ref().is_none_or(|n| n.reason != p.reason)
            && !(now.is_none() && p.reason.is_empty())
        {
            ops.push(Op::Reason {
                member_id: p.member_id,
                reason: p.reason.clone(),
            });
        }
        let room = p.room.as_ref().map(|r| r.id);
        if now
            .as_ref()
            .map_or(room.is_some(), |n| n.room.as_ref().map(|r| r.id) != room)
        {
            ops.push(Op::Pin {
                member_id: p.member_id,
                room_id: room,
            });
        }
    }
    ops
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
        Op::Undo(ops) => {
            // One after the other, each on the version the previous one left.
            let mut version = version;
            let mut last = None;
            for op in ops {
                let fresh = Box::pin(run(catalogue_id, version, op)).await?;
                version = fresh.version;
                last = Some(fresh);
            }
            match last {
                Some(v) => Ok(v),
                None => load_catalogue(catalogue_id).await,
            }
        }
    }
}

impl Builder {
    pub fn new(initial: CatalogueView) -> Builder {
        let view = RwSignal::new(initial);
        let saved = RwSignal::new(SaveState::Idle);
        let undo = RwSignal::new(None::<Vec<Op>>);
        let act = Action::new(move |op: &Op| {
            let op = op.clone();
            async move {
                let before = view.get_untracked();
                let (catalogue_id, version) = (before.catalogue_id, before.version);
                let undoable = !matches!(op, Op::Undo(_) | Op::NewVersion);
                let undoing = matches!(op, Op::Undo(_));
                saved.set(SaveState::Saving);
                match run(catalogue_id, version, op).await {
                    Ok(fresh) => {
                        let ops = if undoable {
                            undo_of(&before, &fresh)
                        } else {
                            Vec::new()
                        };
                        undo.set((!ops.is_empty()).then_some(ops));
                        view.set(fresh);
                        saved.set(SaveState::Done);
                    }
                    Err(AppError::Conflict(message)) => {
                        // Someone else's version: the undo no longer applies.
                        undo.set(None);
                        if let Ok(fresh) = load_catalogue(catalogue_id).await {
                            view.set(fresh);
                        }
                        saved.set(SaveState::Stale(message));
                    }
                    Err(e) => {
                        // An undo may have stopped half-way: show what is saved.
                        if undoing {
                            undo.set(None);
                            if let Ok(fresh) = load_catalogue(catalogue_id).await {
                                view.set(fresh);
                            }
                        }
                        saved.set(SaveState::Failed(e.to_string()));
                    }
                }
            }
        });
        Builder {
            view,
            saved,
            act,
            undo,
        }
    }
}
