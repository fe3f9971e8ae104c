//! Dataset-wide invariants: determinism, unique codes, coherent capacities,
//! catalogue picks inside their request's hard filter, keyword-free showcases.

use std::collections::BTreeSet;

use super::geography::{self, Ring};
use super::model::{Area, Configuration, Dataset};
use super::showcase::SHOWCASES;
use super::{digest, generate};

fn text_of(data: &Dataset, member_id: i64) -> String {
    let m = &data.members[(member_id - 1) as usize];
    let mut parts = vec![m.name.clone(), m.description.clone()];
    parts.extend(
        data.rooms
            .iter()
            .filter(|r| r.member_id == member_id)
            .flat_map(|r| [r.name.clone(), r.description.clone()]),
    );
    parts.extend(
        data.member_tags
            .iter()
            .filter(|t| t.member_id == member_id)
            .map(|t| data.tags[(t.tag_id - 1) as usize].name.to_string()),
    );
    parts.extend(
        data.knowledge
            .iter()
            .filter(|k| k.member_id == member_id)
            .map(|k| k.content.clone()),
    );
    parts.join("\n").to_lowercase()
}

#[test]
fn same_seed_same_data_other_seed_other_data() {
    let a = digest(&generate(42, 400));
    assert_eq!(a, digest(&generate(42, 400)));
    assert_ne!(a, digest(&generate(43, 400)));
}

/// The demo CI and every developer load: a change to the generator, its
/// word lists, the gazetteer or the room configurations that alters the
/// data shows here. Update the values only once the change is meant.
#[test]
fn the_demo_data_of_known_seeds_does_not_drift() {
    assert_eq!(digest(&generate(42, 400)), "86c3210db4199f89");
    assert_eq!(digest(&generate(7, 1200)), "6ab93fdaf184e9cb");
}

#[test]
fn members_are_prefix_stable() {
    let small = generate(7, 50);
    let large = generate(7, 120);
    for (a, b) in small.members.iter().zip(&large.members) {
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }
}

#[test]
fn codes_unique_and_counts_plausible() {
    let data = generate(1, 2000);
    let codes: BTreeSet<&str> = data.members.iter().map(|m| m.code.as_str()).collect();
    assert_eq!(codes.len(), 2000);
    assert_eq!(data.members[0].code, "#100");
    let rooms_per_member = data.rooms.len() as f64 / 2000.0;
    assert!((3.0..4.2).contains(&rooms_per_member), "{rooms_per_member}");
    let caps_per_room = data.capacities.len() as f64 / data.rooms.len() as f64;
    assert!((3.0..5.0).contains(&caps_per_room), "{caps_per_room}");
    let paris = data
        .members
        .iter()
        .filter(|m| m.postal_code.starts_with("75"))
        .count() as f64
        / 2000.0;
    assert!((0.55..0.66).contains(&paris), "Paris share {paris}");
    let active = data.members.iter().filter(|m| m.status == "active").count() as f64 / 2000.0;
    assert!(active > 0.8);
    assert_eq!(data.requests.len(), 40);
    let names: BTreeSet<&str> = data.members.iter().map(|m| m.name.as_str()).collect();
    assert!(
        names.len() as f64 > 0.97 * 2000.0,
        "names mostly unique: {}",
        names.len()
    );
    for m in &data.members {
        let place = geography::by_postal_code(m.postal_code).map(|p| (p.at.lat, p.at.lng, p.ring));
        let (lat, lng, ring) = place.unwrap_or((0.0, 0.0, Ring::Paris));
        let limit = if ring == Ring::Paris { 1.01 } else { 3.01 };
        assert!(
            geography::distance_km((m.lat, m.lng), (lat, lng)) <= limit,
            "{}",
            m.name
        );
        assert!(m.price_per_person_min_eur <= m.price_per_person_max_eur);
    }
}

#[test]
fn capacities_are_coherent() {
    let data = generate(3, 1500);
    let mut by_room: Vec<[Option<i32>; 7]> = vec![[None; 7]; data.rooms.len()];
    for c in &data.capacities {
        assert!(c.max_capacity > 0);
        let slot = &mut by_room[(c.room_id - 1) as usize][c.configuration as usize];
        assert!(slot.is_none(), "one row per room and configuration");
        *slot = Some(c.max_capacity);
    }
    for (i, caps) in by_room.iter().enumerate() {
        assert!(
            caps.iter().any(Option::is_some),
            "room {} has a configuration",
            i + 1
        );
        let get = |c: Configuration| caps[c as usize];
        let le = |a: Configuration, b: Configuration| match (get(a), get(b)) {
            (Some(x), Some(y)) => x <= y,
            _ => true,
        };
        for c in Configuration::ALL {
            assert!(
                le(c, Configuration::Cocktail),
                "{c:?} ≤ cocktail in room {}",
                i + 1
            );
        }
        assert!(
            le(Configuration::Cabaret, Configuration::Banquet)
                && le(Configuration::Ecole, Configuration::Theatre)
        );
        for small in [Configuration::U, Configuration::Reunion] {
            for big in [
                Configuration::Theatre,
                Configuration::Banquet,
                Configuration::Ecole,
                Configuration::Cabaret,
            ] {
                assert!(le(small, big), "{small:?} ≤ {big:?} in room {}", i + 1);
            }
        }
    }
    for m in &data.members {
        let max = data
            .capacities
            .iter()
            .filter(|c| c.member_id == m.id)
            .map(|c| c.max_capacity)
            .max();
        assert_eq!(max, Some(m.capacity_max));
    }
}

