//! Places outside the area the search covers (« à Lyon », « en Bretagne »,
//! « près de Genève », « au Havre »): kept apart so the search says it
//! cannot locate them, rather than answering with Paris venues as if the
//! place had been read. Their words are taken: « Lyon » describes no venue.

use super::guards::named_after_something;
use super::scan::Scan;
use crate::geo;

/// What puts the event at the place that follows. « au » only before the
/// names that take « le » (« au Havre »): « cocktail au champagne » is a drink.
#[rustfmt::skip]
const BEFORE: &[&str] = &[
    "a", "sur", "vers", "dans", "en", "pres de", "pres d", "autour de", "autour d",
    "proche de", "proche d", "du cote de", "region de", "environs de", "alentours de",
    "km de", "km d", "kilometres de", "kilometres d", "minutes de", "minutes d",
];
const BEFORE_LE: &[&str] = &["au"];
/// Articles between that word and the name (« dans les Alpes »).
const ARTICLES: &[&str] = &["la", "le", "les", "l"];
/// What joins a second place to the first (« à Lyon ou Marseille »).
const JOINED: &[&str] = &["ou", "et", "voire", "ou a", "et a", "ou bien", "sinon"];

/// The place outside the area at `i`, when the words before put the event
/// there: its name goes to `elsewhere` and its words are taken. Returns
/// the token after it (and after the places joined to it).
pub fn at(scan: &mut Scan, elsewhere: &mut Vec<String>, i: usize) -> Option<usize> {
    let mut end = first_at(scan, elsewhere, i)?;
    // « à Lyon ou Marseille », « Lyon, Marseille et Lille »
    loop {
        let join = scan.longest(end, JOINED).map_or(0, |(_, n)| n) + usize::from(scan.is(end, ","));
        match (join > 0)
            .then(|| take(scan, elsewhere, end + join))
            .flatten()
        {
            Some(next) => end = next,
            None => return Some(end),
        }
    }
}

fn first_at(scan: &mut Scan, elsewhere: &mut Vec<String>, i: usize) -> Option<usize> {
    let articles = scan.raw_longest_before(i, ARTICLES);
    let (before, before_le) = (
        scan.raw_longest_before(i - articles.min(i), BEFORE),
        scan.raw_longest_before(i, BEFORE_LE),
    );
    if before == 0 && before_le == 0 {
        return None;
    }
    if named_after_something(scan, i) {
        return None;
    }
    let words = scan.free_words(i, 4);
    let (place, n) = geo::match_elsewhere(&words)?;
    if before == 0 && !takes_le(place) {
        return None;
    }
    Some(record(scan, elsewhere, place, i, n))
}

/// A place joined to a first one: no word needed before it.
fn take(scan: &mut Scan, elsewhere: &mut Vec<String>, i: usize) -> Option<usize> {
    let words = scan.free_words(i, 4);
    let (place, n) = geo::match_elsewhere(&words)?;
    Some(record(scan, elsewhere, place, i, n))
}

fn record(
    scan: &mut Scan,
    elsewhere: &mut Vec<String>,
    place: &'static geo::Elsewhere,
    i: usize,
    n: usize,
) -> usize {
    if !elsewhere.iter().any(|name| name == place.name) {
        elsewhere.push(place.name.to_string());
    }
    scan.consume(i..i + n);
    i + n
}

/// « au Havre », « au Mans », « au Touquet ».
fn takes_le(place: &geo::Elsewhere) -> bool {
    place.name.starts_with("Le ")
}
