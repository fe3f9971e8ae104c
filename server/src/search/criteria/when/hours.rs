//! Hours: "18h", "18h30", "18 h", "19:30", "6pm", "de 9h à 18h", "9h-18h",
//! "à partir de 19 h". Never "à 1h30 de Paris" (a radius, read before).

use super::small_number;
use crate::search::criteria::scan::Scan;
use std::ops::Range;

/// Words before an hour that belong to it.
#[rustfmt::skip]
const LEADS: &[&str] = &[
    "a partir de", "a partir d", "a compter de", "aux alentours de", "vers", "des", "jusqu a",
    "jusqu", "avant", "apres", "de", "d", "entre", "horaires", "horaire", "horaires :",
    "horaire :", "heure", "heure :", "debut a", "fin a", "a",
];

/// Separators of a time span ("9h-18h", "de 9h à 18h").
const SPAN: &[&str] = &["a", "-", "/", "et", "au", "jusqu a"];

/// The hour (or span of hours) at `i`, leads included.
pub fn at(scan: &Scan, i: usize) -> Option<Range<usize>> {
    let mut end = hour(scan, i)?;
    // "à 1h30 de Paris", "à 2 h en train": a travel time, for the place
    // reader.
    let after_a = i > 0 && scan.tokens.get(i - 1).is_some_and(|t| t.text == "a");
    if after_a && scan.is_any(end, &["de", "du", "d", "des", "en", "a", "par"]) {
        return None;
    }
    if let Some((_, sep)) = scan.longest(end, SPAN) {
        if let Some(after) = hour(scan, end + sep) {
            end = after;
        }
    }
    Some(i - scan.longest_before(i, LEADS)..end)
}

/// One time of day at `i`: the index after it.
fn hour(scan: &Scan, i: usize) -> Option<usize> {
    small_number(scan, i, 0, 24)?;
    let minutes = |k: usize| {
        scan.glued(k) && scan.digit_count(k) == Some(2) && scan.number(k).is_some_and(|m| m < 60)
    };
    if scan.is(i + 1, "h") {
        return Some(i + 2 + usize::from(minutes(i + 2)));
    }
    if scan.is_any(i + 1, &["am", "pm"]) && scan.glued(i + 1) {
        return Some(i + 2);
    }
    (scan.is(i + 1, ":") && scan.glued(i + 1) && minutes(i + 2)).then_some(i + 3)
}
