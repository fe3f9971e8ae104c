//! Dates: "le 12 juin", "1er juin 2027", "les 2 et 3 juin", "du 2 au 4
//! juin", "12/06", "12/06/2027", "2027-06-12", "mi-septembre", "début
//! juin", "jeudi 12 juin", "un jeudi soir", "en 2027", "la semaine
//! prochaine". Never "le 15" (an arrondissement) nor "Paris 5/6".

use super::small_number;
use crate::search::criteria::people::is_people_unit;
use crate::search::criteria::scan::Scan;
use crate::search::criteria::tokens::Kind;
use std::ops::Range;

#[rustfmt::skip]
const MONTHS: &[&str] = &[
    "janvier", "janv", "fevrier", "fevr", "fev", "mars", "avril", "avr", "mai", "juin", "juillet",
    "juil", "aout", "septembre", "sept", "octobre", "oct", "novembre", "nov", "decembre", "dec",
    "january", "february", "march", "april", "june", "july", "august", "september", "october",
    "november", "december",
];

#[rustfmt::skip]
const WEEKDAYS: &[&str] = &[
    "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche", "lundis", "mardis",
    "mercredis", "jeudis", "vendredis", "samedis", "dimanches", "monday", "tuesday", "wednesday",
    "thursday", "friday", "saturday", "sunday",
];

/// Moments of a day after a weekday ("jeudi soir").
const PARTS_OF_DAY: &[&str] = &["soir", "matin", "midi", "apres midi", "soiree", "matinee"];

/// Words before a date that belong to it ("mi-juin", "début juillet",
/// "semaine du 12 juin", "à partir du 3 mars").
#[rustfmt::skip]
const LEADS: &[&str] = &[
    "mi", "debut", "fin", "courant", "mois de", "mois d", "semaine du", "week end du",
    "weekend du", "a partir du", "a partir de", "a compter du", "des le", "date", "date :",
    "dates", "dates :", "date souhaitee", "date souhaitee :", "date prevue", "date prevue :",
    "en", "au", "printemps", "ete", "automne", "hiver", "rentree", "saison", "annee",
];

/// Said dates with no number ("la semaine prochaine").
#[rustfmt::skip]
const RELATIVE: &[&str] = &[
    "semaine prochaine", "mois prochain", "annee prochaine", "demain", "apres demain",
    "ce week end", "ce weekend", "cette semaine", "ce mois ci", "date a definir",
    "dates a definir", "date a confirmer", "date flexible", "dates flexibles",
];

/// Separators in a list of days ("2 et 3 juin", "du 2 au 4 juin").
const DAY_SEPARATORS: &[&str] = &["et", "au", "a", "-", ",", "ou", "/", "&"];

/// The date at `i`, leads included (they may start before `i`).
pub fn at(scan: &Scan, i: usize) -> Option<Range<usize>> {
    let end = days_and_month(scan, i)
        .or_else(|| numeric(scan, i))
        .or_else(|| weekday(scan, i))
        .or_else(|| year(scan, i))
        .or_else(|| scan.longest(i, RELATIVE).map(|(_, n)| i + n))?;
    Some(i - scan.longest_before(i, LEADS)..end)
}

/// Where days said before `i` start ("le 5 ou le 6 | à 19h"): `i` when
/// there are none. A day needs its article ("le 5"), so "Paris 5" stays.
pub fn days_before(scan: &Scan, i: usize) -> usize {
    let mut start = i;
    let mut k = i;
    while k >= 2 && day(scan, k - 1) == Some(1) && scan.is_any(k - 2, &["le", "les", "du", "au"]) {
        start = k - 2;
        match scan.longest_before(start, &["ou", "et", ",", "au", "a"]) {
            0 => break,
            sep => k = start - sep,
        }
    }
    start
}

/// "12 juin", "1er juin 2027", "2 et 3 juin", "juin", "juin 2027": the
/// end of the date starting at `i`.
fn days_and_month(scan: &Scan, i: usize) -> Option<usize> {
    let mut k = i;
    if day(scan, k).is_some() {
        while let Some(n) = day(scan, k) {
            k += n;
            match scan.longest(k, DAY_SEPARATORS) {
                Some((_, sep)) if day(scan, k + sep).is_some() => k += sep,
                _ => break,
            }
        }
    }
    let month = scan.word(k)?;
    if !MONTHS.contains(&month) {
        return None;
    }
    // "Champ-de-Mars" is a place, "mars" alone a month.
    if month == "mars" && k == i && k > 0 && raw_is(scan, k - 1, &["de", "du", "champ"]) {
        return None;
    }
    // "sept." takes its dot; "sept personnes" is a number, not a month.
    if month == "sept" && k == i {
        return None;
    }
    k += 1 + usize::from(scan.is(k + 1, ".") && scan.glued(k + 1) && month.len() <= 5);
    // "June 12", "June 12th, 2027": a day after the month, when nothing
    // else follows it ("juin 80 personnes" is no date).
    if k == i + 1 {
        if let Some(n) = day(scan, k) {
            let mut end = k + n;
            end += usize::from(scan.is_any(end, &["th", "st", "nd", "rd"]) && scan.glued(end));
            let year_next = scan.is(end, ",") && year_after(scan, end + 1) > 0;
            if year_next {
                return Some(end + 2);
            }
            if scan.is_boundary(end) {
                return Some(end + year_after(scan, end));
            }
        }
    }
    Some(k + year_after(scan, k))
}

