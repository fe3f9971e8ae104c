//! One edit of a catalogue, in one transaction: lock, check the version,
//! apply, check the rules, recount the acceptance rate, bump the version,
//! record the edit in the audit log. Any refusal rolls everything back:
//! nothing is half written, nothing is audited.
use super::pick_reason::{self, Scope};
use super::rules::{self, Kind};
use super::{guard, view};
use crate::audit::{
    self,
    catalogue::{Change, Venue},
};
use crate::db::app_error;
use crate::db::catalogues::{self, NewPick, PickRow, RequestInfo};
use crate::db::write_targets;
use app::catalogue_builder::{CatalogueView, Edit, Tier};
use app::errors::AppError;
use app::room_configurations::phrase_of;
use sqlx::{PgConnection, PgPool};

fn invalid(text: impl Into<String>) -> AppError {
    AppError::Invalid(text.into())
}

/// Applies `edit` to the catalogue if the caller saw `version`.
pub async fn apply(
    db: &PgPool,
    user_id: i64,
    catalogue_id: i64,
    version: i32,
    edit: Edit,
) -> Result<CatalogueView, AppError> {
    let mut tx = db.begin().await.map_err(app_error)?;
    let catalogue = catalogues::lock(&mut tx, catalogue_id)
        .await
        .map_err(app_error)?
        .ok_or(AppError::NotFound)?;
    guard(&catalogue, version)?;
    let request = catalogues::request(&mut *tx, catalogue.request_id)
        .await
        .map_err(app_error)?
        .ok_or(AppError::NotFound)?;
    let picks = catalogues::picks(&mut *tx, catalogue_id)
        .await
        .map_err(app_error)?;
    let kind = Kind::from_key(&catalogue.kind);
    let conn: &mut PgConnection = &mut tx;
    // Owned by what the change record borrows (set in one arm each).
    let added;
    let reason_text;
    let change = match edit {
        Edit::Add { member, tier } => {
            added = add(
                conn,
                user_id,
                catalogue_id,
                kind,
                &request,
                &picks,
                &member,
                tier,
            )
            .await?;
            Change::Added {
                venue: Venue {
                    id: added.0,
                    code: &added.1,
                },
                tier: tier.key(),
            }
        }
        Edit::Remove { member_id } => {
            let pick = find(&picks, member_id)?;
            catalogues::delete_pick(conn, catalogue_id, member_id)
                .await
                .map_err(app_error)?;
            let rest = order(&picks, &pick.tier, Some(member_id));
            catalogues::set_tier_order(conn, catalogue_id, &pick.tier, &rest)
                .await
                .map_err(app_error)?;
            Change::Removed {
                venue: venue(pick),
                tier: &pick.tier,
            }
        }
        Edit::Move { member_id, tier } => {
            let pick = find(&picks, member_id)?;
            if pick.tier != tier.key() {
                let rest = order(&picks, &pick.tier, Some(member_id));
                catalogues::set_tier_order(conn, catalogue_id, &pick.tier, &rest)
                    .await
                    .map_err(app_error)?;
                let mut target = order(&picks, tier.key(), None);
                target.push(member_id);
                catalogues::set_tier_order(conn, catalogue_id, tier.key(), &target)
                    .await
                    .map_err(app_error)?;
                // « En alternative » or not: the sentence follows the tier.
                pick_reason::refresh(conn, catalogue_id, Scope::Only(&[member_id]))
                    .await
                    .map_err(app_error)?;
            }
            Change::Moved {
                venue: venue(pick),
                from: &pick.tier,
                to: tier.key(),
            }
        }
        Edit::Reorder {
            member_id,
            position,
        } => {
            let pick = find(&picks, member_id)?;
            let from = order(&picks, &pick.tier, None)
                .iter()
                .position(|id| *id == member_id)
                .unwrap_or_default();
            let mut tier = order(&picks, &pick.tier, Some(member_id));
            if position < 0 {
                return Err(invalid(format!(
                    "Position {position} impossible : les positions commencent à 0."
                )));
            }
            let at = usize::try_from(position).unwrap_or(usize::MAX);
            if at > tier.len() {
                return Err(invalid(format!(
                    "Position {position} hors du rang : de 0 à {}.",
                    tier.len()
                )));
            }
            tier.insert(at, member_id);
            catalogues::set_tier_order(conn, catalogue_id, &pick.tier, &tier)
                .await
                .map_err(app_error)?;
            Change::Reordered {
                venue: venue(pick),
                tier: &pick.tier,
                from,
                to: at,
            }
        }
        Edit::PinRoom { member_id, room_id } => {
            let pick = find(&picks, member_id)?;
            if let Some(room_id) = room_id {
                check_room(conn, &request, pick, room_id).await?;
            }
            catalogues::set_room(conn, catalogue_id, member_id, room_id)
                .await
                .map_err(app_error)?;
            // The reason names the room now pinned, not the one before.
            pick_reason::refresh(conn, catalogue_id, Scope::Only(&[member_id]))
                .await
                .map_err(app_error)?;
            Change::RoomPinned {
                venue: venue(pick),
                room_id,
                before: pick.room_id,
            }
        }
        Edit::Reason { member_id, reason } => {
            let pick = find(&picks, member_id)?;
            reason_text = rules::reason(&reason).map_err(invalid)?;
            catalogues::set_reason(conn, catalogue_id, member_id, &reason_text)
                .await
                .map_err(app_error)?;
            Change::ReasonEdited {
                venue: venue(pick),
                reason: &reason_text,
            }
        }
    };
    catalogues::refresh_acceptance(conn, catalogue_id)
        .await
        .map_err(app_error)?;
    let version = catalogues::bump_version(conn, catalogue_id, user_id)
        .await
        .map_err(app_error)?;
    audit::catalogue::record(conn, user_id, catalogue_id, Some(version), &change)
        .await
        .map_err(app_error)?;
    let view = view::load(conn, catalogue_id).await?;
    tx.commit().await.map_err(app_error)?;
    Ok(view)
}

