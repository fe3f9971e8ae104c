//! Room layouts ("configurations Kactus" of seed 001): "en cocktail ou
//! banquet", "debout" (cocktail), "en U", "style école/classe", "salle de
//! réunion", "boardroom", "theatre style"…
//!
//! An explicit layout always wins over what the event implies
//! (`events`): in "Keynote en théâtre suivie d'un cocktail" the room must
//! seat a theatre; the keynote and the cocktail stay in the semantic
//! query. Without an explicit layout, every event mentioned brings its
//! own ("plénière puis cocktail" → théâtre + cocktail). "Théâtre",
//! "cabaret" and "école" alone are kinds of venues ("un ancien théâtre"),
//! never layouts; "U" only follows "en", "format", "table en"…
//!
//! Words are read through `layout_spelling`, so "en banquett" and
//! "reunoin" are understood and "début" is not "debout".

use super::events;
use super::layout_spelling::{vocabulary_of, Reading};
use super::people;
use super::scan::Scan;
use super::seated_meals;
use super::{Configuration, Criteria};
use std::ops::Range;
use std::sync::OnceLock;
use Configuration::*;

/// Layout names after a layout word ("en", "format", "style"…).
#[rustfmt::skip]
const NAMES: &[(&str, Configuration)] = &[
    ("cocktail", Cocktail), ("cocktails", Cocktail), ("debout", Cocktail), ("standing", Cocktail),
    ("cocktail dinatoire", Cocktail), ("banquet", Banquet), ("banquets", Banquet),
    ("tables rondes", Banquet), ("rondes", Banquet), ("table imperiale", Banquet),
    ("imperiale", Banquet), ("theatre", Theatre), ("theater", Theatre), ("amphi", Theatre),
    ("amphitheatre", Theatre), ("auditorium", Theatre), ("conference", Theatre), ("rangs", Theatre),
    ("rangees", Theatre), ("cabaret", Cabaret), ("ilots", Cabaret), ("ecole", Ecole),
    ("classe", Ecole), ("salle de classe", Ecole), ("classroom", Ecole), ("reunion", Reunion),
    ("boardroom", Reunion), ("conseil", Reunion), ("u", U), ("fer a cheval", U), ("u shape", U),
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

/// Layouts said without a layout word, French and English.
#[rustfmt::skip]
const STANDALONE: &[(&str, Configuration)] = &[
    ("cocktail style", Cocktail),
    ("tables rondes", Banquet), ("round tables", Banquet), ("table imperiale", Banquet),
    ("tables imperiales", Banquet), ("banquet style", Banquet), ("fer a cheval", U),
    ("u shape", U), ("u shaped", U), ("horseshoe", U), ("salle de reunion", Reunion),
    ("salles de reunion", Reunion), ("table de reunion", Reunion), ("salle de conseil", Reunion),
    ("boardroom", Reunion), ("en boardroom", Reunion), ("board room", Reunion),
    ("boardroom style", Reunion), ("salle de classe", Ecole), ("classroom", Ecole),
    ("classroom style", Ecole), ("theatre style", Theatre), ("theater style", Theatre),
    ("auditorium style", Theatre), ("cabaret style", Cabaret),
];

/// How people stand or sit, said without a layout word: like an event,
/// it gives way to an explicit layout ("en théâtre puis cocktail debout")
/// and adds to the other events ("repas assis ou cocktail debout"); the
/// words themselves are taken.
const POSTURES: &[(&str, Configuration)] = &[("debout", Cocktail), ("cocktail debout", Cocktail)];

/// "Standing" is English for "debout", and French for "upscale": a layout
/// only next to a head count or a drink ("200 standing", "cocktail
/// standing", "standing reception"), never after "de", "haut", "grand"…
const STANDING: &str = "standing";
#[rustfmt::skip]
const STANDING_AFTER: &[&str] = &[
    "cocktail", "cocktails", "reception", "apero", "aperitif", "buffet", "dinner", "lunch", "drinks",
];
#[rustfmt::skip]
const STANDING_BEFORE: &[&str] = &[
    "reception", "cocktail", "cocktails", "drinks", "party", "event", "buffet", "dinner", "lunch",
    "only",
];
#[rustfmt::skip]
const UPSCALE: &[&str] = &[
    "de", "d", "du", "haut", "grand", "bon", "beau", "bel", "tres", "meme", "un", "le", "son",
    "leur", "notre", "quel", "eleve", "moyen",
];

#[rustfmt::skip]
const SEPARATORS: &[&str] = &[
    "ou", "et", ",", "/", "ou en", "et en", "voire", "voire en", "ou bien", "ou bien en",
    "sinon", "sinon en", "ou encore", "ou encore en", "ou format", "ou mode", "ou style",
];

/// A word that refuses what follows, directly or through a small word
/// ("pas de cocktail", "sans banquet", "pas en théâtre", "ni cocktail").
const NEGATIONS: &[&str] = &[
    "pas", "sans", "ni", "non", "hors", "aucun", "aucune", "eviter", "evitez", "jamais",
];
const NEGATION_LINKS: &[&str] = &["de", "d", "en", "un", "une", "du", "le", "la", "les"];

/// Longer refusals: "pas forcément en théâtre", "plutôt qu'un cocktail".
#[rustfmt::skip]
const REFUSALS: &[&str] = &[
    "pas forcement", "pas forcement en", "pas forcement de", "pas forcement un",
    "pas forcement une", "pas necessairement", "pas necessairement en", "pas besoin de",
    "pas besoin d", "pas besoin d un", "pas besoin d une", "plutot que", "plutot qu",
    "plutot qu un", "plutot qu une", "au lieu de", "au lieu d", "au lieu du", "au lieu d un",
    "au lieu d une",
];

/// Every word of the tables above and of the event tables: what typos are
/// corrected to.
fn vocabulary() -> &'static [&'static str] {
    static CELL: OnceLock<Vec<&'static str>> = OnceLock::new();
    vocabulary_of(&CELL, || {
        let pairs = [NAMES, STANDALONE, POSTURES];
        let lists = [
            PREFIXES,
            SEPARATORS,
            NEGATIONS,
            NEGATION_LINKS,
            REFUSALS,
            STANDING_AFTER,
            STANDING_BEFORE,
            UPSCALE,
            &[STANDING],
        ];
        pairs
            .iter()
            .flat_map(|t| t.iter().map(|(p, _)| *p))
            .chain(lists.iter().flat_map(|t| t.iter().copied()))
            .chain(events::words())
            .collect()
    })
}

