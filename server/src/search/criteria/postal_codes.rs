//! Postal codes written out: "75011", "75 008", "92100". A Paris code no
//! arrondissement has ("75999", "75021") is kept apart as unknown, so the
//! search says so instead of showing unrelated venues; "75000", the code
//! people write for Paris as a whole, is the twenty arrondissements.

use super::named_places::NamedPlaces;
use super::numbers;
use super::people::is_people_unit;
use super::scan::Scan;
use crate::geo;

/// Postal-code departments of Île-de-France, and Oise for Chantilly.
const DEPARTMENTS: &[&str] = &["75", "77", "78", "91", "92", "93", "94", "95", "60"];

/// Words before a number that make it an amount ("budget 75 000").
const AMOUNT_BEFORE: &[&str] = &[
    "budget",
    "budget de",
    "prix",
    "tarif",
    "cout",
    "montant",
    "enveloppe",
];

/// A postal code at `i`; returns where to resume.
pub fn at(scan: &mut Scan, named: &mut NamedPlaces, i: usize) -> Option<usize> {
    let first_digits = scan.digit_count(i)?;
    let (value, taken) = numbers::digits(scan, i)?;
    let solid = first_digits == 5 && taken == 1;
    if !(solid || first_digits == 2 && taken == 2) {
        return None;
    }
    let code = format!("{value:05}");
    let department = code.get(..2)?;
    if code.len() != 5 || !DEPARTMENTS.contains(&department) {
        return None;
    }
    // "92 000 €" or "budget 75 000" are amounts, not places.
    let end = i + taken;
    let amount_after = scan
        .word(end)
        .is_some_and(|w| matches!(w, "€" | "$" | "£" | "%") || is_unit(w));
    if amount_after || scan.longest_before(i, AMOUNT_BEFORE) > 0 {
        return None;
    }
    let paris_unknown = department == "75" && geo::arrondissement_by_postal_code(&code).is_none();
    if paris_unknown {
        // "75 500" with a space is more likely an amount than a code.
        if !solid {
            return None;
        }
        if code == "75000" {
            named.whole_paris(i, true);
        } else {
            named.unknown(code);
        }
    } else {
        named.codes(i, [code.as_str()]);
    }
    let end = end + usize::from(scan.is_any(end, &["paris", "cedex"]));
    scan.consume(i..end);
    Some(end)
}

/// Words after a number that make it a quantity.
fn is_unit(word: &str) -> bool {
    is_people_unit(word)
        || matches!(
            word,
            "euro" | "euros" | "eur" | "e" | "k" | "ke" | "keur" | "ht" | "ttc" | "m" | "km" | "h"
        )
}
