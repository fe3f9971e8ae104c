//! Searches around a point: "à moins de 5 km de la gare de Lyon", "dans un
//! rayon de 10 km autour de Versailles", "à 10 minutes à pied de Bastille",
//! "près de la tour Eiffel", "autour de La Défense", "à Montmartre".
//!
//! One centre per search (the SQL filter takes one point); further places
//! are taken out of the semantic query and listed in a note, so the
//! vector search is not steered towards a place the filter ignores.

use super::guards::{named_after_something, seen_not_visited};
use super::scan::Scan;
use super::{distance, places, Criteria, Near};
use crate::geo::{self, Context, Place};

/// The widest radius a search accepts.
pub const MAX_RADIUS_KM: f64 = 100.0;

/// Words that announce a place to search around.
#[rustfmt::skip]
const PROXIMITY: &[&str] = &[
    "pres", "tout pres", "juste a cote", "a cote", "proche", "tres proche", "a proximite",
    "a proximite immediate", "autour", "aux alentours", "aux abords", "non loin", "pas loin",
    "pas tres loin", "a deux pas", "a quelques pas", "a quelques minutes", "du cote", "cote",
    "vers", "dans le quartier", "dans le secteur", "quartier", "secteur", "en face", "face",
    "aux environs", "dans les environs", "en plein", "en plein coeur", "au coeur", "au pied",
];
/// Prepositions that make a landmark (not a commune: "à Boulogne" is a
/// postal code) the place of the event: "à Montmartre", "dans le Marais".
const LIGHT: &[&str] = &["a", "au", "aux", "dans", "sur"];
const LINKERS: &[&str] = &["de", "du", "des", "d", "a", "au", "aux"];
const ARTICLES: &[&str] = &["la", "le", "l", "les"];

/// What may precede a distance and belongs to it ("à moins de 5 km").
#[rustfmt::skip]
const DISTANCE_LEADS: &[&str] = &[
    "a", "a moins de", "a moins d", "moins de", "moins d", "a max", "a maximum", "a environ",
    "environ", "a pas plus de", "pas plus de", "dans un rayon de", "dans un rayon d",
    "dans un perimetre de", "un rayon de", "rayon de", "rayon", "max", "maximum", "maxi",
    "jusqu a", "dans les", "dans",
];
/// Distances that are a minimum, not a radius: left to the semantic query.
const AT_LEAST: &[&str] = &["plus de", "plus d", "au moins", "au minimum", "minimum"];

/// Takes distances first ("à 3 km de Bercy"), then proximity words and
/// bare landmarks ("près de la tour Eiffel", "gare de Lyon").
pub fn extract(scan: &mut Scan, found: &mut Criteria, notes: &mut Vec<String>) {
    let mut i = 0;
    while i < scan.len() {
        i = match distance_at(scan, i) {
            Some(hit) => take(scan, found, notes, hit),
            None => i + 1,
        };
    }
    let mut i = 0;
    while i < scan.len() {
        i = match proximity_at(scan, i) {
            Some(hit) => take(scan, found, notes, hit),
            None => i + 1,
        };
    }
}

/// A recognised "around this place" phrase.
struct Hit {
    start: usize,
    end: usize,
    place: Place,
    radius_km: f64,
    /// How a travel time became a radius, for the notes.
    converted: Option<String>,
}

/// Records the hit (or notes it as ignored when a centre is already set)
/// and returns where to resume.
fn take(scan: &mut Scan, found: &mut Criteria, notes: &mut Vec<String>, hit: Hit) -> usize {
    scan.consume(hit.start..hit.end);
    if found.near.is_some() {
        notes.push(format!("autre repère ignoré : {}", hit.place.name()));
        return hit.end;
    }
    let (lat, lng) = hit.place.position();
    let mut radius_km = hit.radius_km;
    if radius_km > MAX_RADIUS_KM {
        notes.push(format!("rayon limité à {MAX_RADIUS_KM} km"));
        radius_km = MAX_RADIUS_KM;
    }
    notes.extend(hit.converted);
    let label = hit.place.name().to_string();
    found.near = Some(Near {
        label,
        lat,
        lng,
        radius_km: Some(radius_km.max(0.1)),
    });
    hit.end
}

/// "<lead> <distance> [mode] [max] <linker> [article] <place>" at `i`.
fn distance_at(scan: &Scan, i: usize) -> Option<Hit> {
    let measured = distance::measure_at(scan, i)?;
    if scan.longest_before(i, AT_LEAST) > 0
        && scan.longest_before(i, &["pas plus de", "pas plus d"]) == 0
    {
        return None;
    }
    let p = measured.end;
    #[rustfmt::skip]
    let (_, linker) = scan.longest(p, &["de", "du", "des", "d", "autour de", "autour du", "autour des", "autour d"])?;
    let (place, end) = place_at(scan, p + linker, Context::Distance)?;
    // "à 45 min de Paris en voiture": the mode may follow the place.
    let later = distance::mode_at(scan, end);
    let (radius_km, converted) = measured.radius(later.map(|(speed, _)| speed));
    let end = end + later.map_or(0, |(_, n)| n);
    let start = i - scan.longest_before(i, DISTANCE_LEADS);
    Some(Hit {
        start,
        end,
        place,
        radius_km,
        converted,
    })
}

/// A proximity word (or a light preposition before a landmark, or a bare
/// landmark) followed by a place, at `i`.
fn proximity_at(scan: &Scan, i: usize) -> Option<Hit> {
    let hit = |start: usize, place: Place, end: usize| Hit {
        start,
        end,
        place,
        radius_km: place.default_radius_km(),
        converted: None,
    };
    if let Some((_, n)) = scan.longest(i, PROXIMITY) {
        let mut p = i + n;
        if scan.is_any(p, LINKERS) {
            p += 1;
        }
        if let Some((place, end)) = place_at(scan, p, Context::Triggered) {
            return Some(hit(i, place, end));
        }
    }
    if scan.is_any(i, LIGHT) && !seen_not_visited(scan, i) {
        if let Some((place @ Place::Landmark(_), end)) = place_at(scan, i + 1, Context::Triggered) {
            return Some(hit(i, place, end));
        }
    }
    if named_after_something(scan, i) || seen_not_visited(scan, i) {
        return None;
    }
    match place_at(scan, i, Context::Bare)? {
        (place @ Place::Landmark(_), end) => Some(hit(i, place, end)),
        // Communes and arrondissements alone are postal codes.
        (Place::Commune(_) | Place::Arrondissement(_), _) => None,
    }
}

/// The place at `p`, after an optional article: (place, end of its name).
fn place_at(scan: &Scan, p: usize, context: Context) -> Option<(Place, usize)> {
    let at = |p: usize| {
        if context > Context::Bare {
            if let Some((n, taken)) = places::arrondissement_named_at(scan, p) {
                return geo::arrondissement(n).map(|a| (Place::Arrondissement(a), p + taken));
            }
        }
        geo::match_place(&scan.free_words(p, 8), context).map(|m| (m.place, p + m.words))
    };
    // "la Défense" is a name with its article, "la gare de Lyon" is not.
    at(p).or_else(|| {
        if scan.is_any(p, ARTICLES) {
            at(p + 1)
        } else {
            None
        }
    })
}
