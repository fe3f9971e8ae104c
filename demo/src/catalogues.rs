//! Catalogues answering requests: 4 recommended + up to 4 compatible venues
//! taken only from the request's hard-filter candidates (same pool, area,
//! configuration × capacity), each with its pinned room and one sentence.
//! Never padded: fewer than 4 candidates means no catalogue yet.

mod explain;

use super::checks;
use super::dice::{self, Dice};
use super::index::Match;
use super::model::{Area, Catalogue, CataloguePick, Dataset, Request};
use super::requests::{Brief, Context};

pub fn attach(
    rng: &mut Dice,
    data: &mut Dataset,
    ctx: &Context,
    request: &mut Request,
    brief: &Brief,
) {
    let wanted = match request.status {
        "catalogue_sent" | "won" | "lost" => true,
        "qualifying" => dice::chance(rng, 0.3),
        "cancelled" => dice::chance(rng, 0.5),
        _ => false,
    };
    if !wanted {
        return;
    }
    if brief.candidates.len() < 4 {
        // Not enough strong venues: the team is still qualifying.
        request.status = "qualifying";
        request.closed_reason = None;
        return;
    }
    let ranked = rank(rng, data, ctx, request, brief);
    let draft = request.status == "qualifying";
    let catalogue_id = data.catalogues.len() as i64 + 1;
    let created_at = request.created_at.plus_hours(dice::between(rng, 2, 72));
    let sent_at = (!draft).then(|| created_at.plus_hours(dice::between(rng, 1, 24)));
    data.catalogues.push(Catalogue {
        id: catalogue_id,
        request_id: request.id,
        kind: "standard",
        status: if draft { "draft" } else { "sent" },
        created_by: request.assigned_user_id,
        sent_at,
        created_at,
    });
    let remaining = ranked.len() - 4;
    let mut compatible = remaining.min(4);
    if compatible == 4 && dice::chance(rng, 0.3) {
        compatible = dice::between(rng, 2, 3) as usize; // 4+2 strong beats 4+4 shaky
    }
    let radius = match request.area {
        Area::Radius { km, .. } => km,
        Area::PostalCodes(_) => 3.0,
    };
    for (i, m) in ranked.iter().take(4 + compatible).enumerate() {
        let recommended = i < 4;
        let explanation = if recommended {
            explain::recommended(rng, data, ctx, request, brief, m)
        } else {
            explain::compatible(rng, data, ctx, request, brief, m, radius)
        };
        push_pick(
            rng,
            data,
            catalogue_id,
            request,
            m,
            recommended,
            (if recommended { i } else { i - 4 }) as i32,
            explanation,
            created_at,
        );
    }
    if request.status == "won" {
        let winner = if dice::chance(rng, 0.7) {
            0
        } else {
            dice::between(rng, 1, 3) as usize
        };
        request.won_member_id = ranked.get(winner).map(|m| data.members[m.member].id);
    }
    if let Some(sent) = sent_at {
        let picks: Vec<(i64, bool)> = ranked
            .iter()
            .take(4 + compatible)
            .enumerate()
            .map(|(i, m)| (data.members[m.member].id, i < 4))
            .collect();
        checks::attach(rng, data, ctx.seed, request, sent, &picks);
        checks::booked(rng, data, request, sent);
        if ranked.len() >= 10 && dice::chance(rng, 0.08) {
            training_catalogue(rng, data, request, &ranked, created_at);
        }
    }
}

/// Candidates best first: capacity fit, distance, wishes, team favourites,
/// and some seeded noise standing in for everything else the team weighs.
fn rank(
    rng: &mut Dice,
    data: &Dataset,
    ctx: &Context,
    request: &Request,
    brief: &Brief,
) -> Vec<Match> {
    let radius = match request.area {
        Area::Radius { km, .. } => km,
        Area::PostalCodes(_) => 4.0,
    };
    let wished: Vec<i64> = brief
        .wished
        .iter()
        .filter_map(|t| super::tags::tag_id(t))
        .collect();
    let mut scored: Vec<(f64, i64, Match)> = brief
        .candidates
        .iter()
        .map(|m| {
            let fit = f64::from(request.participants) / f64::from(m.capacity);
            let member_id = data.members[m.member].id;
            let tags = ctx.index.tags_of(m.member);
            let score = (1.0 - (0.75 - fit).abs())
                + (1.0 - (m.distance_km / (radius * 1.5)).min(1.0))
                + 0.6 * wished.iter().filter(|t| tags.contains(t)).count() as f64
                + if ctx.favourites.binary_search(&member_id).is_ok() {
                    0.3
                } else {
                    0.0
                }
                + dice::uniform(rng, 0.0, 0.5);
            (score, member_id, *m)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().map(|(_, _, m)| m).collect()
}

#[allow(clippy::too_many_arguments)] // one row's worth of columns
fn push_pick(
    rng: &mut Dice,
    data: &mut Dataset,
    catalogue_id: i64,
    request: &Request,
    m: &Match,
    recommended: bool,
    position: i32,
    explanation: String,
    created_at: super::model::Stamp,
) {
    let by_ai = dice::chance(rng, 0.7);
    data.picks.push(CataloguePick {
        id: data.picks.len() as i64 + 1,
        catalogue_id,
        member_id: data.members[m.member].id,
        tier: if recommended {
            "recommended"
        } else {
            "compatible"
        },
        position,
        explanation,
        room_id: m.room_id,
        added_by: if by_ai { "ai" } else { "team" },
        added_by_user_id: if by_ai {
            None
        } else {
            request.assigned_user_id
        },
        created_at,
    });
}

/// A training-workspace catalogue: up to 25 picks, never sent.
fn training_catalogue(
    rng: &mut Dice,
    data: &mut Dataset,
    request: &Request,
    ranked: &[Match],
    at: super::model::Stamp,
) {
    let catalogue_id = data.catalogues.len() as i64 + 1;
    let created_at = at.plus_days(dice::between(rng, 1, 10));
    data.catalogues.push(Catalogue {
        id: catalogue_id,
        request_id: request.id,
        kind: "training",
        status: "draft",
        created_by: request.assigned_user_id,
        sent_at: None,
        created_at,
    });
    let count = ranked.len().min(dice::between(rng, 10, 25) as usize);
    for (i, m) in ranked.iter().take(count).enumerate() {
        let recommended = i < count / 3;
        let explanation = String::from(if recommended {
            "Scénario d'entraînement : pick fort."
        } else {
            "Scénario d'entraînement : alternative."
        });
        let position = if recommended { i } else { i - count / 3 } as i32;
        push_pick(
            rng,
            data,
            catalogue_id,
            request,
            m,
            recommended,
            position,
            explanation,
            created_at,
        );
    }
}
