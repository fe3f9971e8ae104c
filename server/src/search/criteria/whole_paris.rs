//! Paris as a whole: "à Paris", "dans Paris", "sur Paris", "Paris
//! intra-muros", "au cœur de Paris" are the twenty arrondissements; "Paris
//! Centre" is the 1st to the 4th. Paris alone is no place ("Paris 2024",
//! "l'Opéra de Paris"), nor a view ("vue sur Paris"), and an arrondissement
//! named too narrows it ("à Paris, dans le 8e").

use super::guards::seen_not_visited;
use super::named_places::{offered_as_alternative, NamedPlaces};
use super::scan::Scan;

/// Words that put the event in Paris, before "Paris".
#[rustfmt::skip]
const INTO_PARIS: &[&str] = &[
    "a", "dans", "sur", "en plein", "au coeur de", "en plein coeur de", "dans tout", "sur tout",
    "partout a", "partout dans", "partout sur", "au sein de", "a l interieur de", "in",
    "anywhere in",
];

/// Phrases that are Paris on their own.
#[rustfmt::skip]
const WHOLE: &[&str] = &[
    "paris intra muros", "paris intramuros", "intra muros", "intramuros", "coeur de paris",
    "paris meme", "tous arrondissements", "tous les arrondissements", "tout arrondissement",
    "n importe quel arrondissement", "peu importe l arrondissement",
    "quel que soit l arrondissement",
];

/// Phrases that are Paris Centre.
const CENTRE: &[&str] = &[
    "paris centre",
    "centre de paris",
    "centre ville de paris",
    "hyper centre de paris",
];

/// Paris as a whole, or its centre, at `i`; returns where to resume.
pub fn at(scan: &mut Scan, named: &mut NamedPlaces, i: usize) -> Option<usize> {
    let lead = scan.longest_before(i, INTO_PARIS);
    let start = i - lead;
    // "vue sur Paris", "vue imprenable sur tout Paris".
    if seen_not_visited(scan, start) {
        return None;
    }
    if let Some((_, n)) = scan.longest(i, CENTRE) {
        let wide = !offered_as_alternative(scan, start, i + n);
        scan.consume(start..i + n);
        named.paris_centre(i, wide);
        return Some(i + n);
    }
    // « Paris sauf le 8e »: Paris, less what follows.
    let but = scan.is(i, "paris") && scan.is_any(i + 1, &["sauf", "hors", "except", "excepte"]);
    let n = scan
        .longest(i, WHOLE)
        .map(|(_, n)| n)
        .or_else(|| ((lead > 0 || but) && scan.is(i, "paris")).then_some(1))?;
    let wide = !offered_as_alternative(scan, start, i + n);
    scan.consume(start..i + n);
    named.whole_paris(i, wide);
    Some(i + n)
}