fn venue(pick: &PickRow) -> Venue<'_> {
    Venue {
        id: pick.member_id,
        code: &pick.code,
    }
}

fn find(picks: &[PickRow], member_id: i64) -> Result<&PickRow, AppError> {
    picks
        .iter()
        .find(|p| p.member_id == member_id)
        .ok_or_else(|| invalid("Ce lieu n'est pas (ou plus) dans le catalogue."))
}

/// The tier's venues in their order, without `except`.
fn order(picks: &[PickRow], tier: &str, except: Option<i64>) -> Vec<i64> {
    picks
        .iter()
        .filter(|p| p.tier == tier && Some(p.member_id) != except)
        .map(|p| p.member_id)
        .collect()
}

#[allow(clippy::too_many_arguments)]
async fn add(
    conn: &mut PgConnection,
    user_id: i64,
    catalogue_id: i64,
    kind: Kind,
    request: &RequestInfo,
    picks: &[PickRow],
    query: &str,
    tier: Tier,
) -> Result<(i64, String), AppError> {
    let query = query.trim();
    if query.is_empty() {
        return Err(invalid("Indiquez le code ou le nom du lieu à ajouter."));
    }
    if query.chars().count() > 200 || query.contains('\0') {
        return Err(invalid(
            "Code ou nom de lieu trop long (200 caractères au plus).",
        ));
    }
    // A code anywhere, a name in the request's pool first, then in any
    // pool: the team may propose a venue of another pool (issue 29: the
    // search covers every pool, so does the builder).
    let mut found = catalogues::resolve_member(&mut *conn, request.pool_id, query)
        .await
        .map_err(app_error)?;
    if found.is_empty() {
        found = super::lookup::by_exact_name(&mut *conn, query)
            .await
            .map_err(app_error)?;
    }
    let member = match found.as_slice() {
        [] => return Err(invalid(format!("Aucun lieu « {query} »."))),
        [one] => one,
        _ => {
            return Err(invalid(format!(
                "Plusieurs lieux s'appellent « {query} » : indiquez leur code."
            )))
        }
    };
    if member.status != "active" {
        return Err(invalid(format!(
            "Le lieu {} ({}) n'est pas actif : il ne peut pas être proposé.",
            member.code, member.name
        )));
    }
    if picks.iter().any(|p| p.member_id == member.id) {
        return Err(invalid(format!(
            "{} ({}) est déjà au catalogue.",
            member.name, member.code
        )));
    }
    let recommended = picks.iter().filter(|p| p.tier == "recommended").count();
    let (r, c) = match tier {
        Tier::Recommended => (recommended + 1, picks.len() - recommended),
        Tier::Compatible => (recommended, picks.len() - recommended + 1),
    };
    rules::check(kind, r, c).map_err(invalid)?;
    let position = picks.iter().filter(|p| p.tier == tier.key()).count();
    let pick = NewPick {
        member_id: member.id,
        tier: tier.key(),
        position: i32::try_from(position).unwrap_or(i32::MAX),
        explanation: "",
        room_id: None,
        added_by: "team",
    };
    catalogues::insert_pick(conn, catalogue_id, &pick, user_id)
        .await
        .map_err(app_error)?;
    Ok((member.id, member.code.clone()))
}

/// Only a room of this venue that holds the group in a requested layout.
async fn check_room(
    conn: &mut PgConnection,
    request: &RequestInfo,
    pick: &PickRow,
    room_id: i64,
) -> Result<(), AppError> {
    let rows = write_targets::room_capacities(&mut *conn, &[room_id])
        .await
        .map_err(app_error)?;
    let Some(first) = rows.first() else {
        return Err(invalid(format!("Salle inconnue (n° {room_id}).")));
    };
    if first.member_id != pick.member_id {
        return Err(invalid(format!(
            "La salle « {} » n'appartient pas au lieu {} : épinglez une de ses salles.",
            first.room_name, pick.code
        )));
    }
    if view::choice(&view::brief(request), &rows, room_id).is_none() {
        let who = request
            .participants
            .map_or_else(|| "le groupe".to_string(), |n| format!("{n} personnes"));
        let layouts = if request.configurations.is_empty() {
            String::new()
        } else {
            let phrases: Vec<String> = request
                .configurations
                .iter()
                .map(|c| phrase_of(c))
                .collect();
            format!(" {}", phrases.join(" ou "))
        };
        return Err(invalid(format!(
            "La salle « {} » ne peut pas recevoir {who}{layouts}.",
            first.room_name
        )));
    }
    Ok(())
}
