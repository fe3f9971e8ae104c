//! The places of the model's answer, checked against the gazetteer: what
//! it does not know is dropped, and coordinates are always the gazetteer's.
use crate::geo::{self, Place};
use crate::search::criteria::{Near, MAX_RADIUS_KM};

use super::preview::preview;

/// A radius under 100 m is a typo, not a search.
pub const MIN_RADIUS_KM: f64 = 0.1;
/// Département prefixes of Île-de-France and its edge (the extractor's
/// list): a code written there is a real place even when the gazetteer
/// lacks it.
const DEPARTMENTS: &[&str] = &["77", "78", "91", "92", "93", "94", "95", "60"];
/// Longer than any name in the gazetteer.
const MAX_PLACE_CHARS: usize = 80;

/// Postal codes sorted out.
#[derive(Debug, Default, PartialEq)]
pub struct PostalCodes {
    /// Codes to filter on.
    pub known: Vec<String>,
    /// Paris codes the request writes that no arrondissement has
    /// ("75999"): the search says so rather than searching elsewhere.
    pub unknown: Vec<String>,
}

/// Codes the gazetteer knows are kept. A code it does not know counts only
/// when the request writes it: a Paris one is reported as unknown, one of
/// the surrounding départements is searched as the extractor would. Every
/// other code is the model's invention and dropped.
pub fn postal_codes(codes: Vec<String>, request: &str, dropped: &mut Vec<String>) -> PostalCodes {
    let mut out = PostalCodes::default();
    for code in codes {
        let code = code.trim();
        if code.len() != 5 || !code.bytes().all(|b| b.is_ascii_digit()) {
            dropped.push(format!("postal code {}: not 5 digits", preview(code)));
            continue;
        }
        let gazetteer_knows = geo::arrondissement_by_postal_code(code).is_some()
            || geo::commune_by_postal_code(code).is_some();
        let list = if gazetteer_knows {
            &mut out.known
        } else if !written(code, request) {
            dropped.push(format!(
                "postal code {code}: unknown to the gazetteer and not in the request"
            ));
            continue;
        } else if code.starts_with("75") {
            &mut out.unknown
        } else if DEPARTMENTS.iter().any(|d| code.starts_with(d)) {
            &mut out.known
        } else {
            dropped.push(format!("postal code {code}: outside Île-de-France"));
            continue;
        };
        if !list.iter().any(|c| c == code) {
            list.push(code.to_string());
        }
    }
    out
}

/// The request writes `code` ("75999", or "75 999").
fn written(code: &str, request: &str) -> bool {
    let unspaced: String = request.chars().filter(|c| !c.is_whitespace()).collect();
    unspaced.contains(code)
}

/// The place the gazetteer knows by that name, with a radius within
/// bounds or none (a proximity that excludes nothing); an unknown place is
/// dropped, a radius out of bounds too.
pub fn near(place: &str, radius_km: Option<f64>, dropped: &mut Vec<String>) -> Option<Near> {
    let Some(found) = resolve(place) else {
        dropped.push(format!(
            "place {}: unknown to the gazetteer",
            preview(place)
        ));
        return None;
    };
    let radius_km = radius_km.and_then(|r| {
        let kept = (r.is_finite() && (MIN_RADIUS_KM..=MAX_RADIUS_KM).contains(&r)).then_some(r);
        if kept.is_none() {
            dropped.push(format!(
                "radius {r} km: not in {MIN_RADIUS_KM}..={MAX_RADIUS_KM}"
            ));
        }
        kept
    });
    let (lat, lng) = found.position();
    Some(Near {
        label: found.name().to_string(),
        lat,
        lng,
        radius_km,
        reach_km: found.default_radius_km(),
    })
}

/// A commune or landmark however it is spelt, or an arrondissement by its
/// name ("Paris 8e").
fn resolve(name: &str) -> Option<Place> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_PLACE_CHARS {
        return None;
    }
    geo::lookup(name).or_else(|| {
        let folded = geo::fold(name);
        geo::ARRONDISSEMENTS
            .iter()
            .find(|a| geo::fold(a.name) == folded || a.postal_code == name)
            .map(Place::Arrondissement)
    })
}
