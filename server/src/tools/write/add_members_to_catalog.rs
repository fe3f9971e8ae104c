//! `add_members_to_catalog`: venues for the request's draft catalogue.
//!
//! Seed 000's rules: 1 to 16 picks, and in chat at most 4 recommended and 4
//! compatible (« mieux 4+2 forts que 4+4 bancals »); the training workspace
//! may add up to 25. Every venue is an active member of the request's pool,
//! appears once, and a pinned room belongs to it and holds the request's
//! participants in one of the requested layouts. The proposal is checked
//! against the draft it lands in ([`draft`]): a full draft is replaced or
//! completed, and the card says which.
//!
//! Every message here may reach a person (the offline planner quotes them,
//! a failed card shows them): French, « vous », tiers in the team's words.
use super::text::one_sentence;
use super::unavailable;
use crate::db::write_targets::{self, MemberBrief, RequestBrief, RoomCapacity};
use crate::tools::args::{AddMembersToCatalog, CataloguePick, Tier};
use crate::tools::{Mode, ToolError};
use app::chat::{CardBody, CardPick};
use app::room_configurations::phrase_of;
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use std::collections::{HashMap, HashSet};

pub mod draft;
pub use draft::DraftChange;

/// The limits and the room check are the catalogue rules the builder
/// applies too (one place: [`crate::catalogue_builder::rules`]).
pub use crate::catalogue_builder::rules::{fitting, Limits, MAX_REASON_CHARS};

/// What a conversation of this mode may put in one call.
pub fn limits(mode: Mode) -> Limits {
    crate::catalogue_builder::rules::limits(kind(mode))
}

/// The catalogue a conversation of this mode fills.
pub fn kind(mode: Mode) -> crate::catalogue_builder::rules::Kind {
    use crate::catalogue_builder::rules::Kind;
    match mode {
        Mode::Chat => Kind::Standard,
        Mode::Training => Kind::Training,
    }
}

/// The canonical arguments: what the executor writes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogueArgs {
    pub request_id: i64,
    /// Recommended first, then compatible; the model's order within a tier.
    pub picks: Vec<ResolvedPick>,
    /// What the picks do to the draft, when it held venues (absent: it was
    /// empty and they are added).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draft: Option<DraftChange>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolvedPick {
    pub member_id: i64,
    pub member_code: String,
    pub tier: Tier,
    pub reason: String,
    pub room_id: Option<i64>,
}

impl CatalogueArgs {
    /// Back to the tool's input, to resolve again before writing: the
    /// picks, then those the card left out, with the card's mode.
    pub fn input(&self) -> AddMembersToCatalog {
        let left_out = self
            .draft
            .iter()
            .flat_map(|d| d.left_out.iter().map(|l| &l.pick));
        AddMembersToCatalog {
            request_id: self.request_id,
            mode: self.draft.as_ref().map(|d| d.mode),
            picks: self
                .picks
                .iter()
                .chain(left_out)
                .map(|p| CataloguePick {
                    member_code: p.member_code.clone(),
                    tier: p.tier,
                    reason: p.reason.clone(),
                    room_id: p.room_id,
                })
                .collect(),
        }
    }
}

fn invalid(text: String) -> ToolError {
    ToolError::InvalidArguments(text)
}

/// The tier's key in the database (`catalogue_picks.tier`).
pub fn tier_name(tier: Tier) -> &'static str {
    match tier {
        Tier::Recommended => "recommended",
        Tier::Compatible => "compatible",
    }
}

/// The tier in the team's words (singular): « recommandé », « compatible ».
pub fn tier_label(tier: Tier) -> String {
    let key = match tier {
        Tier::Recommended => "recommended",
        Tier::Compatible => "compatible",
    };
    app::fr::tier(key).to_lowercase()
}

/// Checks the picks' count, tiers, codes and reasons (no database).
fn check_shape(mode: Mode, args: &AddMembersToCatalog) -> Result<(), ToolError> {
    let limits = limits(mode);
    let n = args.picks.len();
    if n == 0 || n > limits.max_picks {
        return Err(invalid(format!(
            "« picks » doit contenir entre 1 et {} lieux (reçu {n})",
            limits.max_picks
        )));
    }
    if let Some(max) = limits.max_per_tier {
        for tier in [Tier::Recommended, Tier::Compatible] {
            let count = args.picks.iter().filter(|p| p.tier == tier).count();
            if count > max {
                return Err(invalid(format!(
                    "au plus {max} lieux {}s par catalogue (reçu {count}) : mieux vaut \
                     {max} + 2 lieux solides que de compléter avec des lieux faibles",
                    tier_label(tier)
                )));
            }
        }
    }
    let mut seen = HashSet::new();
    for pick in &args.picks {
        let code = pick.member_code.trim();
        if code.is_empty() {
            return Err(invalid("« member_code » ne peut pas être vide".into()));
        }
        if !seen.insert(code) {
            return Err(invalid(format!(
                "le lieu {code} apparaît deux fois : un lieu ne figure qu'une fois au catalogue"
            )));
        }
        one_sentence("reason", &pick.reason, MAX_REASON_CHARS)?;
    }
    Ok(())
}

