//! Where, as postal codes: Paris arrondissements in all their spellings
//! ("dans le 8ème", "Paris 11", "VIIIe", "17e arrondissement", "Paris 8 ou
//! 17"), postal codes ("75011", "92100"), communes ("à Boulogne",
//! "Neuilly"), and the "anywhere in Île-de-France" that narrows nothing.

use super::guards::{named_after_something, seen_not_visited};
use super::numbers::{self, Form};
use super::participants::is_people_unit;
use super::scan::Scan;
use super::tokens::Kind;
use super::Criteria;
use crate::geo::{self, Context, Place};

/// Areas so wide they filter nothing: the caller asks to narrow them.
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
];

/// Words that say "arrondissement" after a number.
const ARRONDISSEMENT: &[&str] = &[
    "arrondissement",
    "arrondissements",
    "arr",
    "arrdt",
    "ardt",
    "arrt",
];

/// Nouns an ordinal counts that are not arrondissements ("1er étage",
/// "2e jour", "le 1er juin", "la 5e édition", "3e anniversaire").
#[rustfmt::skip]
const NOT_ARRONDISSEMENT: &[&str] = &[
    "etage", "etages", "jour", "jours", "journee", "journees", "edition", "editions", "fois",
    "anniversaire", "siecle", "siecles", "rang", "rangs", "place", "places", "position", "semaine",
    "semaines", "mois", "annee", "annees", "an", "ans", "trimestre", "semestre", "session",
    "sessions", "etape", "etapes", "niveau", "niveaux", "sous", "age", "art", "avenue", "rue",
    "republique", "partie", "parties", "classe", "tour", "prix", "degre", "generation", "saison",
    "chapitre", "acte", "volet", "numero", "opus", "epoque", "convention", "congres", "colloque",
    "forum", "salon", "festival", "rencontre", "rencontres", "assemblee", "seminaire", "soiree",
    "gala", "diner", "conference", "sommet", "ceremonie", "promo", "promotion", "ligne", "heure",
    "heures", "minute", "minutes", "personne", "invite", "participant", "janvier", "fevrier",
    "mars", "avril", "mai", "juin", "juillet", "aout", "septembre", "octobre", "novembre",
    "decembre", "km", "m", "salle", "salles", "espace", "lieu", "groupe", "equipe", "table",
    "tables", "cercle", "mi",
];

/// Determiners that make "8e" a rank ("la 8e édition", "notre 10e gala").
#[rustfmt::skip]
const DETERMINERS: &[&str] = &[
    "la", "sa", "ma", "ta", "notre", "votre", "leur", "une", "cette", "ses", "nos", "vos", "leurs",
    "des", "les", "un", "son", "mon", "ton", "ce", "cet", "chaque", "en",
];

/// Consumes the broad-area phrases; true when there was one.
pub fn extract_broad(scan: &mut Scan) -> bool {
    let mut mentioned = false;
    for i in 0..scan.len() {
        if let Some((_, n)) = scan.longest(i, BROAD) {
            scan.consume(i..i + n);
            mentioned = true;
        }
    }
    mentioned
}

/// Arrondissements, postal codes and communes, as postal codes.
pub fn extract(scan: &mut Scan, found: &mut Criteria) {
    let mut i = 0;
    while i < scan.len() {
        i = arrondissements_at(scan, found, i)
            .or_else(|| postal_code_at(scan, found, i))
            .or_else(|| commune_at(scan, found, i))
            .unwrap_or(i + 1);
    }
}

fn push(found: &mut Criteria, code: &str) {
    if !found.postal_codes.iter().any(|c| c == code) {
        found.postal_codes.push(code.to_string());
    }
}

fn push_arrondissement(found: &mut Criteria, number: u8) {
    if let Some(a) = geo::arrondissement(number) {
        for code in a.postal_codes() {
            push(found, code);
        }
    }
}

/// True when what follows an arrondissement number says it is one. A
/// noun of people only rules out a bare number ("Paris 8 personnes" is a
/// head count; "8e" never is).
fn fits(scan: &Scan, after: usize, form: Form) -> bool {
    scan.word(after).is_none_or(|w| {
        !(NOT_ARRONDISSEMENT.contains(&w) || form == Form::Bare && is_people_unit(w))
    })
}

/// One arrondissement (or a list of them) starting at `i`; returns where
/// to resume.
fn arrondissements_at(scan: &mut Scan, found: &mut Criteria, i: usize) -> Option<usize> {
    let (first, end, bare_list) = if scan.is(i, "paris") {
        if let Some(n) = scan.phrase(i, "paris centre") {
            scan.consume(i..i + n);
            (1..=4).for_each(|a| push_arrondissement(found, a));
            return Some(i + n);
        }
        // Paris proper, suburbs excluded: every arrondissement.
        if let Some((_, n)) = scan.longest(i, &["paris intra muros", "paris intramuros"]) {
            scan.consume(i..i + n);
            (1..=20).for_each(|a| push_arrondissement(found, a));
            return Some(i + n);
        }
        let (n, taken, form) = match numbers::ordinal(scan, i + 1) {
            Some(found) => found,
            // "Paris VIII": a bare Roman numeral only right after "Paris".
            // Roman numerals never count people, so it reads as an ordinal.
            None => (scan.word(i + 1).and_then(numbers::roman)?, 1, Form::Ordinal),
        };
        fits(scan, i + 1 + taken, form).then_some((n, i + 1 + taken, true))?
    } else {
        let (n, taken, form) = numbers::ordinal(scan, i)?;
        let end = i + taken;
        let named = scan.is_any(end, ARRONDISSEMENT);
        let digits_ordinal = form == Form::Ordinal && scan.number(i).is_some();
        let after_article = i
            .checked_sub(1)
            .is_some_and(|k| scan.is_any(k, &["le", "du", "au"]));
        let accepted = named
            || (fits(scan, end, form)
                && match form {
                    Form::Ordinal => {
                        after_article || (digits_ordinal && !preceded_by_determiner(scan, i))
                    }
                    Form::Bare => scan.longest_before(i, &["dans le", "du cote du"]) > 0,
                });
        accepted.then_some((n, end, false))?
    };
    push_arrondissement(found, first);
    let mut end = list(scan, found, end, bare_list);
    if scan.is_any(end, ARRONDISSEMENT) {
        // "8e arr." : the abbreviation's dot goes with it.
        end += 1 + usize::from(scan.is(end + 1, ".") && scan.glued(end + 1));
    }
    scan.consume(i..end);
    Some(end)
}

