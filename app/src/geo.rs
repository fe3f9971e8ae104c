//! Gazetteer of Paris and Île-de-France: arrondissements, communes, named
//! areas (quartiers) and landmarks with real postal codes and coordinates, and the matcher the
//! search criteria extractor uses to recognise them in free text.
//!
//! Everything is static data and pure functions: no database, no network,
//! so the extractor stays deterministic and the search can sort by distance
//! (`postal_code_center`, `distance_km`) without a geocoding service.
//!
//! The one gazetteer: the demo data places its venues around these centres
//! too ([`at`]), so seeded coordinates and search distances agree.

mod communes;
mod departments;
mod elsewhere;
mod fold;
mod landmarks;
mod paris;
mod quartiers;
#[cfg(test)]
mod tests;

pub use communes::{Commune, COMMUNES};
pub use departments::{department, department_of, match_department, Department, DEPARTMENTS};
pub use elsewhere::{lookup_elsewhere, match_elsewhere, Elsewhere, ELSEWHERE};
pub use fold::{fold, fold_char_into, is_combining_mark, is_joiner};
pub use landmarks::{Landmark, LANDMARKS};
pub use paris::{Arrondissement, ARRONDISSEMENTS, PARIS_CENTRE};
pub use quartiers::{match_quartier, Quartier, QUARTIERS};

/// How far "près de <commune>" reaches: a commune spreads wider than a
/// monument. A scale for ranking by distance, never a filter: a proximity
/// without a distance excludes nothing.
pub const COMMUNE_RADIUS_KM: f64 = 5.0;

/// How far "près du 8e" reaches around an arrondissement's centre (a
/// scale, never a filter).
pub const ARRONDISSEMENT_RADIUS_KM: f64 = 2.0;

/// A postal code the gazetteer knows, and its centre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Located {
    pub postal_code: &'static str,
    pub lat: f64,
    pub lng: f64,
}

/// The main postal code of an arrondissement, or of a commune, and its
/// centre. A `const fn` for tables built on the gazetteer: an unknown code
/// there fails the build rather than a run.
pub const fn at(postal_code: &'static str) -> Located {
    let mut i = 0;
    while i < ARRONDISSEMENTS.len() {
        let a = &ARRONDISSEMENTS[i];
        if same(a.postal_code, postal_code) {
            return Located {
                postal_code,
                lat: a.lat,
                lng: a.lng,
            };
        }
        i += 1;
    }
    let mut i = 0;
    while i < COMMUNES.len() {
        let c = &COMMUNES[i];
        if same(c.postal_code, postal_code) {
            return Located {
                postal_code,
                lat: c.lat,
                lng: c.lng,
            };
        }
        i += 1;
    }
    panic!("the gazetteer has no place with this postal code")
}

/// `a == b`, usable in a `const fn`.
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The arrondissement numbered `number` (1 to 20).
pub fn arrondissement(number: u8) -> Option<&'static Arrondissement> {
    ARRONDISSEMENTS.get(usize::from(number).checked_sub(1)?)
}

/// The arrondissement a Paris postal code belongs to ("75116" → 16th).
pub fn arrondissement_by_postal_code(postal_code: &str) -> Option<&'static Arrondissement> {
    ARRONDISSEMENTS
        .iter()
        .find(|a| a.postal_codes().any(|code| code == postal_code))
}

/// Centre (lat, lng) of the arrondissement of a Paris postal code.
pub fn arrondissement_center(postal_code: &str) -> Option<(f64, f64)> {
    arrondissement_by_postal_code(postal_code).map(|a| (a.lat, a.lng))
}

/// The main commune of a postal code outside Paris ("92100" → Boulogne).
pub fn commune_by_postal_code(postal_code: &str) -> Option<&'static Commune> {
    COMMUNES.iter().find(|c| c.postal_code == postal_code)
}

/// Centre of any postal code the gazetteer knows, Paris or not.
pub fn postal_code_center(postal_code: &str) -> Option<(f64, f64)> {
    arrondissement_center(postal_code)
        .or_else(|| commune_by_postal_code(postal_code).map(|c| (c.lat, c.lng)))
}

/// "Paris 17e", "Montreuil (93100)", "93200": how a postal code is named
/// to a person.
pub fn postal_code_name(postal_code: &str) -> String {
    if let Some(a) = arrondissement_by_postal_code(postal_code) {
        a.name.to_string()
    } else if let Some(c) = commune_by_postal_code(postal_code) {
        format!("{} ({postal_code})", c.name)
    } else {
        postal_code.to_string()
    }
}