/// Validates the call against the database and resolves it.
pub async fn resolve(
    conn: &mut PgConnection,
    mode: Mode,
    args: &AddMembersToCatalog,
) -> Result<CatalogueArgs, ToolError> {
    check_shape(mode, args)?;
    let request = write_targets::request(&mut *conn, args.request_id)
        .await
        .map_err(unavailable)?
        .ok_or_else(|| ToolError::NotFound(format!("demande {}", args.request_id)))?;
    let codes: Vec<String> = args
        .picks
        .iter()
        .map(|p| p.member_code.trim().to_string())
        .collect();
    let members: HashMap<String, MemberBrief> = write_targets::members_by_codes(&mut *conn, &codes)
        .await
        .map_err(unavailable)?
        .into_iter()
        .map(|m| (m.code.clone(), m))
        .collect();
    let room_ids: Vec<i64> = args.picks.iter().filter_map(|p| p.room_id).collect();
    let rooms = write_targets::room_capacities(&mut *conn, &room_ids)
        .await
        .map_err(unavailable)?;
    let mut picks = Vec::with_capacity(args.picks.len());
    for (pick, code) in args.picks.iter().zip(&codes) {
        let member = members
            .get(code)
            .ok_or_else(|| ToolError::NotFound(format!("lieu {code}")))?;
        if member.status != "active" {
            return Err(invalid(format!(
                "le lieu {code} ({}) n'est pas actif : il ne peut pas être proposé",
                member.name
            )));
        }
        if member.pool_id != request.pool_id {
            return Err(invalid(format!(
                "le lieu {code} n'appartient pas au pool de la demande {}",
                request.reference
            )));
        }
        if let Some(room_id) = pick.room_id {
            check_room(&request, member, room_id, &rooms)?;
        }
        picks.push(ResolvedPick {
            member_id: member.id,
            member_code: member.code.clone(),
            tier: pick.tier,
            reason: one_sentence("reason", &pick.reason, MAX_REASON_CHARS)?,
            room_id: pick.room_id,
        });
    }
    // Tier order: the card and the catalogue list recommended venues first.
    picks.sort_by_key(|p| p.tier != Tier::Recommended);
    let in_draft = draft::picks(&mut *conn, request.id, kind(mode).key())
        .await
        .map_err(unavailable)?;
    let (picks, draft) = draft::plan(limits(mode), args.mode, &in_draft, picks)?;
    Ok(CatalogueArgs {
        request_id: request.id,
        picks,
        draft,
    })
}

fn check_room(
    request: &RequestBrief,
    member: &MemberBrief,
    room_id: i64,
    rooms: &[RoomCapacity],
) -> Result<(), ToolError> {
    let rows: Vec<&RoomCapacity> = rooms.iter().filter(|r| r.room_id == room_id).collect();
    let Some(first) = rows.first() else {
        return Err(ToolError::NotFound(format!("salle {room_id}")));
    };
    if first.member_id != member.id {
        return Err(invalid(format!(
            "la salle {room_id} n'appartient pas au lieu {} : épinglez une salle de ce lieu \
             (matched_room de search_members) ou laissez « room_id » vide",
            member.code
        )));
    }
    if fitting(request, &rows).is_none() {
        let who = request
            .participants
            .map_or_else(|| "le groupe".to_string(), |n| format!("{n} personnes"));
        let layouts = if request.configurations.is_empty() {
            "en aucune configuration".to_string()
        } else {
            request
                .configurations
                .iter()
                .map(|c| phrase_of(c))
                .collect::<Vec<_>>()
                .join(" ou ")
        };
        return Err(invalid(format!(
            "la salle « {} » du lieu {} ne peut pas recevoir {who} {layouts}",
            first.room_name, member.code
        )));
    }
    Ok(())
}

