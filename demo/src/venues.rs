//! One member (venue) at a time: plan it, name it, lay out its rooms,
//! describe it, tag it, price it. Members 1..=N come from their own seeded
//! stream, so member #k is identical whatever the total.

use std::collections::HashSet;

use super::descriptions;
use super::dice::{self, Concept, Dice};
use super::features::Wording;
use super::french::slug;
use super::geography;
use super::knowledge;
use super::model::{AttrValue, KnowledgeEntry, Member, Stamp, BASE};
use super::names;
use super::pools::{self, Kind, Size};
use super::rooms::{self, PlannedRoom};
use super::showcase::{Showcase, SHOWCASES};
use super::sketch::{self, Sketch};
use super::tags;

/// A member with everything that hangs off it, before room/entry ids.
pub struct Venue {
    pub member: Member,
    pub rooms: Vec<PlannedRoom>,
    pub tag_ids: Vec<i64>,
    pub attributes: Vec<(i64, AttrValue)>,
    /// Entries with `id` 0: the caller numbers them.
    pub knowledge: Vec<KnowledgeEntry>,
}

/// Member `id` (1-based). `taken` holds the names already used: a clashing
/// name is redrawn a few times, then qualified by its street.
pub fn venue(seed: u64, id: i64, taken: &mut HashSet<String>) -> Venue {
    let mut rng = dice::stream(seed, Concept::Member, id as u64);
    let showcase = usize::try_from(id - 1).ok().and_then(|i| SHOWCASES.get(i));
    let (sketch, name, rooms, description) = match showcase {
        Some(show) => {
            let sketch = showcase_sketch(&mut rng, show);
            let rooms = rooms::plan_fixed(&mut rng, show.size, show.rooms, sketch.park_hectares);
            (
                sketch,
                show.name.to_string(),
                rooms,
                Some(show.description.to_string()),
            )
        }
        None => {
            let kind = pools::choose_kind(&mut rng);
            let sketch = sketch::plan(&mut rng, kind);
            let name = unique_name(&mut rng, &sketch, taken);
            let rooms = rooms::plan(&mut rng, &sketch);
            (sketch, name, rooms, None)
        }
    };
    taken.insert(name.clone());
    let capacity_max = rooms
        .iter()
        .flat_map(|r| r.capacities.iter().map(|(_, n)| *n))
        .max()
        .unwrap_or(10);
    let description = description
        .unwrap_or_else(|| descriptions::compose(&mut rng, &sketch, capacity_max, rooms.len()));
    let (price_min, price_max, hire, notes) = prices(&mut rng, &sketch);
    let min_budget = hire.unwrap_or(price_min.unwrap_or(50) * 30);
    let tag_ids = tags::tags_for(&mut rng, &sketch);
    let attributes = tags::attributes_for(&mut rng, &sketch, min_budget);
    let knowledge = knowledge::entries(&mut rng, &sketch, showcase.is_some(), capacity_max);
    let (lat, lng) = geography::jitter(&mut rng, sketch.place);
    let created_at = BASE
        .plus_days(-dice::between(&mut rng, 30, 900))
        .plus_minutes(dice::between(&mut rng, 0, 1439));
    let updated_at = created_at.plus_days(dice::between(&mut rng, 0, 25));
    let status = if showcase.is_some() {
        "active"
    } else {
        *dice::weighted(&mut rng, &[("active", 88), ("inactive", 7), ("pending", 5)])
    };
    let domain = slug(&name);
    let member = Member {
        id,
        code: format!("#{}", 99 + id),
        name,
        pool_id: sketch.kind.pool() as i64 + 1,
        kind: sketch.kind,
        implicit: sketch
            .features
            .iter()
            .filter(|(_, w)| *w == Wording::Implicit)
            .map(|(f, _)| *f)
            .collect(),
        status,
        address: address(&mut rng, &sketch),
        postal_code: sketch.place.at.postal_code,
        city: sketch.place.city,
        lat,
        lng,
        description,
        contact_email: format!("contact@{domain}.example"),
        // 01 99 00 xx xx is the range ARCEP reserves for fiction.
        contact_phone: format!(
            "+33 1 99 00 {:02} {:02}",
            dice::between(&mut rng, 0, 99),
            dice::between(&mut rng, 0, 99)
        ),
        website: format!("https://{domain}.example"),
        capacity_max,
        price_per_person_min_eur: price_min,
        price_per_person_max_eur: price_max,
        venue_hire_from_eur: hire,
        price_notes: notes,
        created_at,
        updated_at,
    };
    let knowledge = knowledge
        .into_iter()
        .map(|(title, content, source)| KnowledgeEntry {
            id: 0,
            member_id: id,
            title,
            content,
            source,
            created_by: (source == "team").then(|| dice::between(&mut rng, 2, 7)),
            created_at: entry_stamp(&mut rng, &member),
        })
        .collect();
    Venue {
        member,
        rooms,
        tag_ids,
        attributes,
        knowledge,
    }
}

