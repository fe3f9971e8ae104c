//! Areas too wide for postal codes: "n'importe où en Île-de-France",
//! "Paris ou petite couronne", "pas forcément dans Paris". They filter
//! nothing; the page asks to narrow them (`Criteria::broad_area`).

use super::scan::Scan;

/// Areas so wide they filter nothing.
#[rustfmt::skip]
const BROAD: &[&str] = &[
    "n importe ou", "n importe ou en ile de france", "n importe ou en idf",
    "n importe ou en region parisienne", "peu importe ou", "peu importe le lieu",
    "peu importe la zone", "peu importe l endroit", "peu importe la localisation",
    "partout en ile de france", "partout en idf", "partout en region parisienne",
    "toute l ile de france", "toute l idf", "tout l idf", "ile de france", "idf",
    "region parisienne", "toute la region parisienne", "region ile de france",
    "paris et sa region", "paris et region parisienne", "paris et alentours",
    "paris et ses alentours", "paris et environs", "paris et ses environs",
    "paris et banlieue", "paris et sa banlieue", "paris ou banlieue", "paris et proche banlieue",
    "paris ou proche banlieue", "paris et petite couronne", "paris ou petite couronne",
    "grand paris", "zone indifferente", "lieu indifferent", "pas de contrainte geographique",
    "sans contrainte geographique",
    // The suburbs as a whole: hundreds of postal codes.
    "petite couronne", "la petite couronne", "en petite couronne", "grande couronne",
    "la grande couronne", "en grande couronne", "premiere couronne", "proche couronne",
    "banlieue", "la banlieue", "en banlieue", "sa banlieue", "proche banlieue",
    "la proche banlieue", "en proche banlieue", "banlieue parisienne", "en banlieue parisienne",
];

/// Wider areas that only read as one after "Paris ou": alone, "aux
/// alentours de la gare" is a proximity.
#[rustfmt::skip]
const AFTER_PARIS: &[&str] = &[
    "region", "sa region", "la region", "alentours", "ses alentours", "les alentours",
    "environs", "ses environs", "les environs", "hors paris", "en dehors",
];

/// What may join Paris to a wider area: "Paris ou petite couronne", "à
/// Paris et en proche banlieue".
#[rustfmt::skip]
const PARIS_OR: &[&str] = &[
    "paris ou", "paris et", "paris voire", "paris ou bien", "paris intra muros ou",
    "paris intramuros ou", "paris ou en", "paris et en", "paris voire en", "paris ou dans",
    "paris ou dans la", "paris et dans la", "paris ,", "paris , voire", "paris , ou",
];

/// Paris refused as a limit: "pas forcément dans Paris", "hors Paris".
#[rustfmt::skip]
const NOT_ONLY: &[&str] = &[
    "pas forcement", "pas necessairement", "pas obligatoirement", "pas specialement",
    "pas uniquement", "pas seulement", "pas que", "pas besoin d etre", "pas", "hors",
    "en dehors de", "hors de", "a l exterieur de", "en peripherie de", "peu importe si",
];
const TO_PARIS: &[&str] = &[
    "paris",
    "a paris",
    "dans paris",
    "sur paris",
    "en plein paris",
    "intra muros",
    "intramuros",
    "paris intra muros",
    "paris intramuros",
    "dans paris intra muros",
    "a paris intra muros",
    "paris meme",
    "dans paris meme",
];

/// Of `NOT_ONLY`, the ones that rule Paris out rather than widen it:
/// « hors Paris » is everywhere but Paris, « pas forcément dans Paris »
/// is Paris or elsewhere.
const OUTSIDE: &[&str] = &["pas", "hors", "en dehors de", "hors de", "a l exterieur de"];

/// What the broad-area phrases said.
#[derive(Default)]
pub struct Broad {
    /// An area too wide to filter was named.
    pub mentioned: bool,
    /// Paris itself is ruled out (« hors Paris »).
    pub outside_paris: bool,
}

/// Consumes the broad-area phrases.
pub fn extract(scan: &mut Scan) -> Broad {
    let mut broad = Broad::default();
    for i in 0..scan.len() {
        if let Some((n, outside)) = broad_at(scan, i) {
            scan.consume(i..i + n);
            broad.mentioned = true;
            broad.outside_paris |= outside;
        }
    }
    broad
}

/// Tokens of a broad area starting at `i`, and whether it rules Paris out.
fn broad_at(scan: &Scan, i: usize) -> Option<(usize, bool)> {
    if let Some((k, lead)) = scan.longest(i, NOT_ONLY) {
        if let Some((_, n)) = scan.longest(i + lead, TO_PARIS) {
            // « hors Paris 16e » rules out an arrondissement, not Paris.
            if scan.number(i + lead + n).is_some() {
                return None;
            }
            let outside = NOT_ONLY.get(k).is_some_and(|cue| OUTSIDE.contains(cue));
            return Some((lead + n, outside));
        }
    }
    broad_area_at(scan, i).map(|n| (n, false))
}

/// Tokens of an area too wide to filter starting at `i`.
fn broad_area_at(scan: &Scan, i: usize) -> Option<usize> {
    // "à Paris ou petite couronne": the preposition goes with it.
    let preposition = usize::from(scan.is_any(i, &["a", "dans", "sur"]));
    let joined = scan
        .longest(i + preposition, PARIS_OR)
        .map(|(_, n)| preposition + n);
    if let Some(joined) = joined {
        let tail = [BROAD, AFTER_PARIS]
            .iter()
            .filter_map(|words| scan.longest(i + joined, words))
            .map(|(_, n)| n)
            .max();
        // « à Paris, hors Paris 16e » rules out an arrondissement.
        if let Some(n) = tail.filter(|n| scan.number(i + joined + n).is_none()) {
            return Some(joined + n);
        }
    }
    scan.longest(i, BROAD).map(|(_, n)| n)
}