/// The card: venues with tier, city, pinned room and its capacity.
pub async fn describe(
    conn: &mut PgConnection,
    mode: Mode,
    args: &CatalogueArgs,
) -> Result<(String, CardBody), ToolError> {
    let request = write_targets::request(&mut *conn, args.request_id)
        .await
        .map_err(unavailable)?;
    let ids: Vec<i64> = args.picks.iter().map(|p| p.member_id).collect();
    let members: HashMap<i64, MemberBrief> = write_targets::members_by_ids(&mut *conn, &ids)
        .await
        .map_err(unavailable)?
        .into_iter()
        .map(|m| (m.id, m))
        .collect();
    let room_ids: Vec<i64> = args.picks.iter().filter_map(|p| p.room_id).collect();
    let rooms = write_targets::room_capacities(&mut *conn, &room_ids)
        .await
        .map_err(unavailable)?;
    let picks = args
        .picks
        .iter()
        .map(|pick| {
            let member = members.get(&pick.member_id);
            let rows: Vec<&RoomCapacity> = rooms
                .iter()
                .filter(|r| Some(r.room_id) == pick.room_id)
                .collect();
            let fit = request.as_ref().and_then(|r| fitting(r, &rows));
            CardPick {
                tier: tier_name(pick.tier).to_string(),
                member_code: pick.member_code.clone(),
                member_name: member.map_or_else(|| "(lieu supprimé)".into(), |m| m.name.clone()),
                city: member.and_then(|m| m.city.clone()).unwrap_or_default(),
                room_name: rows.first().map(|r| r.room_name.clone()),
                capacity: fit.map(|(_, capacity)| capacity),
                configuration: fit.map(|(configuration, _)| configuration.to_string()),
                reason: pick.reason.clone(),
            }
        })
        .collect();
    let reference = request.as_ref().map_or_else(
        || format!("n° {}", args.request_id),
        |r| r.reference.clone(),
    );
    let venues = draft::venues(args.picks.len());
    let training = mode == Mode::Training;
    let catalogue = if training {
        "catalogue d'entraînement"
    } else {
        "catalogue"
    };
    let title = match &args.draft {
        None => format!("Ajouter {venues} au {catalogue} de la demande {reference}"),
        Some(change) => {
            let what = draft::sentence(change, limits(mode), args.picks.len(), training);
            let mut chars = what.chars();
            let what: String = chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect())
                .unwrap_or_default();
            format!("{what} ({catalogue} de la demande {reference})")
        }
    };
    let body = CardBody::Catalogue {
        request_id: args.request_id,
        request_reference: reference,
        picks,
    };
    Ok((title, body))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(participants: Option<i32>, configurations: &[&str]) -> RequestBrief {
        RequestBrief {
            id: 1,
            reference: "D-1".into(),
            pool_id: 1,
            participants,
            configurations: configurations.iter().map(|c| c.to_string()).collect(),
            event_start_date: None,
            event_end_date: None,
        }
    }

    fn room(configuration: &str, capacity: i32) -> RoomCapacity {
        RoomCapacity {
            room_id: 7,
            member_id: 3,
            room_name: "Salon".into(),
            configuration: Some(configuration.into()),
            max_capacity: Some(capacity),
        }
    }

    #[test]
    fn a_room_fits_in_the_first_requested_layout_that_holds_the_group() {
        let rows = [
            room("theatre", 300),
            room("cocktail", 200),
            room("banquet", 120),
        ];
        let rows: Vec<&RoomCapacity> = rows.iter().collect();
        let r = request(Some(180), &["banquet", "cocktail", "theatre"]);
        assert_eq!(fitting(&r, &rows), Some(("cocktail", 200)));
        assert_eq!(fitting(&request(Some(400), &["theatre"]), &rows), None);
        assert_eq!(fitting(&request(Some(100), &["ecole"]), &rows), None);
        assert_eq!(fitting(&request(None, &[]), &rows), Some(("theatre", 300)));
        assert_eq!(
            fitting(&request(Some(150), &[]), &rows),
            Some(("theatre", 300))
        );
    }

    fn pick(code: &str, tier: Tier) -> CataloguePick {
        CataloguePick {
            member_code: code.into(),
            tier,
            reason: "Belle terrasse.".into(),
            room_id: None,
        }
    }

    #[test]
    fn chat_allows_four_per_tier_and_training_twenty_five() {
        let many = |n: usize, tier| AddMembersToCatalog {
            request_id: 1,
            mode: None,
            picks: (0..n).map(|i| pick(&format!("#{i}"), tier)).collect(),
        };
        assert!(check_shape(Mode::Chat, &many(4, Tier::Recommended)).is_ok());
        assert!(check_shape(Mode::Chat, &many(5, Tier::Compatible)).is_err());
        assert!(check_shape(Mode::Training, &many(25, Tier::Compatible)).is_ok());
        assert!(check_shape(Mode::Training, &many(26, Tier::Compatible)).is_err());
        assert!(check_shape(Mode::Chat, &many(0, Tier::Compatible)).is_err());
        let twice = AddMembersToCatalog {
            request_id: 1,
            mode: None,
            picks: vec![pick("#1", Tier::Recommended), pick(" #1", Tier::Compatible)],
        };
        assert!(check_shape(Mode::Chat, &twice).is_err());
    }
}
