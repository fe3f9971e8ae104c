//! Real places of Paris and Île-de-France, how a venue picks one, and where
//! exactly it sits (a seeded jitter around the place's centre).

mod paris;
mod suburbs;

use super::dice::{self, Dice};

/// How far from central Paris a place is; drives venue mix and jitter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ring {
    Paris,
    /// Petite couronne: Hauts-de-Seine, Seine-Saint-Denis, Val-de-Marne.
    Inner,
    /// Grande couronne and the châteaux country beyond.
    Outer,
}

/// A town or an arrondissement venues can be placed in.
#[derive(Debug)]
pub struct Place {
    pub city: &'static str,
    /// What people call it ("Paris 8e", "Courbevoie – La Défense").
    pub label: &'static str,
    /// Postal code and centre, from the gazetteer (`geo`).
    pub at: app::geo::Located,
    pub ring: Ring,
    /// Relative share of the venues placed here.
    pub weight: u32,
    /// Neighbourhoods, with their article ("les Ternes").
    pub quarters: &'static [&'static str],
    pub streets: &'static [&'static str],
    /// Public transport, with its mode ("métro Ternes", "RER A La Défense").
    pub access: &'static [&'static str],
    /// Quays where boats moor; empty when the place has no usable waterfront.
    pub moorings: &'static [&'static str],
    /// What a window or a terrace can look onto ("la tour Eiffel").
    pub views: &'static [&'static str],
}

/// What kind of place a venue kind looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// Mostly Paris, some inner suburbs, a few further out.
    City,
    /// Paris and the inner suburbs only (rooftops, lofts, galleries…).
    Urban,
    /// Only places with quays (barges, guinguettes).
    Waterfront,
    /// Mostly the outer ring (châteaux, domaines).
    Countryside,
    /// Business districts and transport hubs (seminar centres).
    Business,
}

/// Every place, Paris first.
pub fn places() -> impl Iterator<Item = &'static Place> {
    paris::ARRONDISSEMENTS
        .iter()
        .chain(suburbs::COMMUNES.iter())
}

/// Looks a place up by postal code (used by the hand-written showcase venues).
pub fn by_postal_code(code: &str) -> Option<&'static Place> {
    places().find(|p| p.at.postal_code == code)
}

/// A place for a venue looking for `setting`.
pub fn choose(rng: &mut Dice, setting: Setting) -> &'static Place {
    let weighted: Vec<(&'static Place, u32)> = places()
        .map(|place| (place, place.weight * affinity(place, setting)))
        .filter(|(_, w)| *w > 0)
        .collect();
    let place: &&'static Place = dice::weighted(rng, &weighted);
    place
}

/// Multiplier of a place's weight for a setting. Paris arrondissements weigh
/// 101 in total against 66 for the suburbs; these factors land about 60 %
/// of all venues in Paris once the settings of every kind are mixed in.
fn affinity(place: &Place, setting: Setting) -> u32 {
    match (setting, place.ring) {
        (Setting::City, Ring::Paris) => 6,
        (Setting::City, Ring::Inner) => 6,
        (Setting::City, Ring::Outer) => 4,
        (Setting::Urban, Ring::Paris) => 8,
        (Setting::Urban, Ring::Inner) => 6,
        (Setting::Urban, Ring::Outer) => 0,
        (Setting::Waterfront, _) if place.moorings.is_empty() => 0,
        (Setting::Waterfront, Ring::Paris) => 12,
        (Setting::Waterfront, _) => 6,
        (Setting::Countryside, Ring::Paris) => 0,
        (Setting::Countryside, Ring::Inner) => 2,
        (Setting::Countryside, Ring::Outer) => 40,
        (Setting::Business, Ring::Paris) => 8,
        (Setting::Business, Ring::Inner) => 10,
        (Setting::Business, Ring::Outer) => 2,
    }
}

/// A position within ~1 km (Paris) or ~3 km (elsewhere) of the centre,
/// uniform over the disc, rounded to 6 decimals (about 10 cm) so the
/// values print identically everywhere.
pub fn jitter(rng: &mut Dice, place: &Place) -> (f64, f64) {
    let radius_km = if place.ring == Ring::Paris { 1.0 } else { 3.0 };
    let r = radius_km * dice::uniform(rng, 0.0, 1.0).sqrt();
    let theta = dice::uniform(rng, 0.0, std::f64::consts::TAU);
    let dlat = r * theta.cos() / 111.32;
    let dlng = r * theta.sin() / (111.32 * place.at.lat.to_radians().cos());
    (round6(place.at.lat + dlat), round6(place.at.lng + dlng))
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// The search's own distance (PostgreSQL's sphere), so seeded positions and
/// search radii agree.
pub use app::geo::distance_km;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{stream, Concept};
    use std::collections::BTreeSet;

    #[test]
    fn places_are_real_and_unique() {
        let codes: BTreeSet<&str> = places().map(|p| p.at.postal_code).collect();
        assert_eq!(codes.len(), places().count(), "one place per postal code");
        for n in 1..=20 {
            assert!(
                codes.contains(format!("750{n:02}").as_str()),
                "arrondissement {n}"
            );
        }
        for p in places() {
            assert!(
                (48.3..49.3).contains(&p.at.lat) && (1.7..2.9).contains(&p.at.lng),
                "{}",
                p.label
            );
            assert!(!p.quarters.is_empty() && !p.streets.is_empty() && !p.access.is_empty());
            assert!(!p.views.is_empty(), "{}", p.label);
        }
        // Spot-check a few centres against known coordinates.
        let versailles = by_postal_code("78000").map(|p| (p.at.lat, p.at.lng));
        assert!(versailles.is_some_and(|c| distance_km(c, (48.8049, 2.1204)) < 1.0));
        let eighth = by_postal_code("75008").map(|p| (p.at.lat, p.at.lng));
        assert!(eighth.is_some_and(|c| distance_km(c, (48.8738, 2.2950)) < 3.0));
    }

    #[test]
    fn jitter_stays_close() {
        let mut rng = stream(3, Concept::Member, 0);
        for place in places() {
            for _ in 0..50 {
                let (lat, lng) = jitter(&mut rng, place);
                let limit = if place.ring == Ring::Paris {
                    1.01
                } else {
                    3.01
                };
                assert!(distance_km((lat, lng), (place.at.lat, place.at.lng)) <= limit);
            }
        }
    }

    #[test]
    fn settings_pick_plausible_places() {
        let mut rng = stream(5, Concept::Member, 1);
        for _ in 0..200 {
            assert!(!choose(&mut rng, Setting::Waterfront).moorings.is_empty());
        }
        let outer = (0..400).filter(|_| choose(&mut rng, Setting::Countryside).ring == Ring::Outer);
        assert!(outer.count() > 300, "châteaux mostly outside Paris");
    }

    #[test]
    fn distance_matches_known_values() {
        // Notre-Dame to the Eiffel Tower is about 4.1 km.
        let d = distance_km((48.8530, 2.3499), (48.8584, 2.2945));
        assert!((3.9..4.3).contains(&d), "{d}");
    }
}
