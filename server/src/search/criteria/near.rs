//! Searches around a point: "à moins de 5 km de la gare de Lyon", "dans un
//! rayon de 10 km autour de Versailles", "à 10 minutes à pied de Bastille"
//! are a hard radius; "près de la tour Eiffel", "autour de Bastille", "à
//! deux pas du Louvre" are a centre without a radius: the nearest venues
//! come first and none is excluded (ADR 0010).
//!
//! One centre per search (the SQL filter takes one point); further places
//! are taken out of the semantic query and listed in a note, so the
//! vector search is not steered towards a place the filter ignores.

use super::guards::{named_after_something, seen_not_visited};
use super::negation::{self, Category};
use super::scan::Scan;
use super::{arrondissements, distance, Criteria, Near};
use crate::geo::{self, Context, Place};

/// The widest radius a search accepts.
pub const MAX_RADIUS_KM: f64 = 100.0;

/// Words that put the event near a place without a distance: the search
/// ranks nearest first and excludes nothing.
#[rustfmt::skip]
const NEARBY: &[&str] = &[
    "pres", "tout pres", "juste a cote", "a cote", "proche", "tres proche", "a proximite",
    "a proximite immediate", "autour", "aux alentours", "aux abords", "non loin", "pas loin",
    "pas tres loin", "pas trop loin", "a deux pas", "a quelques pas", "a quelques minutes",
    "du cote", "cote", "vers", "en face", "face", "aux environs", "dans les environs", "au pied",
    // English, as requests forwarded from abroad put it.
    "near", "nearby", "close to", "next to", "around", "walking distance from",
];
/// Words that put the event inside a place: around a point they mean
/// "near" too, but an area with borders becomes its postal codes.
#[rustfmt::skip]
pub const INSIDE: &[&str] = &[
    "dans le quartier", "quartier", "dans le secteur", "secteur", "en plein", "en plein coeur",
    "au coeur",
];
/// Prepositions that make a landmark (not a commune: "à Boulogne" is a
/// postal code) the place of the event: "à Montmartre", "dans le Marais".
const LIGHT: &[&str] = &["a", "au", "aux", "dans", "sur"];
const LINKERS: &[&str] = &["de", "du", "des", "d", "a", "au", "aux"];
pub const ARTICLES: &[&str] = &["la", "le", "l", "les", "the"];

/// What may precede a distance and belongs to it ("à moins de 5 km").
#[rustfmt::skip]
const DISTANCE_LEADS: &[&str] = &[
    "a", "a moins de", "a moins d", "moins de", "moins d", "a max", "a maximum", "a environ",
    "environ", "a pas plus de", "pas plus de", "dans un rayon de", "dans un rayon d",
    "dans un perimetre de", "un rayon de", "rayon de", "rayon", "max", "maximum", "maxi",
    "jusqu a", "dans les", "dans", "within", "less than", "under", "max", "at most",
];
/// Distances that are a minimum, not a radius: left to the semantic query.
const AT_LEAST: &[&str] = &["plus de", "plus d", "au moins", "au minimum", "minimum"];

/// Takes distances ("à 3 km de Bercy"): a hard radius. Runs before any
/// other place reading, so the place of a distance is its centre.
pub fn extract_distances(scan: &mut Scan, found: &mut Criteria, notes: &mut Vec<String>) {
    let mut i = 0;
    while i < scan.len() {
        i = match distance_at(scan, i) {
            Some(hit) => take(scan, found, notes, hit),
            None => i + 1,
        };
    }
}

/// Takes proximity words and bare landmarks ("près de la tour Eiffel",
/// "gare de Lyon"): a centre without a radius.
/// A proximity a negation rules out (« pas côté Montreuil ») excludes the
/// place's postal codes, or, for a landmark, is no centre.
pub fn extract_proximities(scan: &mut Scan, found: &mut Criteria, notes: &mut Vec<String>) {
    let mut i = 0;
    while i < scan.len() {
        i = match proximity_at(scan, i) {
            Some(hit) => match negation::ruled_out(scan, hit.start..hit.end, Category::Place) {
                Some(cue) => rule_out(scan, found, notes, hit, cue),
                None => take(scan, found, notes, hit),
            },
            None => i + 1,
        };
    }
}

