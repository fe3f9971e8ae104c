//! When the event takes place and how long it lasts: dates ("le 12 juin",
//! "12/06/2027", "mi-septembre", "un jeudi"), hours ("18h30", "de 9h à
//! 18h") and durations ("2 jours", "sur deux jours", "une demi-journée").
//! None of them is a criterion of the venue search: they are taken so
//! that they are neither head counts nor part of the description.

mod dates;
mod durations;
mod hours;

use super::scan::Scan;

/// Said in « Compris » when the text gives a date: the search does not
/// filter on availability (seed 001: it is asked of the venues afterwards,
/// so that nobody is left out before being asked).
pub const DATE_NOTE: &str =
    "date notée, non filtrée : la disponibilité se vérifie auprès des lieux";

/// Takes every date, hour and duration, and says whether there was a date.
/// Hours before durations, so "18h" is a time of day and "48 h" a duration.
pub fn extract(scan: &mut Scan) -> bool {
    let mut dated = false;
    let mut i = 0;
    while i < scan.len() {
        // "le 5 ou le 6 à 19h": days before an hour are dates, not
        // arrondissements.
        let at_hour = || {
            let hour = hours::at(scan, i)?;
            let days = dates::days_before(scan, hour.start);
            Some((days..hour.end, days < hour.start))
        };
        let date = dates::at(scan, i);
        dated |= date.as_ref().is_some_and(|r| r.end > i);
        let found = date.or_else(|| {
            let (range, with_days) = at_hour()?;
            // « le 5 à 19h »: the day is a date too.
            dated |= with_days && range.end > i;
            Some(range)
        });
        let found = found.or_else(|| durations::at(scan, i));
        match found {
            Some(range) if range.end > i => {
                scan.consume(range.clone());
                i = range.end;
            }
            _ => i += 1,
        }
    }
    dated
}

/// True when `i` holds a free number of at most two digits between `low`
/// and `high`: a day, a month, an hour.
fn small_number(scan: &Scan, i: usize, low: u32, high: u32) -> Option<u32> {
    scan.number(i)
        .filter(|n| (low..=high).contains(n) && scan.digit_count(i).is_some_and(|d| d <= 2))
}