/// Great-circle distance in km on PostgreSQL's `earth()` sphere
/// (6378.168 km), so it agrees with `earth_distance(ll_to_earth(..))`, which
/// the hard filter uses: a venue this says is 4.99 km away is inside a 5 km
/// radius for the database too.
pub fn distance_km(a: (f64, f64), b: (f64, f64)) -> f64 {
    const EARTH_KM: f64 = 6378.168;
    let (lat1, lat2) = (a.0.to_radians(), b.0.to_radians());
    let d_lat = lat2 - lat1;
    let d_lng = (b.1 - a.1).to_radians();
    let h = (d_lat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (d_lng / 2.0).sin().powi(2);
    2.0 * EARTH_KM * h.sqrt().min(1.0).asin()
}

/// How much context the words around a name give that it is a location.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Context {
    /// Nothing: only unambiguous names count ("gare de Lyon", "Boulogne").
    Bare,
    /// A proximity word precedes it ("près de", "autour de", "à").
    Triggered,
    /// An explicit distance precedes it ("à 30 km de").
    Distance,
}

/// A commune, a landmark, or an arrondissement as a centre ("à 2 km de
/// Paris 8e").
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Place {
    Commune(&'static Commune),
    Landmark(&'static Landmark),
    Arrondissement(&'static Arrondissement),
}

impl Place {
    pub fn name(self) -> &'static str {
        match self {
            Place::Commune(c) => c.name,
            Place::Landmark(l) => l.name,
            Place::Arrondissement(a) => a.name,
        }
    }

    /// (lat, lng).
    pub fn position(self) -> (f64, f64) {
        match self {
            Place::Commune(c) => (c.lat, c.lng),
            Place::Landmark(l) => (l.lat, l.lng),
            Place::Arrondissement(a) => (a.lat, a.lng),
        }
    }

    /// How far "près de" reaches around this place: a scale for ranking
    /// by distance, never a filter.
    pub fn default_radius_km(self) -> f64 {
        match self {
            Place::Commune(_) => COMMUNE_RADIUS_KM,
            Place::Landmark(l) => l.radius_km,
            Place::Arrondissement(_) => ARRONDISSEMENT_RADIUS_KM,
        }
    }
}

/// A place found at the start of a word sequence, and how many words it took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaceMatch {
    pub place: Place,
    pub words: usize,
}

/// The longest commune or landmark name that starts `words` (folded, one
/// word each) and is a location in `context`. Whole words only: "sceau" is
/// not "Sceaux". Arrondissements ("8e", "Paris VIII") need the number
/// parsing of the criteria extractor and are not matched here.
pub fn match_place<S: AsRef<str>>(words: &[S], context: Context) -> Option<PlaceMatch> {
    let mut best: Option<PlaceMatch> = None;
    let mut consider = |place: Place, aliases: &[&str]| {
        for alias in aliases {
            if let Some(n) = alias_len(alias, words) {
                if best.is_none_or(|b| n > b.words) {
                    best = Some(PlaceMatch { place, words: n });
                }
            }
        }
    };
    for commune in COMMUNES {
        consider(Place::Commune(commune), commune.aliases);
    }
    for landmark in LANDMARKS {
        consider(Place::Landmark(landmark), landmark.bare);
        if context >= Context::Triggered {
            consider(Place::Landmark(landmark), landmark.triggered);
        }
        if context >= Context::Distance {
            consider(Place::Landmark(landmark), landmark.distance_only);
        }
    }
    best
}

/// A place by name, however it is spelt ("st-denis", "Gare de l'Est").
pub fn lookup(name: &str) -> Option<Place> {
    let folded = fold(name);
    let words: Vec<&str> = folded.split(' ').collect();
    match_place(&words, Context::Distance)
        .filter(|m| m.words == words.len())
        .map(|m| m.place)
}

/// Number of words `alias` takes when `words` starts with it.
pub(crate) fn alias_len<S: AsRef<str>>(alias: &str, words: &[S]) -> Option<usize> {
    let mut taken = 0;
    for part in alias.split(' ') {
        if words.get(taken)?.as_ref() != part {
            return None;
        }
        taken += 1;
    }
    Some(taken)
}
