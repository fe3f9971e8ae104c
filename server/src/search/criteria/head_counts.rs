//! Which head count is the event's when a message gives several: « le
//! club réunit 900 adhérents, nous serons environ 220 » is 220. The size
//! of an organisation (« l'entreprise compte 1 500 salariés », « sur nos
//! 2 000 clients »), a past or superseded figure (« l'an dernier nous
//! étions 300 », « nous avions prévu 100 personnes ») and a part already
//! counted (« dont 5 intervenants ») are not the number of people
//! attending; « Compris » says which was kept and why the others were not.

use super::scan::Scan;
use std::ops::Range;

/// Why a head count is not the event's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The people attending, as far as the words say.
    Attending,
    /// The size of the organisation: its members, staff, clients.
    Population,
    /// Last year's figure, or the one planned before confirmations.
    Past,
    /// A part of a group counted already (« dont 5 intervenants »).
    Included,
}

impl Role {
    /// Why « Compris » leaves such a figure out.
    pub fn why(self) -> &'static str {
        match self {
            Role::Attending => "",
            Role::Population => "l'effectif de l'organisation",
            Role::Past => "un chiffre passé ou révisé",
            Role::Included => "déjà compté dans le total",
        }
    }
}

/// Words right before a number that give the size of an organisation.
#[rustfmt::skip]
const POPULATION: &[&str] = &[
    "compte", "comptons", "comptent", "regroupe", "regroupons", "reunit", "rassemble", "emploie",
    "employons", "sur nos", "parmi nos", "sur les", "parmi les", "has", "have",
    "employs", "of our", "among our", "represente", "federe", "totalise",
];

/// Words before a number that make it a past or superseded figure.
#[rustfmt::skip]
const PAST: &[&str] = &[
    "etions", "etaient", "etait", "avions prevu", "avait prevu", "prevu", "initialement",
    "au depart", "were", "was", "l an dernier", "l annee derniere", "last year",
];

/// Words after a number that make it a past figure (« 300 l'an dernier »).
const PAST_AFTER: &[&str] = &[
    "l an dernier",
    "l annee derniere",
    "last year",
    "en 2024",
    "en 2025",
];

/// Qualifiers that may sit between those words and the number.
const QUALIFIERS: &[&str] = &[
    "environ", "about", "plus de", "pres de", "around", "over", "de",
];

fn ends_before(scan: &Scan, i: usize, phrases: &[&str]) -> bool {
    scan.raw_longest_before(i, phrases) > 0
}

/// The role of the head count whose number is at token `number` and
/// which ends at `end`, and the words that gave it (« réunit », « dont »):
/// they describe the organisation, not the venue.
pub fn role(scan: &Scan, number: usize, end: usize) -> (Role, Range<usize>) {
    // Back over qualifiers (« compte plus de 1 500 salariés »).
    let mut k = number;
    for _ in 0..2 {
        k -= scan.raw_longest_before(k, QUALIFIERS);
    }
    if ends_before(scan, k, &["dont"]) {
        return (Role::Included, k - 1..k);
    }
    let n = scan.raw_longest_before(k, POPULATION);
    if n > 0 {
        return (Role::Population, k - n..k);
    }
    let near_before = (k.saturating_sub(4)..=k).any(|b| ends_before(scan, b, PAST));
    let after = (end..end + 3).any(|a| PAST_AFTER.iter().any(|p| scan.raw_phrase(a, p).is_some()));
    if near_before || after {
        return (Role::Past, k..k);
    }
    (Role::Attending, k..k)
}

/// The words of a head count as written (« 900 adhérents »).
pub fn as_written(scan: &Scan, range: Range<usize>) -> String {
    let from = scan.tokens.get(range.start).map(|t| t.start);
    let to = range
        .end
        .checked_sub(1)
        .and_then(|e| scan.tokens.get(e))
        .map(|t| t.end);
    match (from, to) {
        (Some(from), Some(to)) => scan.text.get(from..to).unwrap_or_default().to_string(),
        _ => String::new(),
    }
}
