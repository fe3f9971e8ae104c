//! Seating by tables: "3 tables de 8" is 24 people, "10 tables rondes de
//! 10" is 100. A count of tables alone ("10 tables") is no head count.

use super::numbers;
use super::scan::Scan;
use std::ops::Range;

/// Words describing the tables between "tables" and "de".
#[rustfmt::skip]
const SHAPES: &[&str] = &[
    "rondes", "ronde", "rectangulaires", "rectangulaire", "carrees", "carree", "hautes", "haute",
    "mange debout", "imperiales", "imperiale",
];

/// Shapes that are a layout of their own: the layout reader takes them
/// with "tables" ("tables rondes" → banquet).
const LAYOUT_SHAPES: &[&str] = &["rondes", "ronde"];

/// Tables of a given size at `i`.
pub struct Tables {
    /// Tables times seats.
    pub people: u32,
    /// The index after the seats ("de 8").
    pub end: usize,
    /// Tokens in between left to the layout reader ("tables rondes").
    pub keep: Range<usize>,
}

/// "3 tables de 8", "une table de 12", "10 tables rondes de 10".
pub fn at(scan: &Scan, i: usize) -> Option<Tables> {
    let (count, taken) = numbers::cardinal(scan, i)?;
    let noun = i + taken;
    if !scan.is_any(noun, &["table", "tables"]) {
        return None;
    }
    let shape = scan.longest(noun + 1, SHAPES).map_or(0, |(_, n)| n);
    let of = noun + 1 + shape;
    if !scan.is_any(of, &["de", "d"]) {
        return None;
    }
    let (seats, seats_taken) = numbers::cardinal(scan, of + 1)?;
    let people = count.checked_mul(seats).filter(|&n| n > 0)?;
    let keep = if shape == 1 && scan.is_any(noun + 1, LAYOUT_SHAPES) {
        noun..noun + 2
    } else {
        of..of
    };
    Some(Tables {
        people,
        end: of + 1 + seats_taken,
        keep,
    })
}