/// Records a place ruled out: its postal codes are excluded.
fn rule_out(
    scan: &mut Scan,
    found: &mut Criteria,
    notes: &mut Vec<String>,
    hit: Hit,
    cue: std::ops::Range<usize>,
) -> usize {
    let codes: Vec<&str> = match hit.place {
        Place::Commune(c) => vec![c.postal_code],
        Place::Arrondissement(a) => a.postal_codes().collect(),
        // A landmark that is also an area (« le Marais »): the area.
        Place::Landmark(l) => {
            let folded = geo::fold(l.name);
            let mut words: Vec<&str> = folded.split(' ').collect();
            if words.len() > 1 && words.first().is_some_and(|w| ARTICLES.contains(w)) {
                words.remove(0);
            }
            match geo::match_quartier(&words, true).filter(|(_, n)| *n == words.len()) {
                Some((quartier, _)) => quartier.postal_codes.to_vec(),
                None => {
                    notes.push(format!(
                        "pas près {} : ce repère n'est pas un centre",
                        super::of(l.name)
                    ));
                    Vec::new()
                }
            }
        }
    };
    for code in codes {
        if !found.excluded_postal_codes.iter().any(|c| c == code) {
            found.excluded_postal_codes.push(code.to_string());
        }
    }
    negation::take(scan, cue, hit.start..hit.end, Category::Place);
    hit.end
}

/// A recognised "around this place" phrase.
struct Hit {
    start: usize,
    end: usize,
    place: Place,
    /// `None`: a proximity without a distance, which excludes nothing.
    radius_km: Option<f64>,
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
    let radius_km = hit.radius_km.map(|km| {
        if km > MAX_RADIUS_KM {
            notes.push(format!("rayon limité à {MAX_RADIUS_KM} km"));
        }
        km.clamp(0.1, MAX_RADIUS_KM)
    });
    notes.extend(hit.converted);
    let label = hit.place.name().to_string();
    found.near = Some(Near {
        label,
        lat,
        lng,
        radius_km,
        reach_km: hit.place.default_radius_km(),
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
    let (_, linker) = scan.longest(p, &["de", "du", "des", "d", "autour de", "autour du", "autour des", "autour d", "of", "from", "around"])?;
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
        radius_km: Some(radius_km),
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
        radius_km: None,
        converted: None,
    };
    let proximity = [NEARBY, INSIDE]
        .iter()
        .filter_map(|words| scan.longest(i, words))
        .map(|(_, n)| n)
        .max();
    if let Some(n) = proximity {
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
            // "dans les champs" is the countryside; "près des Champs" is not.
            let fields = end - i <= 3 && scan.is(end - 1, "champs");
            if !fields {
                return Some(hit(i, place, end));
            }
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

/// True when a word of proximity ends right before `i`, through an
/// optional "de"/"du" and article ("près du Marais", "autour de la
/// Défense"): the place is then a centre, not an area.
pub fn nearby_before(scan: &Scan, i: usize) -> bool {
    let mut k = i;
    if k.checked_sub(1).is_some_and(|a| scan.is_any(a, ARTICLES)) {
        k -= 1;
    }
    if k.checked_sub(1)
        .is_some_and(|l| scan.is_any(l, &["de", "du", "des", "d"]))
    {
        k -= 1;
    }
    scan.longest_before(k, NEARBY) > 0
}

/// The place at `p`, after an optional article: (place, end of its name).
fn place_at(scan: &Scan, p: usize, context: Context) -> Option<(Place, usize)> {
    let at = |p: usize| {
        if context > Context::Bare {
            if let Some((n, taken)) = arrondissements::named_at(scan, p) {
                return geo::arrondissement(n).map(|a| (Place::Arrondissement(a), p + taken));
            }
        }
        geo::match_place(&scan.free_words(p, 8), context)
            .or_else(|| super::place_spelling::place_at(scan, p, context))
            .map(|m| (m.place, p + m.words))
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
