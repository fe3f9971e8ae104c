//! Organizers' requests. Each one is drawn around an "anchor" venue (a real
//! active venue whose room fits), so the hard filter always finds at least
//! one candidate and the catalogue answering it can be genuine.
//!
//! The catalogues answering a request are drawn by `demo::catalogues`, which
//! reads the [`Brief`] defined here; this module does not call it by name
//! (the caller passes it to [`fill`]), so the two never import each other.

mod emails;
mod wording;

use super::dice::{self, Concept, Dice};
use super::geography::{self, Ring};
use super::index::{Index, Match};
use super::model::{Area, Dataset, Request, Stamp, BASE};
use super::team::{self, HANDLERS};

pub use wording::{EventType, EVENTS};

/// What requests and catalogues share while being generated.
pub struct Context<'a> {
    pub seed: u64,
    pub index: &'a Index,
    /// Member ids some team member has favourited, sorted.
    pub favourites: Vec<i64>,
}

/// What catalogues need to know about a request beyond its columns.
pub struct Brief {
    /// Tags the description asks for (its semantic wishes).
    pub wished: Vec<&'static str>,
    pub event: &'static EventType,
    pub candidates: Vec<Match>,
}

/// ≈ one request per 50 venues, at least 40 and at most 1,500.
pub fn count(members: usize) -> usize {
    (members / 50).clamp(40, 1500)
}

/// First day of 2026 and last plausible event day, in days since the epoch.
const YEAR_START: i64 = 20_454;
const YEAR_END: i64 = 20_805;

/// The step that answers a drafted request with its catalogue
/// (`demo::catalogues::attach`), run on the request's own random stream
/// before its e-mails, so the data depends on that order.
pub type AttachCatalogue = fn(&mut Dice, &mut Dataset, &Context, &mut Request, &Brief);

pub fn fill(data: &mut Dataset, ctx: &Context, attach_catalogue: AttachCatalogue) {
    let index = ctx.index;
    let active: Vec<usize> = index.all_active().collect();
    if active.is_empty() {
        return;
    }
    for n in 1..=count(data.members.len()) as u64 {
        let mut rng = dice::stream(ctx.seed, Concept::Request, n);
        let id = data.requests.len() as i64 + 1;
        // A few anchors may fit no event type (e.g. a single tiny room).
        let drafted = (0..5).find_map(|_| draft(&mut rng, data, index, &active, id));
        if let Some((mut request, brief)) = drafted {
            attach_catalogue(&mut rng, data, ctx, &mut request, &brief);
            emails::attach(&mut rng, data, &request);
            data.requests.push(request);
        }
    }
}