/// A day of the month at `k` ("12", "1er"): tokens taken.
fn day(scan: &Scan, k: usize) -> Option<usize> {
    small_number(scan, k, 1, 31)?;
    Some(1 + usize::from(scan.is(k + 1, "er") && scan.number(k) == Some(1)))
}

/// "12/06", "12.06.2027", "12-06-2027", "2027-06-12": the end of the date.
fn numeric(scan: &Scan, i: usize) -> Option<usize> {
    if scan.digit_count(i) == Some(4) {
        // ISO: year, month, day.
        let glued_at = |k: usize| scan.glued(k) && scan.is_any(k, &["-", "/"]);
        let iso = glued_at(i + 1)
            && small_number(scan, i + 2, 1, 12).is_some()
            && glued_at(i + 3)
            && small_number(scan, i + 4, 1, 31).is_some();
        return iso.then_some(i + 5);
    }
    small_number(scan, i, 1, 31)?;
    let sep = scan.tokens.get(i + 1).map(|t| t.text.as_str())?;
    if !matches!(sep, "/" | "." | "-") || !scan.is_free(i + 1) || !scan.glued(i + 1) {
        return None;
    }
    scan.glued(i + 2).then_some(())?;
    small_number(scan, i + 2, 1, 12)?;
    let mut end = i + 3;
    let with_year = scan.is(end, sep)
        && scan.glued(end)
        && scan.glued(end + 1)
        && matches!(scan.digit_count(end + 1), Some(2 | 4));
    if with_year {
        end += 2;
    } else {
        // Without a year, "5/6" may be two arrondissements and "10/12" a
        // head count: a date has a leading zero or is announced.
        let zero = |k: usize| scan.tokens.get(k).is_some_and(|t| t.text.starts_with('0'));
        let announced = i > 0 && raw_is(scan, i - 1, &["le", "du", "au", "date", ":"]);
        let after_paris = i > 0 && raw_is(scan, i - 1, &["paris", "arrondissement", "arr"]);
        if sep == "-" || after_paris || !(zero(i) || zero(i + 2) || announced) {
            return None;
        }
    }
    let people_next = scan.word(end).is_some_and(is_people_unit);
    (!people_next).then_some(end)
}

/// "jeudi", "un jeudi soir", "jeudi 12 juin": the end of the date.
fn weekday(scan: &Scan, i: usize) -> Option<usize> {
    if !scan.is_any(i, WEEKDAYS) {
        return None;
    }
    let mut end = i + 1;
    if let Some(after) = days_and_month(scan, end) {
        end = after;
    } else if let Some((_, n)) = scan.longest(end, PARTS_OF_DAY) {
        end += n;
    }
    Some(end)
}

/// A year alone ("en 2027", "pour 2026"), never "2000 personnes".
fn year(scan: &Scan, i: usize) -> Option<usize> {
    let taken = year_after(scan, i);
    (taken > 0 && !scan.glued(i)).then_some(i + taken)
}

/// 1 when `k` holds a year (1900 to 2100) that nothing counts.
fn year_after(scan: &Scan, k: usize) -> usize {
    let is_year = scan.digit_count(k) == Some(4)
        && scan.number(k).is_some_and(|y| (1900..=2100).contains(&y));
    let next_is_word = scan.kind(k + 1) == Some(Kind::Word);
    let counts_something = scan.glued(k + 1) && next_is_word
        || scan.word(k + 1).is_some_and(|w| {
            is_people_unit(w) || matches!(w, "m" | "m2" | "km" | "k" | "e" | "eur" | "euros")
        })
        || scan.is_any(k + 1, &["€", "%", "/"]);
    usize::from(is_year && !counts_something)
}

/// True when token `k`, free or not, is one of `words`.
fn raw_is(scan: &Scan, k: usize, words: &[&str]) -> bool {
    scan.tokens
        .get(k)
        .is_some_and(|t| words.contains(&t.text.as_str()))
}
