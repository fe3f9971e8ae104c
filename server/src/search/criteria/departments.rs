//! Départements: « dans le 93 », « le 92 ou le 94 », « en
//! Seine-Saint-Denis », « Hauts-de-Seine ». A number is a département
//! only after words that say so (« le », « dans le », « département »),
//! never before a noun of people (« le 92 invités » does not exist, but
//! « pour 92 personnes » must stay a head count); « 75 » is Paris.

use super::named_places::{offered_as_alternative, NamedPlaces};
use super::people::is_people_unit;
use super::scan::Scan;
use crate::geo;

/// Words before a number that make it a département.
#[rustfmt::skip]
const LEADS: &[&str] = &[
    "le", "dans le", "du", "sur le", "departement", "le departement", "dans le departement",
    "departement du", "dept", "dpt", "dep", "cote", "cote du", "secteur", "en",
];

/// Words that join a second département to a first (« le 92 ou 93 »).
const JOINERS: &[&str] = &["ou", "et", ",", "/", "ou le", "et le", "ou dans le"];

/// A département named or numbered at `i`; returns where to resume.
pub fn at(scan: &mut Scan, named: &mut NamedPlaces, i: usize) -> Option<usize> {
    if let Some((department, n)) = geo::match_department(&scan.free_words(i, 4)) {
        return Some(take(scan, named, i, i + n, department.number));
    }
    let number = scan.number(i)?;
    // "93e" is a rank; "93," a département.
    if scan.digit_count(i) != Some(2)
        || scan.glued(i + 1) && scan.kind(i + 1) == Some(super::tokens::Kind::Word)
    {
        return None;
    }
    let department = geo::department(&number.to_string())?;
    let lead = scan.longest_before(i, LEADS) > 0 || joined_to_a_department(scan, i);
    let follows = scan.word(i + 1).is_none_or(|w| !is_people_unit(w));
    if !lead || !follows {
        return None;
    }
    if department.number == "75" {
        named.whole_paris(i, !offered_as_alternative(scan, i, i + 1));
        scan.consume(i..i + 1);
        return Some(i + 1);
    }
    Some(take(scan, named, i, i + 1, department.number))
}

fn take(
    scan: &mut Scan,
    named: &mut NamedPlaces,
    i: usize,
    end: usize,
    number: &'static str,
) -> usize {
    named.department(i, number, !offered_as_alternative(scan, i, end));
    scan.consume(i..end);
    end
}

/// « le 92 ou 93 »: a joiner right after a département number.
fn joined_to_a_department(scan: &Scan, i: usize) -> bool {
    let joiner = JOINERS
        .iter()
        .filter(|j| scan.longest_before(i, &[j]) > 0)
        .map(|j| j.split(' ').count())
        .max();
    joiner.is_some_and(|n| {
        i.checked_sub(n + 1)
            .and_then(|k| scan.tokens.get(k))
            .is_some_and(|t| geo::department(&t.text).is_some_and(|d| d.number != "75"))
    })
}