/// A layout said in the text, and the tokens that say it: two ranges, as
/// a meal word in between stays ("en dîner assis" takes "en" and "assis");
/// the second is empty otherwise.
struct Said {
    layout: Configuration,
    /// First token of the phrase.
    start: usize,
    taken: [Range<usize>; 2],
    end: usize,
}

/// Takes the explicit layouts and the layouts of the events no explicit
/// layout qualifies; refused ones ("pas de cocktail") are left alone.
/// Explicit layout words are taken; event words stay.
///
/// "Conférence de 110 personnes en cabaret" is a cabaret, not a theatre:
/// the explicit layout qualifies the event next to it. "Conférence en
/// théâtre, puis un verre debout" is a theatre and a cocktail: the second
/// part of the programme brings its own layout.
pub fn extract(scan: &mut Scan, found: &mut Criteria) {
    let reading = Reading::new(scan, 0..scan.len(), vocabulary());
    let (explicit, implied) = read(&reading);
    let (qualified, unqualified): (Vec<Said>, Vec<Said>) = implied
        .into_iter()
        .partition(|event| explicit.iter().any(|e| qualifies(&reading, e, event)));
    let mut chosen = explicit;
    chosen.extend(unqualified);
    chosen.sort_by_key(|s| s.start);
    let unchosen = qualified;
    for said in chosen {
        for range in said.taken {
            scan.consume(range);
        }
        if !found.configurations.contains(&said.layout) {
            found.configurations.push(said.layout);
        }
    }
    // "Dîner placé, tables rondes": "placé" says the banquet too.
    for said in unchosen {
        if found.configurations.contains(&said.layout) {
            for range in said.taken {
                scan.consume(range);
            }
        }
    }
}

/// Words that start another part of the programme: an explicit layout
/// does not reach over them.
#[rustfmt::skip]
const NEXT_PART: &[&str] = &[
    "puis", "suivi", "suivie", "suivis", "suivies", "ensuite", "apres", "avant", "et", "+", ".",
    ";", "then", "followed", "and", "avec", "with",
];

/// Most tokens between an event and the explicit layout after it that
/// qualifies it ("conférence de 110 personnes en théâtre", "conférence de
/// presse, salle en U").
const QUALIFIER_REACH: usize = 5;

/// True when the explicit layout `layout` is the layout of `event`: after
/// it in the same part of the programme, or right before it ("en U,
/// réunion"). A layout before an event with more between belongs to
/// another part: "théâtre pour 130 personnes, seated lunch".
fn qualifies(reading: &Reading, layout: &Said, event: &Said) -> bool {
    let between = |from: usize, to: usize| {
        (from..to).all(|k| reading.raw(k).is_none_or(|w| !NEXT_PART.contains(&w)))
    };
    if layout.start >= event.end {
        layout.start - event.end <= QUALIFIER_REACH && between(event.end, layout.start)
    } else if event.start >= layout.end {
        event.start - layout.end <= 1
            && between(layout.end, event.start)
            && (layout.end..event.start).all(|k| reading.raw(k).is_none_or(|w| w != ","))
    } else {
        true
    }
}

