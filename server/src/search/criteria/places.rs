//! Where: every place reading, in order, and the communes themselves ("à
//! Boulogne", "Neuilly", "St-Denis").
//!
//! The order matters: a distance first ("à 1 km de la tour Montparnasse"
//! is a radius around it), then the areas too wide to filter, the named
//! areas ("dans le Marais"), the points without a distance ("près de la
//! gare du Nord"), and last the arrondissements, postal codes, communes
//! and Paris as a whole; last, the places outside the area (« à Lyon »). Postal codes and a radius may come together; the
//! search then asks for both.

use super::guards::{named_after_something, seen_not_visited};
use super::named_places::NamedPlaces;
use super::scan::Scan;
use super::{
    areas, arrondissements, broad, departments, elsewhere, near, place_spelling, postal_codes,
    whole_paris, Criteria,
};
use crate::geo::{self, Context, Place};

/// Reads every place of the text into `found`: postal codes, a centre
/// with or without a radius, unknown Paris codes, and whether the area is
/// too broad to search. Notes what needs saying.
pub fn extract(scan: &mut Scan, found: &mut Criteria, notes: &mut Vec<String>) {
    near::extract_distances(scan, found, notes);
    let broad = broad::extract(scan);
    let mut named = NamedPlaces::default();
    areas::extract(scan, &mut named);
    near::extract_proximities(scan, found, notes);
    let mut i = 0;
    while i < scan.len() {
        let read = named.len();
        let next = arrondissements::at(scan, &mut named, i)
            .or_else(|| whole_paris::at(scan, &mut named, i))
            .or_else(|| departments::at(scan, &mut named, i))
            .or_else(|| postal_codes::at(scan, &mut named, i))
            .or_else(|| commune_at(scan, &mut named, i))
            .or_else(|| elsewhere::at(scan, &mut found.places_elsewhere, i))
            .unwrap_or(i + 1);
        if named.len() > read {
            named.rule_out_if_negated(scan, read, i..next);
        }
        i = next.max(i + 1);
    }
    if broad.outside_paris {
        found.excluded_departments.push("75".to_string());
    }
    named.write(found, notes);
    found.broad_area = broad.mentioned
        && found.postal_codes.is_empty()
        && found.departments.is_empty()
        && found.unknown_postal_codes.is_empty()
        && found.near.is_none()
        && found.places_elsewhere.is_empty()
        && found.member_codes.is_empty();
}

/// Words after which a misspelt name is read as a place.
const ANNOUNCE: &[&str] = &["a", "sur", "vers", "cote", "dans"];

/// A commune ("à Boulogne", "Neuilly", "Saint-Germain-en-Laye") at `i`.
fn commune_at(scan: &mut Scan, named: &mut NamedPlaces, i: usize) -> Option<usize> {
    let m = geo::match_place(&scan.free_words(i, 8), Context::Triggered).or_else(|| {
        // A misspelt name only after a word that puts the event there.
        let announced = i
            .checked_sub(1)
            .and_then(|k| scan.tokens.get(k))
            .is_some_and(|t| ANNOUNCE.contains(&t.text.as_str()));
        announced
            .then(|| place_spelling::place_at(scan, i, Context::Triggered))
            .flatten()
    })?;
    let end = i + m.words;
    match m.place {
        // A landmark the near pass left (a second centre, a view): its
        // words are not a commune either ("bois de Boulogne").
        Place::Landmark(_) | Place::Arrondissement(_) => Some(end),
        Place::Commune(c) => {
            if named_after_something(scan, i) || seen_not_visited(scan, i) {
                return Some(end);
            }
            named.codes(i, [c.postal_code]);
            scan.consume(i..end);
            Some(end)
        }
    }
}
