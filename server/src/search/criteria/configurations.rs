//! Room layouts ("configurations Kactus" of seed 001): "en cocktail ou
//! banquet", "dîner assis" (banquet), "debout" (cocktail), "en U", "style
//! école/classe", "salle de réunion"…
//!
//! Explicit layouts ("en théâtre", "format cocktail") win over a bare word
//! that names a moment of the event: in "Keynote en théâtre suivie d'un
//! cocktail" the room must seat a theatre; the cocktail stays in the
//! semantic query. "Théâtre", "cabaret" and "école" alone are kinds of
//! venues ("un ancien théâtre"), never layouts; "U" only follows "en",
//! "format", "table en"…

use super::scan::Scan;
use super::{Configuration, Criteria};
use std::ops::Range;
use Configuration::*;

/// Layout names after a layout word ("en", "format", "style"…).
#[rustfmt::skip]
const NAMES: &[(&str, Configuration)] = &[
    ("cocktail", Cocktail), ("cocktails", Cocktail), ("debout", Cocktail),
    ("cocktail dinatoire", Cocktail), ("banquet", Banquet), ("banquets", Banquet),
    ("tables rondes", Banquet), ("rondes", Banquet), ("theatre", Theatre), ("cabaret", Cabaret), ("ecole", Ecole),
    ("classe", Ecole), ("salle de classe", Ecole), ("reunion", Reunion), ("boardroom", Reunion),
    ("conseil", Reunion), ("u", U), ("fer a cheval", U),
];

/// Words that announce a layout name.
#[rustfmt::skip]
const PREFIXES: &[&str] = &[
    "en", "en mode", "format", "en format", "configuration", "config", "configure en",
    "configuree en", "configuration en", "en configuration", "disposition", "disposition en",
    "style", "type", "mode", "facon", "formule", "installation en", "installe en", "installee en",
    "placement en", "table en", "tables en", "salle en", "amenage en", "amenagee en",
    "amenagement en", "agencement", "agencement en", "layout", "format de salle", "dispose en",
    "disposee en", "organise en", "organisee en", "assis en", "places en",
];

/// Layouts said without a layout word.
#[rustfmt::skip]
const STANDALONE: &[(&str, Configuration)] = &[
    ("debout", Cocktail), ("cocktail debout", Cocktail), ("cocktail dinatoire", Cocktail),
    ("tables rondes", Banquet), ("fer a cheval", U), ("salle de reunion", Reunion),
    ("table de reunion", Reunion), ("salle de classe", Ecole), ("salle de conseil", Reunion),
    ("boardroom", Reunion), ("en boardroom", Reunion),
];

/// A meal followed by one of `SEATED` is a banquet; the meal word stays.
const MEALS: &[&str] = &["diner", "dejeuner", "repas", "souper", "dinner", "lunch"];
const SEATED: &[&str] = &["assis", "assise", "place", "a table"];

/// Words that also name a moment of the event: layouts only when nothing
/// more explicit is said.
#[rustfmt::skip]
const WEAK: &[(&str, Configuration)] = &[
    ("cocktail", Cocktail), ("cocktails", Cocktail), ("banquet", Banquet), ("banquets", Banquet),
    ("reunion", Reunion), ("reunions", Reunion),
];

#[rustfmt::skip]
const SEPARATORS: &[&str] = &[
    "ou", "et", ",", "/", "ou en", "et en", "voire", "voire en", "ou bien", "ou bien en",
    "sinon", "sinon en", "ou encore", "ou encore en", "ou format", "ou mode", "ou style",
];

const NEGATIONS: &[&str] = &[
    "pas", "sans", "ni", "non", "hors", "aucun", "aucune", "eviter", "evitez", "jamais",
];

/// A layout said in the text, and the tokens that say it: two ranges, as
/// a meal word in between stays ("en dîner assis" takes "en" and "assis");
/// the second is empty otherwise.
struct Said {
    layout: Configuration,
    ranges: [Range<usize>; 2],
    end: usize,
}

