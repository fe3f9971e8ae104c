//! A seated meal is a banquet, however it is worded: « dîner placé »,
//! « repas assis », « déjeuner à table », « brunch assis », and with the
//! head count in between: « dîner pour 80 personnes assis », « déjeuner de
//! 40 personnes assis ». The meal names the event and stays in the
//! description; the seated word is the layout and is taken.

use super::layout_spelling::Reading;
use std::ops::Range;

/// Meals that may be seated.
#[rustfmt::skip]
pub const MEALS: &[&str] = &[
    "diner", "diners", "dejeuner", "dejeuners", "repas", "souper", "dinner", "lunch", "brunch",
    "buffet", "gouter", "dej",
];

/// What makes a meal seated.
#[rustfmt::skip]
pub const SEATED: &[&str] = &[
    "assis", "assise", "assises", "place", "places", "placee", "placees", "a table", "a l assiette",
    "attable", "attables", "seated",
];

/// Seated words that only count right after the meal: « dîner placé »,
/// but « déjeuner sur place » is a lunch on site.
const ADJACENT_ONLY: &[&str] = &["place", "places", "placee", "placees"];

/// Free words allowed between the meal and the seated word, besides the
/// tokens the head count took: « dîner de gala pour 80 personnes assis »,
/// « dîner de 80 personnes, assis ».
#[rustfmt::skip]
const GAP: &[&str] = &[
    ",", "de", "d", "du", "pour", "avec", "environ", "a", "gala", "servi", "servis", "servie",
    "entierement", "uniquement", "totalement", "exclusivement", "en", "for", "around", "about",
    "of", "with",
];

/// How far the seated word may follow the meal.
const MAX_GAP: usize = 6;

/// The seated word after a meal at `i` (the meal itself is not taken):
/// the tokens of « assis » in « dîner pour 80 personnes assis ».
pub fn seated_after_meal(reading: &Reading, i: usize) -> Option<Range<usize>> {
    reading.longest(i, MEALS)?;
    let mut k = i + 1;
    while k <= i + 1 + MAX_GAP {
        if let Some((which, n)) = reading.longest(k, SEATED) {
            let adjacent = (i + 1..k).all(|g| !reading.is_free(g));
            if adjacent || !ADJACENT_ONLY.contains(&SEATED[which]) {
                return Some(k..k + n);
            }
            return None;
        }
        // A token the head count took, or a small word of the same phrase.
        let skippable = match reading.word(k) {
            None => reading.raw(k).is_some(),
            Some(w) => GAP.contains(&w),
        };
        if !skippable {
            return None;
        }
        k += 1;
    }
    None
}