fn showcase_sketch(rng: &mut Dice, show: &Showcase) -> Sketch {
    // The postal codes are constants of `SHOWCASES`; the fallback only
    // guards against a typo there.
    let place = geography::by_postal_code(show.postal_code)
        .unwrap_or_else(|| geography::choose(rng, show.kind.setting()));
    Sketch {
        kind: show.kind,
        place,
        quarter: show.quarter,
        street: show.street,
        mooring: show.mooring,
        size: show.size,
        style: show.style,
        features: show.features.to_vec(),
        catering: show.catering,
        equipment: Vec::new(),
        dj_allowed: false,
        bedrooms: 35,
        park_hectares: 40,
        plain: false,
    }
}

fn unique_name(rng: &mut Dice, sketch: &Sketch, taken: &HashSet<String>) -> String {
    let mut name = names::compose(rng, sketch);
    for _ in 0..4 {
        if !taken.contains(&name) {
            return name;
        }
        name = names::compose(rng, sketch);
    }
    let qualified = names::qualified(&name, sketch);
    if taken.contains(&qualified) {
        // Rare at 70,000 venues; real directories have homonyms too.
        return name;
    }
    qualified
}

fn address(rng: &mut Dice, sketch: &Sketch) -> String {
    match sketch.mooring {
        Some(quay) => format!(
            "{}, ponton {}",
            super::french::capitalize(quay),
            dice::between(rng, 1, 12)
        ),
        None => {
            let number = dice::between(rng, 1, 140);
            let bis = if dice::chance(rng, 0.06) { " bis" } else { "" };
            format!("{number}{bis} {}", sketch.street)
        }
    }
}

type Prices = (Option<i32>, Option<i32>, Option<i32>, Option<String>);

fn prices(rng: &mut Dice, sketch: &Sketch) -> Prices {
    let round5 = |x: i64| (x / 5 * 5) as i32;
    let (low, high) = sketch.kind.price_band();
    let min = round5(dice::between(rng, low.into(), ((low + high) / 2).into()));
    let max = round5(dice::between(
        rng,
        i64::from(min) + 10,
        i64::from(high.max(min + 10)),
    ));
    let (per_person_min, per_person_max) = if dice::chance(rng, 0.9) {
        (Some(min), Some(max))
    } else {
        (None, None)
    };
    let (hire_low, hire_high) = match sketch.size {
        Size::Small => (3, 15),
        Size::Medium => (12, 60),
        Size::Large => (40, 300),
    };
    let hire_amount = (dice::between(rng, hire_low, hire_high) * 100) as i32;
    let restaurant = sketch.kind.pool() == 1;
    let hire = (!restaurant || dice::chance(rng, 0.5)).then_some(hire_amount);
    let notes = dice::chance(rng, 0.6).then(|| match sketch.kind.pool() {
        0 => format!(
            "Journée d'étude dès {min} € HT par personne ; séminaire résidentiel sur devis."
        ),
        1 => format!("Privatisation contre un minimum de consommation de {hire_amount} € HT."),
        2 => format!("Location de l'espace à partir de {hire_amount} € HT, hors traiteur."),
        3 => format!("Forfait journée d'étude à partir de {min} € HT par personne."),
        _ if sketch.kind == Kind::Townhouse => {
            format!("Location en soirée à partir de {hire_amount} € HT.")
        }
        _ => format!("Location à la journée à partir de {hire_amount} € HT ; hébergement en sus."),
    });
    (per_person_min, per_person_max, hire, notes)
}

/// Stamp of a knowledge entry written some days after the member appeared.
fn entry_stamp(rng: &mut Dice, member: &Member) -> Stamp {
    let room = (BASE.0 - member.created_at.0) / 86_400;
    member
        .created_at
        .plus_days(dice::between(rng, 0, room.max(1)))
        .plus_minutes(dice::between(rng, 0, 600))
}
