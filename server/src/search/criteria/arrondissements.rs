//! Paris arrondissements in all their spellings ("dans le 8ème", "Paris
//! 11", "Paris 05", "VIIIe", "17e arrondissement", "cinquième") and lists
//! ("Paris 8 ou 17", "Paris 5/6", "5e, 6e ou 7e", "le 5 ou le 6"), told
//! apart from ranks, floors and days ("1er étage", "la 5e édition", "le 5
//! ou le 6 juin").

use super::named_places::NamedPlaces;
use super::numbers::{self, Form};
use super::people::is_people_unit;
use super::scan::Scan;
use super::tokens::Kind;
use crate::geo;

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

fn push_arrondissement(named: &mut NamedPlaces, at: usize, number: u8) {
    if let Some(a) = geo::arrondissement(number) {
        named.codes(at, a.postal_codes());
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
pub fn at(scan: &mut Scan, named: &mut NamedPlaces, i: usize) -> Option<usize> {
    let (first, rest) = if scan.is(i, "paris") {
        let (n, taken, form) = match numbers::ordinal(scan, i + 1) {
            Some(found) => found,
            // "Paris VIII": a bare Roman numeral only right after "Paris".
            // Roman numerals never count people, so it reads as an ordinal.
            None => (scan.word(i + 1).and_then(numbers::roman)?, 1, Form::Ordinal),
        };
        let end = i + 1 + taken;
        fits(scan, end, form).then_some(())?;
        (n, list(scan, end, true))
    } else {
        let (n, taken, form) = numbers::ordinal(scan, i)?;
        let end = i + taken;
        let named = scan.is_any(end, ARRONDISSEMENT);
        let digits_ordinal = form == Form::Ordinal && scan.number(i).is_some();
        let after_article = i
            .checked_sub(1)
            .is_some_and(|k| scan.is_any(k, &["le", "du", "au"]));
        let rest = list(scan, end, form == Form::Bare);
        // "cinquième ou sixième arrondissement": the noun closes the list.
        let listed = !rest.0.is_empty();
        let named = named || listed && scan.is_any(rest.1, ARRONDISSEMENT);
        let accepted = named
            || (fits(scan, end, form)
                && match form {
                    // Not "Ve ou VIe" alone: once a criterion between them is
                    // taken, any two ranks would read as places.
                    Form::Ordinal => {
                        after_article || (digits_ordinal && !preceded_by_determiner(scan, i))
                    }
                    Form::Bare => {
                        scan.longest_before(i, &["dans le", "du cote du"]) > 0
                            || (scan.longest_before(i, &["le"]) > 0
                                && !rest.0.is_empty()
                                && !looks_like_dates(scan, i - 1, rest.1))
                    }
                });
        accepted.then_some(())?;
        (n, rest)
    };
    let (others, mut end) = rest;
    for n in std::iter::once(first).chain(others) {
        push_arrondissement(named, i, n);
    }
    if scan.is_any(end, ARRONDISSEMENT) {
        // "8e arr." : the abbreviation's dot goes with it.
        end += 1 + usize::from(scan.is(end + 1, ".") && scan.glued(end + 1));
    }
    scan.consume(i..end);
    Some(end)
}

/// Words before "le 5 ou le 6" that make it days of the month.
#[rustfmt::skip]
const DAY_BEFORE: &[&str] = &[
    "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche", "dispo",
    "disponible", "disponibles", "libre", "libres", "date", "dates", "jour", "soir", "matin",
    "midi", "prevu", "prevue", "organise", "organisee", "pour", "depuis", "avant", "apres",
    "partir", "jusqu", "event", "evenement",
];

/// True when "le 5 ou le 6" from `article` to `end` reads as days: a day
/// word before, or an hour or "prochain" after ("le 5 ou le 6 à 19h").
fn looks_like_dates(scan: &Scan, article: usize, end: usize) -> bool {
    let day_before = article
        .checked_sub(1)
        .and_then(|k| scan.tokens.get(k))
        .is_some_and(|t| DAY_BEFORE.contains(&t.text.as_str()));
    let hour_at =
        |k: usize| scan.number(k).is_some() && scan.is_any(k + 1, &["h", "heure", "heures"]);
    let hour_after = hour_at(end)
        || scan.is_any(end, &["a", "vers", "des", "de"]) && hour_at(end + 1)
        || scan.is_any(end, &["prochain", "prochains", "h"]);
    day_before || hour_after
}

/// An arrondissement named as a place at `p` ("Paris 8e", "Paris 8", "8e",
/// "8e arrondissement"), for "à 2 km de Paris 8e": (number, tokens taken).
pub fn named_at(scan: &Scan, p: usize) -> Option<(u8, usize)> {
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
/// arrondissement ending at `j`: the numbers, and the end of the list.
/// Bare numbers count only when `bare` ("Paris 5/6", "le 5 ou le 6").
fn list(scan: &Scan, mut j: usize, bare: bool) -> (Vec<u8>, usize) {
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
        "or",
        "and",
    ];
    let mut numbers = Vec::new();
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
        numbers.push(n);
        j = k + taken;
    }
    (numbers, j)
}