fn draft(
    rng: &mut Dice,
    data: &Dataset,
    index: &Index,
    active: &[usize],
    id: i64,
) -> Option<(Request, Brief)> {
    let anchor = *dice::pick(rng, active);
    let member = &data.members[anchor];
    let pool = usize::try_from(member.pool_id - 1).ok()?;
    let fitting: Vec<(&'static EventType, u32)> = wording::EVENTS
        .iter()
        .filter(|e| {
            e.configs
                .iter()
                .any(|c| index.max_capacity(anchor, *c) >= fits(e))
        })
        .map(|e| (e, e.pools[pool]))
        .filter(|(_, w)| *w > 0)
        .collect();
    if fitting.is_empty() {
        return None;
    }
    let event = *dice::weighted(rng, &fitting);
    let primary = *event
        .configs
        .iter()
        .find(|c| index.max_capacity(anchor, **c) >= fits(event))?;
    let mut configs = vec![primary];
    if let Some(second) = event.configs.iter().find(|c| **c != primary) {
        if dice::chance(rng, 0.4) {
            configs.push(*second);
        }
    }
    let room_capacity = f64::from(index.max_capacity(anchor, primary));
    let participants = (((room_capacity * dice::uniform(rng, 0.45, 0.95)) / 5.0).floor() as i32
        * 5)
    .max(event.min)
    .min(room_capacity as i32);

    let place = geography::by_postal_code(member.postal_code)?;
    let (mut area, mut centre, mut area_label) = area_around(rng, place, (member.lat, member.lng));
    let mut candidates = index.candidates(data, pool, &configs, participants, &area, centre);
    // Too few venues in the zone: widen it the way the team would
    // (never narrower than a radius already drawn).
    let drawn = match area {
        Area::Radius { km, .. } => km,
        Area::PostalCodes(_) => 0.0,
    };
    let mut km = 8.0;
    while km <= drawn {
        km *= 2.0;
    }
    while candidates.len() < 8 && km <= 80.0 {
        centre = (place.at.lat, place.at.lng);
        area = Area::Radius {
            lat: centre.0,
            lng: centre.1,
            km,
        };
        area_label = format!("{} km autour de {}", fr_number(km), place.label);
        candidates = index.candidates(data, pool, &configs, participants, &area, centre);
        km *= 2.0;
    }

    let wished = wording::wishes(rng, index.tags_of(anchor));
    let created_at = BASE
        .plus_days(-dice::between(rng, 0, 150))
        .plus_minutes(dice::between(rng, 420, 1260));
    let start = (created_at.day() + dice::between(rng, 14, 240)).clamp(YEAR_START + 7, YEAR_END);
    let multi_day =
        matches!(event.key, "seminaire" | "formation" | "team-building") && dice::chance(rng, 0.25);
    let organizer = wording::organizer(rng);
    let budget_pp = match (
        member.price_per_person_min_eur,
        member.price_per_person_max_eur,
    ) {
        (Some(low), Some(high)) => dice::between(rng, low.into(), high.into()),
        _ => dice::between(rng, 50, 120),
    };
    let budget = (dice::chance(rng, 0.8))
        .then(|| ((i64::from(participants) * budget_pp) / 100 * 100) as i32);
    let source = *dice::weighted(
        rng,
        &[
            ("form", 40),
            ("email", 30),
            ("phone", 15),
            ("manual", 10),
            ("import", 5),
        ],
    );
    let (status, closed_reason) = wording::status(rng, created_at, start);
    let assigned = dice::chance(rng, 0.85).then(|| {
        let handlers: Vec<i64> = HANDLERS.collect();
        let preferred = handlers
            .iter()
            .copied()
            .find(|u| team::home_pool(*u) == pool);
        match preferred {
            Some(user) if dice::chance(rng, 0.6) => user,
            _ => *dice::pick(rng, &handlers),
        }
    });
    let request = Request {
        id,
        reference: format!("D-{}-{:05}", year_of(created_at), id),
        pool_id: member.pool_id,
        source,
        organizer_phone: dice::chance(rng, 0.6).then(|| {
            format!(
                "+33 6 99 00 {:02} {:02}",
                dice::between(rng, 0, 99),
                dice::between(rng, 0, 99)
            )
        }),
        organizer_name: organizer.0,
        organizer_email: organizer.1,
        organizer_company: organizer.2,
        description: wording::description(rng, event, participants, &configs, &wished),
        complementary_info: wording::complementary(rng),
        event_type: event.key,
        participants,
        budget_eur: budget,
        budget_note: budget.and_then(|_| wording::budget_note(rng, budget_pp)),
        configurations: configs,
        area_label,
        area,
        event_start_day: start,
        event_end_day: multi_day.then(|| start + dice::between(rng, 1, 2)),
        date_flexible: dice::chance(rng, 0.3),
        date_notes: wording::date_notes(rng),
        team_memo: wording::memo(rng, &member.name),
        search_hints: wording::hints(rng),
        status,
        assigned_user_id: assigned,
        won_member_id: None,
        closed_reason,
        created_at,
        updated_at: created_at.plus_hours(dice::between(rng, 1, 96)),
    };
    Some((
        request,
        Brief {
            wished,
            event,
            candidates,
        },
    ))
}

/// Smallest room capacity that can host an event type (a little headroom
/// over its minimum head count).
fn fits(event: &EventType) -> i32 {
    event.min + event.min / 5
}

/// Postal codes around the anchor's town (55 %), or a radius around it.
fn area_around(
    rng: &mut Dice,
    place: &'static geography::Place,
    anchor: (f64, f64),
) -> (Area, (f64, f64), String) {
    let centre = (place.at.lat, place.at.lng);
    if dice::chance(rng, 0.55) {
        let reach = if place.ring == Ring::Paris { 3.5 } else { 10.0 };
        let mut near: Vec<(&'static geography::Place, f64)> = geography::places()
            .filter(|p| p.at.postal_code != place.at.postal_code)
            .map(|p| (p, geography::distance_km((p.at.lat, p.at.lng), centre)))
            .filter(|(_, d)| *d <= reach)
            .collect();
        near.sort_by(|a, b| a.1.total_cmp(&b.1));
        let extra = dice::between(rng, 0, 2) as usize;
        let mut chosen = vec![place];
        chosen.extend(near.into_iter().take(extra).map(|(p, _)| p));
        let label = chosen
            .iter()
            .map(|p| p.label)
            .collect::<Vec<_>>()
            .join(", ");
        (
            Area::PostalCodes(chosen.iter().map(|p| p.at.postal_code).collect()),
            centre,
            label,
        )
    } else {
        let base = if place.ring == Ring::Paris {
            dice::uniform(rng, 2.0, 5.0)
        } else {
            dice::uniform(rng, 8.0, 25.0)
        };
        let needed = geography::distance_km(anchor, centre) / 0.9;
        let km = (base.max(needed) * 2.0).ceil() / 2.0;
        let label = format!("{} km autour de {}", fr_number(km), place.label);
        (
            Area::Radius {
                lat: centre.0,
                lng: centre.1,
                km,
            },
            centre,
            label,
        )
    }
}

/// "4.5" → "4,5", "8" → "8".
fn fr_number(x: f64) -> String {
    format!("{x}").replace('.', ",")
}

fn year_of(stamp: Stamp) -> i32 {
    use chrono::Datelike;
    chrono::DateTime::from_timestamp(stamp.0, 0).map_or(2026, |t| t.year())
}