/// Takes the explicit layouts, or the bare layout words when nothing
/// explicit was said; negated ones ("pas de cocktail") are left alone.
pub fn extract(scan: &mut Scan, found: &mut Criteria) {
    let mut strong: Vec<Said> = Vec::new();
    let mut weak: Vec<Said> = Vec::new();
    let mut i = 0;
    while i < scan.len() {
        if negated(scan, i) {
            i += 1;
        } else if let Some(said) = strong_at(scan, i) {
            i = said.end;
            strong.push(said);
            // "en cocktail ou banquet", "style école/classe".
            while let Some((_, sep)) = scan.longest(i, SEPARATORS) {
                let Some(said) = named(scan, i, i + sep) else {
                    break;
                };
                i = said.end;
                strong.push(said);
            }
        } else if let Some((layout, n)) = longest_in(scan, i, WEAK) {
            weak.push(Said {
                layout,
                ranges: [i..i + n, 0..0],
                end: i + n,
            });
            i += n;
        } else {
            i += 1;
        }
    }
    let chosen = if strong.is_empty() { weak } else { strong };
    for said in chosen {
        for range in said.ranges {
            scan.consume(range);
        }
        if !found.configurations.contains(&said.layout) {
            found.configurations.push(said.layout);
        }
    }
}

/// The longest phrase of `table` at `i`: (its layout, tokens taken).
fn longest_in(
    scan: &Scan,
    i: usize,
    table: &[(&str, Configuration)],
) -> Option<(Configuration, usize)> {
    table
        .iter()
        .filter_map(|(phrase, layout)| scan.phrase(i, phrase).map(|n| (*layout, n)))
        .max_by_key(|&(_, n)| n)
}

/// A layout name at `at` ("cocktail", "U", or a seated meal "dîner
/// assis"), announced by the tokens from `from`.
fn named(scan: &Scan, from: usize, at: usize) -> Option<Said> {
    if let Some((layout, n)) = longest_in(scan, at, NAMES) {
        return Some(Said {
            layout,
            ranges: [from..at + n, 0..0],
            end: at + n,
        });
    }
    let seated = seated_meal(scan, at)?;
    let end = seated.end;
    Some(Said {
        layout: Banquet,
        ranges: [from..at, seated],
        end,
    })
}

/// "dîner assis" at `i`: the tokens of "assis" (the meal is the event and
/// stays in the semantic query).
fn seated_meal(scan: &Scan, i: usize) -> Option<Range<usize>> {
    if !scan.is_any(i, MEALS) {
        return None;
    }
    let (_, n) = scan.longest(i + 1, SEATED)?;
    Some(i + 1..i + 1 + n)
}

/// True when an explicit layout starts at `i` ("en cocktail", "dîner
/// assis", "debout"): what a head count may be followed by.
pub fn follows_layout(scan: &Scan, i: usize) -> bool {
    strong_at(scan, i).is_some()
}

/// An explicit layout at `i`.
fn strong_at(scan: &Scan, i: usize) -> Option<Said> {
    if let Some((layout, n)) = longest_in(scan, i, STANDALONE) {
        return Some(Said {
            layout,
            ranges: [i..i + n, 0..0],
            end: i + n,
        });
    }
    if let Some(seated) = seated_meal(scan, i) {
        let end = seated.end;
        return Some(Said {
            layout: Banquet,
            ranges: [seated, 0..0],
            end,
        });
    }
    let (_, prefix) = scan.longest(i, PREFIXES)?;
    named(scan, i, i + prefix)
}

/// "pas de cocktail", "sans banquet", "pas en théâtre".
fn negated(scan: &Scan, i: usize) -> bool {
    let raw = |back: usize| {
        i.checked_sub(back)
            .and_then(|k| scan.tokens.get(k))
            .map(|t| t.text.as_str())
    };
    let is_negation = |w: Option<&str>| w.is_some_and(|w| NEGATIONS.contains(&w));
    is_negation(raw(1))
        || raw(1).is_some_and(|w| matches!(w, "de" | "d" | "en" | "un" | "une"))
            && is_negation(raw(2))
}
