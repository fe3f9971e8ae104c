//! Named areas as postal codes: "rive gauche", "dans le Marais", "à
//! Montmartre", "quartier Oberkampf", "La Défense" (`geo::QUARTIERS`).
//!
//! An area that is also a point is left to `near` after a word of
//! proximity ("près du Marais": around it, nothing excluded) and for a
//! distance ("à 2 km du Marais"), which `near` reads first.

use super::guards::{named_after_something, seen_not_visited};
use super::named_places::{offered_as_alternative, NamedPlaces};
use super::near::{self, ARTICLES, INSIDE};
use super::scan::Scan;
use crate::geo::{self, Context, Place};

/// Prepositions that put the event in the area that follows.
const INTO: &[&str] = &["a", "au", "aux", "dans", "sur", "en", "in"];

/// Takes every area the text names.
pub fn extract(scan: &mut Scan, named: &mut NamedPlaces) {
    let mut i = 0;
    while i < scan.len() {
        i = area_at(scan, named, i).unwrap_or(i + 1);
    }
}

/// An area starting at `i`; returns where to resume.
fn area_at(scan: &mut Scan, named: &mut NamedPlaces, i: usize) -> Option<usize> {
    let lead = lead_before(scan, i);
    let words = scan.free_words(i, 6);
    let (quartier, n) = geo::match_quartier(&words, lead.is_some())?;
    let end = i + n;
    // A street, a view: not where the event is ("rue Oberkampf", "vue sur
    // Montmartre").
    if named_after_something(scan, i) || seen_not_visited(scan, i) {
        return Some(end);
    }
    if near::nearby_before(scan, i) && is_a_point(words.get(..n).unwrap_or_default()) {
        return Some(end);
    }
    // A name that is also a common noun, with a complement and nothing
    // saying it is a place: "la défense de nos intérêts".
    let complemented = scan.is_any(end, &["de", "du", "des", "d"]);
    if lead.is_none() && !quartier.triggered.is_empty() && complemented {
        return Some(end);
    }
    let start = i - lead.unwrap_or(0);
    let wide = quartier.wide && !offered_as_alternative(scan, start, end);
    scan.consume(start..end);
    let read = named.len();
    named.area(i, quartier.name, quartier.postal_codes, wide);
    named.rule_out_if_negated(scan, read, i..end);
    Some(end)
}

/// True when the area's words also name a landmark ("montmartre"), which
/// `near` can search around.
fn is_a_point(words: &[&str]) -> bool {
    geo::match_place(words, Context::Triggered)
        .is_some_and(|m| matches!(m.place, Place::Landmark(_)) && m.words == words.len())
}

/// The tokens before `i` that say the event is in what follows: "à",
/// "dans le", "au cœur du", "quartier de la", or an article alone ("le
/// Marais"). `None` when nothing does ("un marais").
fn lead_before(scan: &Scan, i: usize) -> Option<usize> {
    let before = |k: usize, words: &[&str]| k.checked_sub(1).is_some_and(|p| scan.is_any(p, words));
    let mut k = i;
    let article = before(k, ARTICLES);
    if article {
        k -= 1;
    }
    let linker = before(k, &["de", "du", "des", "d"]);
    let prefix_end = k - usize::from(linker);
    let prefix = scan
        .longest_before(prefix_end, INTO)
        .max(scan.longest_before(prefix_end, INSIDE));
    if prefix > 0 {
        return Some(i - (prefix_end - prefix));
    }
    (article && !linker).then_some(1)
}