/// The explicit layouts and the implied ones, in the order of the text.
fn read(reading: &Reading) -> (Vec<Said>, Vec<Said>) {
    let mut explicit: Vec<Said> = Vec::new();
    let mut implied: Vec<Said> = Vec::new();
    let mut i = 0;
    while i < reading.len() {
        if refused(reading, i) {
            // The whole refused phrase: "pas de cocktail debout" asks for
            // no "debout" either.
            let explicit = explicit_at(reading, i)
                .or_else(|| posture_at(reading, i))
                .map(|said| said.end - i);
            let implied = events::implied_at(reading, i).map(|event| event.len);
            i += explicit.or(implied).unwrap_or(1).max(1);
        } else if let Some(said) = explicit_at(reading, i) {
            i = said.end;
            explicit.push(said);
            // "en cocktail ou banquet", "style école/classe".
            while let Some((_, sep)) = reading.longest(i, SEPARATORS) {
                let Some(said) = named(reading, i, i + sep) else {
                    break;
                };
                i = said.end;
                explicit.push(said);
            }
        } else if let Some(said) = posture_at(reading, i) {
            i = said.end;
            implied.push(said);
        } else if let Some(event) = events::implied_at(reading, i) {
            implied.push(Said {
                layout: event.layout,
                start: i,
                taken: [event.seated, 0..0],
                end: i + event.len,
            });
            i += event.len;
        } else {
            i += 1;
        }
    }
    (explicit, implied)
}

/// The longest phrase of `table` at `i`: (its layout, tokens taken).
fn longest_in(
    reading: &Reading,
    i: usize,
    table: &[(&str, Configuration)],
) -> Option<(Configuration, usize)> {
    table
        .iter()
        .filter_map(|(phrase, layout)| reading.phrase(i, phrase).map(|n| (*layout, n)))
        .max_by_key(|&(_, n)| n)
}

/// A layout name at `at` ("cocktail", "U", or a seated meal "dîner
/// assis"), announced by the tokens from `from`.
fn named(reading: &Reading, from: usize, at: usize) -> Option<Said> {
    if let Some((layout, n)) = longest_in(reading, at, NAMES) {
        return Some(Said {
            layout,
            start: from,
            taken: [from..at + n, 0..0],
            end: at + n,
        });
    }
    let seated = seated_meals::seated_after_meal(reading, at)?;
    let end = seated.end;
    Some(Said {
        layout: Banquet,
        start: from,
        taken: [from..at, seated],
        end,
    })
}

/// True when a layout starts at `i` ("en cocktail", "dîner assis",
/// "debout"): what a head count may be followed by ("80 debout", "et 120
/// en dîner assis").
pub fn follows_layout(scan: &Scan, i: usize) -> bool {
    // The words before matter to "standing" and to refusals.
    let reading = Reading::new(scan, i.saturating_sub(4)..i + 16, vocabulary());
    !refused(&reading, i)
        && (explicit_at(&reading, i).is_some()
            || posture_at(&reading, i).is_some()
            || seated_meals::seated_after_meal(&reading, i).is_some())
}

/// An explicit layout at `i`.
fn explicit_at(reading: &Reading, i: usize) -> Option<Said> {
    if let Some((layout, n)) = longest_in(reading, i, STANDALONE) {
        return Some(Said {
            layout,
            start: i,
            taken: [i..i + n, 0..0],
            end: i + n,
        });
    }
    let (_, prefix) = reading.longest(i, PREFIXES)?;
    named(reading, i, i + prefix)
}

/// "debout", "cocktail debout", "200 standing" at `i`.
fn posture_at(reading: &Reading, i: usize) -> Option<Said> {
    let (layout, n) = longest_in(reading, i, POSTURES)
        .or_else(|| standing_at(reading, i).then_some((Cocktail, 1)))?;
    Some(Said {
        layout,
        start: i,
        taken: [i..i + n, 0..0],
        end: i + n,
    })
}

/// "Standing" as a layout ("200 standing", "cocktail standing"), not as
/// a level of comfort ("lieu de standing", "haut standing").
fn standing_at(reading: &Reading, i: usize) -> bool {
    if reading.word(i) != Some(STANDING) || reading.preceded_by(i, UPSCALE) {
        return false;
    }
    let before = i.checked_sub(1).and_then(|k| reading.raw(k));
    let after = reading.raw(i + 1);
    let is_count = |w: Option<&str>| {
        w.is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()) || people::is_people_unit(w))
    };
    // "…for 50 people? Standing, networking event": a clause of its own.
    let is_edge =
        |w: Option<&str>| w.is_none_or(|w| matches!(w, "," | "." | "?" | "!" | ";" | ":"));
    is_count(before)
        || before.is_some_and(|w| STANDING_AFTER.contains(&w))
        || after.is_some_and(|w| STANDING_BEFORE.contains(&w))
        || is_edge(before) && is_edge(after)
}

/// "pas de cocktail", "sans banquet", "pas en théâtre", "plutôt qu'un
/// cocktail".
fn refused(reading: &Reading, i: usize) -> bool {
    let before = |back: usize| i.checked_sub(back).and_then(|k| reading.raw(k));
    let is_negation = |w: Option<&str>| w.is_some_and(|w| NEGATIONS.contains(&w));
    is_negation(before(1))
        || before(1).is_some_and(|w| NEGATION_LINKS.contains(&w)) && is_negation(before(2))
        || reading.preceded_by(i, REFUSALS)
}
