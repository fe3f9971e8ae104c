//! Contexts where a place name is not where the event should be: a view
//! ("vue sur la tour Eiffel"), a street or a gate named after a town ("rue
//! Saint-Denis", "porte de Saint-Cloud", "place de Clichy" are in Paris), a
//! wood ("bois de Vincennes"), a dessert ("crème chantilly").

use super::scan::Scan;

/// Words that make the following name part of an address or a thing.
#[rustfmt::skip]
const NAMED_AFTER: &[&str] = &[
    "rue", "avenue", "av", "bd", "boulevard", "boulevards", "place", "pl", "quai", "porte",
    "faubourg", "fbg", "passage", "square", "cours", "allee", "chaussee", "route", "impasse",
    "villa", "cite", "pont", "bois", "parc", "creme", "ministere", "lycee", "universite",
];

/// Words that make a place something seen rather than where to be.
#[rustfmt::skip]
const VIEW: &[&str] = &[
    "vue", "vues", "panorama", "panoramique", "donnant", "donne", "donnent", "surplombant",
    "surplombe", "dominant", "domine", "plongeante", "plongeant", "regard", "ouverte", "ouvert",
];

/// True when the name starting at `i` follows an address word, directly
/// or through "de"/"du"/"de la" ("porte de Saint-Cloud").
pub fn named_after_something(scan: &Scan, i: usize) -> bool {
    let mut back = 1;
    while back <= 3 {
        let Some(word) = i.checked_sub(back).and_then(|k| scan.raw(k)) else {
            return false;
        };
        if NAMED_AFTER.contains(&word) {
            return true;
        }
        if !matches!(word, "de" | "du" | "d" | "des" | "la" | "le" | "l") {
            return false;
        }
        back += 1;
    }
    false
}

/// True when one of the four tokens before `i` speaks of a view.
pub fn seen_not_visited(scan: &Scan, i: usize) -> bool {
    (1..=4).any(|back| {
        i.checked_sub(back)
            .and_then(|k| scan.raw(k))
            .is_some_and(|w| VIEW.contains(&w))
    })
}