#[test]
fn picks_satisfy_their_request() {
    let data = generate(11, 3000);
    assert!(
        data.catalogues.len() > 15,
        "{} catalogues",
        data.catalogues.len()
    );
    for pick in &data.picks {
        let catalogue = &data.catalogues[(pick.catalogue_id - 1) as usize];
        let request = &data.requests[(catalogue.request_id - 1) as usize];
        let member = &data.members[(pick.member_id - 1) as usize];
        assert_eq!(member.pool_id, request.pool_id, "same pool");
        assert_eq!(member.status, "active");
        let room = &data.rooms[(pick.room_id - 1) as usize];
        assert_eq!(
            room.member_id, member.id,
            "pinned room belongs to the venue"
        );
        let fits = data.capacities.iter().any(|c| {
            c.room_id == room.id
                && request.configurations.contains(&c.configuration)
                && c.max_capacity >= request.participants
        });
        assert!(fits, "room {} fits request {}", room.id, request.id);
        match &request.area {
            Area::PostalCodes(codes) => assert!(codes.contains(&member.postal_code)),
            Area::Radius { lat, lng, km } => {
                assert!(geography::distance_km((member.lat, member.lng), (*lat, *lng)) <= *km)
            }
        }
        assert!(!pick.explanation.is_empty() && pick.explanation.ends_with('.'));
    }
    for c in data.catalogues.iter().filter(|c| c.kind == "standard") {
        let tiers: Vec<&str> = data
            .picks
            .iter()
            .filter(|p| p.catalogue_id == c.id)
            .map(|p| p.tier)
            .collect();
        assert_eq!(tiers.iter().filter(|t| **t == "recommended").count(), 4);
        assert!(tiers.len() <= 8);
    }
    assert!(data.training.iter().any(|t| t.verdict == "guideline"));
    assert!(data.signals.iter().any(|s| s.kind == "no_answer"));
}

#[test]
fn showcases_exist_at_small_sizes_without_their_keyword() {
    let data = generate(5, 12);
    for (i, show) in SHOWCASES.iter().enumerate() {
        let member = &data.members[i];
        assert_eq!(member.name, show.name);
        assert_eq!(member.status, "active");
        let text = text_of(&data, member.id);
        for word in show.absent {
            assert!(
                !text.contains(word),
                "{} mentions {word}:\n{text}",
                show.name
            );
        }
    }
}

#[test]
fn implicit_venues_never_use_the_keyword() {
    let data = generate(9, 3000);
    let mut implicit = 0;
    for m in &data.members {
        let text = text_of(&data, m.id);
        for word in m.implicit.iter().filter_map(|f| f.keyword()) {
            implicit += 1;
            assert!(
                !text.contains(word),
                "{} ({}) says {word}:\n{text}",
                m.name,
                m.code
            );
        }
    }
    assert!(implicit > 100, "only {implicit} implicit concept mentions");
}

/// Eyeballing aid, prints 25 venues from DUMP_FROM (default 0) and the first
/// requests and picks: `DUMP_FROM=1000 cargo test -p server --lib
/// demo::tests::dump_sample -- --ignored --nocapture`.
#[test]
#[ignore]
fn dump_sample() {
    let from: usize = std::env::var("DUMP_FROM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    // Members are prefix-stable: generating just enough shows the same venues.
    let data = generate(42, (from + 25).max(300));
    for m in data.members.iter().skip(from).take(25) {
        println!(
            "{} {} [{:?}] {} {} | {}",
            m.code, m.name, m.kind, m.postal_code, m.status, m.description
        );
        for r in data.rooms.iter().filter(|r| r.member_id == m.id) {
            let caps: Vec<String> = data
                .capacities
                .iter()
                .filter(|c| c.room_id == r.id)
                .map(|c| format!("{}={}", c.configuration.key(), c.max_capacity))
                .collect();
            println!("    - {} : {} [{}]", r.name, r.description, caps.join(" "));
        }
        println!(
            "    {}",
            text_of(&data, m.id)
                .lines()
                .skip(1)
                .last()
                .unwrap_or_default()
        );
    }
    for r in data.requests.iter().take(12) {
        println!(
            "{} {} n={} {:?} {} | {}",
            r.reference, r.status, r.participants, r.configurations, r.area_label, r.description
        );
    }
    for p in data.picks.iter().take(16) {
        println!(
            "pick c{} m{} {} {}",
            p.catalogue_id, p.member_id, p.tier, p.explanation
        );
    }
}
