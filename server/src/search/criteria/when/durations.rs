//! Durations: "2 jours", "sur deux jours", "une demi-journée", "pendant 3
//! heures", "48 h", "une quinzaine de jours", "dans 3 semaines". Never "à
//! 10 minutes du métro" (how far, which describes the place), nor "les 10
//! ans de la société".

use crate::search::criteria::numbers;
use crate::search::criteria::scan::Scan;
use std::ops::Range;

/// Units of time a number counts.
#[rustfmt::skip]
const UNITS: &[&str] = &[
    "jour", "jours", "journee", "journees", "demi journee", "demi journees", "nuit", "nuits",
    "nuitee", "nuitees", "semaine", "semaines", "mois", "heure", "heures", "h", "hrs", "min",
    "mn", "minute", "minutes", "week end", "week ends", "weekend", "weekends", "matinee",
    "matinees", "apres midi", "days", "day", "hours", "nights", "weeks",
];

/// Units said without a number ("une demi-journée", "journée entière").
#[rustfmt::skip]
const ALONE: &[&str] = &[
    "demi journee", "journee entiere", "journee complete", "journee continue", "toute la journee",
    "une journee", "un week end", "un weekend", "une soiree entiere", "1 / 2 journee",
    "1 / 2 journees",
];

/// Words before a duration that belong to it.
#[rustfmt::skip]
const LEADS: &[&str] = &[
    "sur", "pendant", "durant", "dans", "d ici", "duree", "duree :", "duree de", "duree d",
    "d une duree de", "sous",
];

/// Units that say how far rather than how long after "à" ("à 10 minutes").
const TRAVEL: &[&str] = &[
    "min", "mn", "minute", "minutes", "heure", "heures", "h", "hrs",
];

/// The duration at `i`, leads included.
pub fn at(scan: &Scan, i: usize) -> Option<Range<usize>> {
    let end = counted(scan, i).or_else(|| {
        let (_, n) = scan.longest(i, ALONE)?;
        // "une journée d'étude" is an event, "une journée" a duration.
        (!scan.is_any(i + n, &["d", "de", "portes"])).then_some(i + n)
    })?;
    Some(i - scan.longest_before(i, LEADS)..end)
}

/// "2 jours", "deux jours", "1,5 jour", "une quinzaine de jours".
fn counted(scan: &Scan, i: usize) -> Option<usize> {
    let after_count = numbers::approximate(scan, i)
        .filter(|&(_, n)| scan.is_any(i + n, &["de", "d"]))
        .map(|(_, n)| i + n + 1)
        .or_else(|| {
            numbers::decimal(scan, i)
                .map(|(_, n)| n)
                .or_else(|| numbers::words(scan, i).map(|(_, n)| n))
                .map(|n| i + n)
        })?;
    let (unit, n) = scan.longest(after_count, UNITS)?;
    let unit = UNITS.get(unit).copied().unwrap_or_default();
    // "à 10 minutes du métro", "à moins d'une heure": how far, kept.
    let raw = |back: usize| {
        i.checked_sub(back)
            .and_then(|k| scan.tokens.get(k))
            .map(|t| t.text.as_str())
    };
    let far = TRAVEL.contains(&unit)
        && (raw(1) == Some("a")
            || matches!(raw(1), Some("de" | "d")) && matches!(raw(2), Some("moins" | "plus")));
    (!far).then_some(after_count + n)
}
