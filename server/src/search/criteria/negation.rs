//! What a sentence rules out: « on évite le 17e », « pas côté Montreuil »,
//! « surtout pas dans le 93 », « Paris sauf le 16e », « pas de rooftop »,
//! « ni le 15e ni le 16e », « le 17e est à exclure », « not in La
//! Défense ».
//!
//! The readers of places and kinds ask, for an item they just read,
//! whether a negation governs it. One does when it comes before the item
//! in the same clause with only small words between (articles,
//! prepositions, « côté », « secteur »), or other items it already ruled
//! out, joined by « et », « ou », « ni » or a comma (« on évite le 17e, le
//! 16e et le 8e »); or when the item is followed by « à éviter », « exclu
//! », « non ». Anything else between stops the search: « pas loin du 8e
//! », « pas forcément dans le 8e », « pas de rooftop, dans le 8e » read the
//! 8e as asked for.

use super::scan::Scan;
use super::tokens::Kind;
use std::ops::Range;

pub use super::scan::Category;

/// Words and phrases that rule out what follows them (folded).
#[rustfmt::skip]
const BEFORE: &[&str] = &[
    "pas", "surtout pas", "sauf", "hors", "sans", "ni", "aucun", "aucune", "jamais", "eviter",
    "evite", "evitons", "evitez", "on evite", "a eviter", "exclure", "excluant", "exclu", "exclus",
    "en dehors", "autre que", "autres que", "excepte", "no", "not", "without", "except",
    "excluding", "avoid", "anywhere but", "plutot pas", "non", "rien de", "rien d",
];

/// Phrases after an item that rule it out: « le 17e est à exclure ».
#[rustfmt::skip]
const AFTER: &[&str] = &[
    "a eviter", "a exclure", "exclu", "exclue", "exclus", "exclues", "non", "c est non",
    "hors de question", "impossible", "pas possible", "a proscrire", "interdit", "no", "not",
    "excluded", "to avoid",
];

/// Small words allowed between a negation and what it rules out.
#[rustfmt::skip]
const LINKS: &[&str] = &[
    "de", "d", "du", "des", "le", "la", "les", "l", "un", "une", "en", "dans", "a", "au", "aux",
    "cote", "vers", "sur", "secteur", "quartier", "zone", "type", "style", "genre", "forme",
    "format", "surtout", "absolument", "vraiment", "meme", ":", "the", "in", "any", "an",
    "near", "at", "on",
];

/// Words allowed between an item and a negation after it.
const AFTER_LINKS: &[&str] = &[
    ",", ":", "-", "est", "sont", "serait", "sera", "c", "le", "la", "l", "is", "are", "a",
];

/// Join items of one category: « le 17e et le 8e », « ni péniche ».
const JOINERS: &[&str] = &["et", "ou", ",", "/", "&", "and", "or", "nor"];

/// How far back (tokens) a negation may govern.
const REACH: usize = 12;

/// Where the negation that rules out the item `item` is, when one does.
pub fn ruled_out(scan: &Scan, item: Range<usize>, category: Category) -> Option<Range<usize>> {
    before(scan, item.start, category).or_else(|| after(scan, item.end))
}

/// Takes the negation with the item and marks the item's tokens ruled out
/// (so a following item of the same category may join it). Items a
/// joiner links to it are found by walking back over ruled-out items.
pub fn take(scan: &mut Scan, cue: Range<usize>, item: Range<usize>, category: Category) {
    let (from, to) = (cue.start.min(item.start), cue.end.max(item.end));
    scan.consume(from..to);
    scan.rule_out(item, category);
}

fn before(scan: &Scan, start: usize, category: Category) -> Option<Range<usize>> {
    let mut k = start;
    while start - k < REACH {
        let cue = scan.raw_longest_before(k, BEFORE);
        if cue > 0 && !not_a_negation(scan, k) {
            return Some(k - cue..k);
        }
        let previous = k.checked_sub(1)?;
        match scan.ruled(previous) {
            Some(c) if c == category => {}
            Some(_) => return None,
            None => {
                let word = scan.raw(previous)?;
                if !JOINERS.contains(&word) && !LINKS.contains(&word) {
                    return None;
                }
            }
        }
        k = previous;
    }
    None
}

/// « pas loin », « pas forcément », « pas plus »: « pas » that negates
/// something else. Checked on the tokens right after the cue ending at `k`.
fn not_a_negation(scan: &Scan, k: usize) -> bool {
    const NOT_RULING_OUT: &[&str] = &[
        "loin",
        "forcement",
        "necessairement",
        "obligatoirement",
        "uniquement",
        "seulement",
        "que",
        "trop",
        "mal",
        "besoin",
        "encore",
        "specialement",
        "moins",
    ];
    scan.raw(k).is_some_and(|w| NOT_RULING_OUT.contains(&w))
}

fn after(scan: &Scan, end: usize) -> Option<Range<usize>> {
    let mut k = end;
    while k - end <= 3 {
        let found = AFTER.iter().find_map(|p| scan.raw_phrase(k, p));
        if let Some(n) = found {
            // « non » and « no » close a clause: « Montreuil, non. », never
            // « Montreuil non loin de… ».
            let closes = !matches!(scan.raw(k), Some("non" | "no" | "not"))
                || scan
                    .raw(k + n)
                    .is_none_or(|w| matches!(w, "." | "," | "!" | ";" | "\n"));
            return closes.then_some(end..k + n);
        }
        if !scan.raw(k).is_some_and(|w| AFTER_LINKS.contains(&w)) {
            return None;
        }
        k += 1;
    }
    None
}

/// Negations that refuse a noun phrase (« pas de moquette », « sans
/// poteaux », « ni traiteur imposé »).
#[rustfmt::skip]
const REFUSING: &[&str] = &[
    "pas de", "pas d", "surtout pas de", "surtout pas d", "sans", "ni", "eviter", "evite",
    "evitons", "evitez", "on evite", "no", "without", "avoid",
];

/// Words that end what a negation refuses.
#[rustfmt::skip]
const STOPS: &[&str] = &[
    "et", "ou", "mais", "avec", "pour", "puis", "si", "que", "qu", "car", "donc", "parce",
    "plutot", "and", "but", "with", "for", "or",
];

/// Most words a leftover negation takes after itself.
const LEFTOVER_WORDS: usize = 4;

/// Takes what the remaining negations refuse: none of it describes the
/// venue wanted, and « pas de moquette » would rank carpeted rooms first
/// (an embedding does not read « pas »).
pub fn take_leftovers(scan: &mut Scan) {
    let mut i = 0;
    while i < scan.len() {
        let Some((_, cue)) = scan.longest(i, REFUSING) else {
            i += 1;
            continue;
        };
        let mut end = i + cue;
        let mut words = 0;
        while words < LEFTOVER_WORDS {
            match scan.word(end) {
                Some(w) if !STOPS.contains(&w) && scan.kind(end) != Some(Kind::Symbol) => {
                    words += 1;
                    end += 1;
                }
                _ => break,
            }
        }
        if words > 0 {
            scan.consume(i..end);
        }
        i = end.max(i + 1);
    }
}