/// An arrondissement named as a place at `p` ("Paris 8e", "Paris 8", "8e",
/// "8e arrondissement"), for "à 2 km de Paris 8e": (number, tokens taken).
pub fn arrondissement_named_at(scan: &Scan, p: usize) -> Option<(u8, usize)> {
    let paris = usize::from(scan.is(p, "paris"));
    let (n, taken, form) = numbers::ordinal(scan, p + paris).or_else(|| {
        (paris == 1)
            .then(|| Some((numbers::roman(scan.word(p + 1)?)?, 1, Form::Ordinal)))
            .flatten()
    })?;
    let end = p + paris + taken;
    let named = scan.is_any(end, ARRONDISSEMENT);
    ((paris == 1 || form == Form::Ordinal || named) && fits(scan, end, form))
        .then_some((n, end + usize::from(named) - p))
}

fn preceded_by_determiner(scan: &Scan, i: usize) -> bool {
    i.checked_sub(1)
        .and_then(|k| scan.tokens.get(k))
        .is_some_and(|t| DETERMINERS.contains(&t.text.as_str()))
}

/// "… ou 17", "…, 9e et 17e", "… ou le 17e", "… ou Paris 17" after a first
/// arrondissement ending at `j`; returns the end of the list.
fn list(scan: &Scan, found: &mut Criteria, mut j: usize, bare: bool) -> usize {
    const SEPARATORS: &[&str] = &[
        "ou",
        "et",
        ",",
        "/",
        "&",
        "ou le",
        "et le",
        "ou dans le",
        "et dans le",
        "ou au",
        "ou du",
        "et du",
        "voire",
        "voire le",
        "ou bien",
        "ou bien le",
        "ou encore",
        "ou encore le",
    ];
    while let Some((_, sep)) = scan.longest(j, SEPARATORS) {
        let mut k = j + sep;
        let after_paris = scan.is(k, "paris");
        k += usize::from(after_paris);
        let Some((n, taken, form)) = numbers::ordinal(scan, k) else {
            break;
        };
        // "Paris VIII, 1 000 personnes": a bare number before a group of
        // digits is a quantity, not the next arrondissement.
        let bare_ok = (bare || after_paris) && scan.kind(k + taken) != Some(Kind::Number);
        if !(form == Form::Ordinal || bare_ok) || !fits(scan, k + taken, form) {
            break;
        }
        push_arrondissement(found, n);
        j = k + taken;
    }
    j
}

/// Postal-code departments of Île-de-France, and Oise for Chantilly.
const DEPARTMENTS: &[&str] = &["75", "77", "78", "91", "92", "93", "94", "95", "60"];

/// A postal code ("75011", "92100", "75 008") at `i`.
fn postal_code_at(scan: &mut Scan, found: &mut Criteria, i: usize) -> Option<usize> {
    let first_digits = scan.digit_count(i)?;
    let (value, taken) = numbers::digits(scan, i)?;
    if !(first_digits == 5 && taken == 1 || first_digits == 2 && taken == 2) {
        return None;
    }
    let code = format!("{value:05}");
    let department = code.get(..2)?;
    if code.len() != 5 || !DEPARTMENTS.contains(&department) {
        return None;
    }
    if department == "75" && geo::arrondissement_by_postal_code(&code).is_none() {
        return None;
    }
    // "92 000 €" or "budget 75 000" are amounts, not places.
    let end = i + taken;
    let amount_after = scan
        .word(end)
        .is_some_and(|w| matches!(w, "€" | "$" | "£" | "%") || is_unit(w));
    let amount_before = scan.longest_before(
        i,
        &[
            "budget",
            "budget de",
            "prix",
            "tarif",
            "cout",
            "montant",
            "enveloppe",
        ],
    ) > 0;
    if amount_after || amount_before {
        return None;
    }
    push(found, &code);
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

/// A commune ("à Boulogne", "Neuilly", "Saint-Germain-en-Laye") at `i`.
fn commune_at(scan: &mut Scan, found: &mut Criteria, i: usize) -> Option<usize> {
    let m = geo::match_place(&scan.free_words(i, 8), Context::Triggered)?;
    let end = i + m.words;
    match m.place {
        // A landmark the near pass left (a second centre, a view): its
        // words are not a commune either ("bois de Boulogne").
        Place::Landmark(_) | Place::Arrondissement(_) => Some(end),
        Place::Commune(c) => {
            if named_after_something(scan, i) || seen_not_visited(scan, i) {
                return Some(end);
            }
            push(found, c.postal_code);
            scan.consume(i..end);
            Some(end)
        }
    }
}
