//! How many people: "100 personnes", "150 pers.", "pour 80", "80 invités",
//! "entre 80 et 120 personnes", "200 pax", "cent cinquante convives", "3
//! tables de 8" — and not "2 jours", "80 €/pers", "le 12 juin", "à 10
//! minutes", "1er étage" or "75 m²". A vague amount ("une centaine") only
//! informs the fit; a negative one is reported for the caller to refuse.

use super::head_counts::{self, Role};
use super::people::is_people_unit;
use super::scan::Scan;
use super::Criteria;
use super::{configurations, numbers, tables};
use std::ops::Range;

/// Words before a number that make it a head count without a unit.
#[rustfmt::skip]
const CONTEXTS: &[&str] = &[
    "pour", "groupe de", "groupe d", "equipe de", "equipe d", "jauge de", "jauge d", "jauge",
    "capacite de", "capacite d", "capacite", "effectif de", "effectif d", "effectif", "nombre de participants",
    "nombre de personnes", "nb de personnes", "nb personnes", "nb de participants", "participants",
    "personnes", "nombre d invites", "pour un groupe de", "pour un groupe d", "participants :",
    "personnes :", "jauge :", "effectif :", "nombre de participants :", "nombre de personnes :",
    "nb de personnes :", "nb personnes :", "pax :", "invites :", "for", "for about",
    "nombre de pax", "nombre de convives", "nb pax", "nb de pax", "nombre d invites :",
    "en invite", "on invite", "invitons", "nous attendons", "on attend", "accueillons",
    "nous serons", "on sera", "serons", "seront", "we will be", "we are",
];

/// Qualifiers that make a bare number a head count by themselves
/// ("environ 80", "~80"), the way a context does.
const ALONE_QUALIFIERS: &[&str] = &["environ", "env", "~", "approximativement", "a peu pres"];

/// Qualifiers between the context and the number, taken with it.
#[rustfmt::skip]
const QUALIFIERS: &[&str] = &[
    "environ", "env", "approximativement", "a peu pres", "pres de", "pres d", "autour de",
    "autour d", "jusqu a", "max", "maximum", "maxi", "au moins", "minimum", "plus de", "plus d",
    "moins de", "moins d", "au plus", "au maximum", "au minimum", "~", "+", "d environ",
    "entre", "de", "d", "un peu plus de", "un peu moins de",
];

/// Nouns a unit-less number after "pour" counts that are not people:
/// time, money, measures, things ("pour 2 jours", "pour 3 salles").
#[rustfmt::skip]
const NOT_PEOPLE: &[&str] = &[
    "jour", "jours", "journee", "journees", "nuit", "nuits", "nuitee", "nuitees", "soir", "soirs",
    "soiree", "soirees", "semaine", "semaines", "mois", "an", "ans", "annee", "annees", "heure",
    "heures", "h", "min", "mn", "minute", "minutes", "matin", "matinee", "matinees", "apres",
    "week", "we", "weekend", "trimestre", "semestre", "fois", "edition", "editions", "session",
    "sessions", "seance", "seances", "date", "dates", "janvier", "fevrier", "mars", "avril", "mai",
    "juin", "juillet", "aout", "septembre", "octobre", "novembre", "decembre", "euro", "euros",
    "eur", "k", "ke", "keur", "ht", "ttc", "balles", "m", "m2", "metre", "metres", "km",
    "kilometre", "kilometres", "kg", "kilo", "kilos", "litre", "litres", "cm", "salle", "salles",
    "table", "tables", "chambre", "chambres", "stand", "stands", "etage", "etages", "lit", "lits",
    "bus", "car", "cars", "voiture", "voitures", "atelier", "ateliers", "conference",
    "conferences", "bouteille", "bouteilles", "page", "pages", "menu", "menus", "plat", "plats",
    "lieu", "lieux", "option", "options", "proposition", "propositions", "espace", "espaces",
    "ecran", "ecrans", "micro", "micros", "x", "par", "e", "eme", "er", "ieme", "ere",
];

/// True when what follows a unit-less number lets it be a head count:
/// the end, punctuation, or a word that counts nothing else.
fn follows(scan: &Scan, p: usize) -> bool {
    // "environ 30 -20 personnes": the next number's minus sign ends this one.
    if scan.is_boundary(p) || minus_sign(scan, p) && numbers::digits(scan, p + 1).is_some() {
        return true;
    }
    // "18h", "2e", "5km": a glued word is the number's own unit.
    scan.kind(p) == Some(super::tokens::Kind::Word)
        && !scan.glued(p)
        && scan.word(p).is_some_and(|w| !NOT_PEOPLE.contains(&w))
}

/// One head count found in the text.
#[derive(Default)]
struct Mention {
    start: usize,
    end: usize,
    max: u32,
    min: Option<u32>,
    /// True for "adultes" and "enfants": parts of one group that add up.
    part: bool,
    /// Said with a noun of people ("60 participants").
    unit: bool,
    /// "Une trentaine": a fit preference, never a filter.
    vague: bool,
    /// "-20 personnes": refused by the caller.
    negative: bool,
    /// Tokens inside the mention left to another reader ("10 tables
    /// rondes de 10" leaves "tables rondes" to the layouts).
    keep: Range<usize>,
}

impl Mention {
    /// The tokens the mention takes: all of it but what it keeps.
    fn taken(&self) -> [Range<usize>; 2] {
        if self.keep.is_empty() {
            return [self.start..self.end, 0..0];
        }
        [self.start..self.keep.start, self.keep.end..self.end]
    }
}

/// One head count kept for the choice.
struct Count {
    max: u32,
    min: Option<u32>,
    role: Role,
    written: String,
}

/// Takes every head count; the largest of the people attending is the
/// capacity need ("35 adultes et 10 enfants" is one group of 45, "60
/// participants + 6 intervenants" one of 66). Counts that are not the
/// event's (`head_counts`) are left out when another one is, and `notes`
/// say so.
pub fn extract(scan: &mut Scan, found: &mut Criteria, notes: &mut Vec<String>) {
    let mut counts: Vec<Count> = Vec::new();
    let mut previous: Option<Mention> = None;
    let mut i = 0;
    while i < scan.len() {
        let Some(mut m) = mention_at(scan, i) else {
            i += 1;
            continue;
        };
        if m.negative {
            // The phrase as written, from its minus sign: "-20 personnes".
            if found.negative_amount.is_none() {
                found.negative_amount = Some(head_counts::as_written(scan, m.start..m.end));
            }
        }
        for taken in m.taken() {
            scan.consume(taken);
        }
        if m.negative {
            i = m.end;
            continue;
        }
        if m.vague {
            if found.participants_about.is_none_or(|n| m.max > n) {
                found.participants_about = Some(m.max);
            }
            i = m.end;
            continue;
        }
        let (role, cue) = head_counts::role(scan, i, m.end);
        scan.consume(cue);
        // "60 participants + 6 intervenants": the "+" may open the second.
        let plus = scan.tokens.get(m.start).is_some_and(|t| t.text == "+");
        if let Some(p) = previous.as_ref().filter(|p| {
            (m.start == p.end + 1 || plus && m.start == p.end)
                && (p.part && m.part || p.unit && m.unit)
        }) {
            let joiner = scan.tokens.get(p.end).map(|t| t.text.as_str());
            let adds = match joiner {
                Some("et" | ",") => p.part && m.part,
                Some("+") => true,
                _ => false,
            };
            if adds {
                m.max = m.max.saturating_add(p.max);
            }
        }
        counts.push(Count {
            max: m.max,
            min: m.min,
            role,
            written: head_counts::as_written(scan, i..m.end),
        });
        i = m.end;
        previous = Some(m);
    }
    let attending = counts.iter().any(|c| c.role == Role::Attending);
    let best = counts
        .iter()
        .filter(|c| !attending || c.role == Role::Attending)
        .max_by_key(|c| c.max);
    if let Some(best) = best {
        // A range filters on its lower bound; its top only informs the fit.
        match best.min {
            Some(min) => {
                found.participants = Some(min);
                found.participants_max = Some(best.max);
            }
            None => found.participants = Some(best.max),
        }
        let left_out: Vec<String> = counts
            .iter()
            .filter(|c| attending && c.role != Role::Attending && c.max != best.max)
            .map(|c| format!("« {} », {}", c.written, c.role.why()))
            .collect();
        if !left_out.is_empty() {
            notes.push(format!(
                "jauge : {} (le nombre de participants) ; non retenu : {}",
                best.max,
                left_out.join(", ")
            ));
        }
    }
}

/// Parts of a programme a group sits in ("80 en plénière").
#[rustfmt::skip]
const SESSIONS: &[&str] = &[
    "pleniere", "atelier", "ateliers", "sous commission", "sous commissions", "commission",
    "sous groupe", "sous groupes", "breakout", "conference", "seance", "session", "salle",
    "cocktail", "diner", "dejeuner", "repas", "soiree",
];

/// True when "en" and a part of the programme follow `p`: "80 en
/// plénière puis 40 en atelier" counts people.
fn in_session(scan: &Scan, p: usize) -> bool {
    scan.is(p, "en") && scan.longest(p + 1, SESSIONS).is_some()
}

/// True when the noun at `p` counts part of a group ("adultes", "enfants").
fn is_part(scan: &Scan, p: usize) -> bool {
    scan.is_any(p, &["adulte", "adultes", "enfant", "enfants"])
}

/// Tokens a people noun takes at `p` ("personnes", "pers.", but not
/// "places de parking").
fn unit_at(scan: &Scan, p: usize) -> Option<usize> {
    // "120 d'entre eux participeront", "90 of them".
    for among in [
        "d entre eux",
        "d entre elles",
        "of them",
        "of us",
        "ont confirme",
        "ont repondu",
        "confirmes",
    ] {
        if let Some(n) = scan.phrase(p, among) {
            return Some(n);
        }
    }
    let word = scan.word(p)?;
    if !is_people_unit(word) || word == "places" && scan.is_any(p + 1, &["de", "d"]) {
        return None;
    }
    let dot = word == "pers" && scan.is(p + 1, ".") && scan.glued(p + 1);
    let mut taken = 1 + usize::from(dot);
    // "100 personnes max", "80 personnes environ".
    if let Some((_, n)) = scan.longest(
        p + taken,
        &[
            "max", "maximum", "maxi", "environ", "minimum", "au total", "en tout",
        ],
    ) {
        taken += n;
    }
    Some(taken)
}

/// True when the token at `p` is a minus sign glued to what follows and
/// not to what precedes ("-20 personnes"), unlike the dash of a range
/// ("80-120", "80 - 120").
fn minus_sign(scan: &Scan, p: usize) -> bool {
    scan.is_any(p, &["-", "−", "–"]) && scan.glued(p + 1) && (p == 0 || !scan.glued(p))
}

fn mention_at(scan: &Scan, i: usize) -> Option<Mention> {
    // Where the mention starts (context and qualifiers included), and
    // whether a context word makes a bare number a head count.
    let lead = |at: usize| {
        let q = scan.longest_before(at, QUALIFIERS);
        let c = scan.longest_before(at - q, CONTEXTS);
        if q > 0 && c > 0 {
            return (at - q - c, true);
        }
        let direct = scan.longest_before(at, CONTEXTS);
        if direct > 0 {
            return (at - direct, true);
        }
        let alone = scan.longest_before(at, ALONE_QUALIFIERS);
        if alone > 0 {
            return (at - alone, true);
        }
        (at - q, false)
    };
    if let Some(tables) = tables::at(scan, i) {
        return Some(Mention {
            start: lead(i).0,
            end: tables.end + unit_at(scan, tables.end).unwrap_or(0),
            max: tables.people,
            keep: tables.keep,
            ..Mention::default()
        });
    }
    if let Some((value, n)) = numbers::approximate(scan, i) {
        let mut end = i + n;
        if scan.is_any(end, &["de", "d"]) {
            // "une centaine de personnes", never "une quinzaine de jours".
            end += 1 + unit_at(scan, end + 1)?;
        } else if let Some(u) = unit_at(scan, end) {
            end += u;
        }
        // "moins d'une centaine", "plus d'une trentaine".
        let (start, _) = lead(i);
        return Some(Mention {
            start,
            end,
            max: value,
            vague: true,
            ..Mention::default()
        });
    }
    let negative = i > 0 && minus_sign(scan, i - 1);
    let in_words = numbers::digits(scan, i).is_none();
    // "entre 80 et 120" is a range of people by itself.
    let between = i > 0 && scan.is(i - 1, "entre");
    let (first, taken) =
        numbers::digits(scan, i).or_else(|| numbers::words(scan, i).filter(|&(v, _)| v >= 2))?;
    let mut end = i + taken;
    let (mut max, mut min) = (first, None);
    // "80 à 120", "80-120", "entre 80 et 120".
    if let Some((_, sep)) = scan.longest(end, &["a", "-", "/", "ou", "et", "au"]) {
        if let Some((second, t)) = numbers::cardinal(scan, end + sep).filter(|&(v, _)| v > first) {
            let range_end = end + sep + t;
            if unit_at(scan, range_end).is_some()
                || (lead(i).1 || between) && follows(scan, range_end)
            {
                (max, min, end) = (second, Some(first), range_end);
            }
        }
    }
    if let Some(u) = unit_at(scan, end) {
        let part = is_part(scan, end);
        return (max > 0).then_some(Mention {
            start: if negative { i - 1 } else { lead(i).0 },
            end: end + u,
            max,
            min,
            part,
            unit: true,
            negative,
            ..Mention::default()
        });
    }
    // Numbers in words need their noun ("cinquante personnes"), and "pour
    // 2 et 3 juin" is a pair of dates, not a head count.
    let pair = !minus_sign(scan, end)
        && scan
            .longest(end, &["a", "-", "/", "ou", "et", "au"])
            .is_some_and(|(_, sep)| numbers::digits(scan, end + sep).is_some());
    if in_words || pair {
        return None;
    }
    let (start, has_context) = lead(i);
    // "… et 120 en dîner assis", "80 debout": a number that takes a layout
    // is a head count.
    let layout_next = configurations::follows_layout(scan, end) || in_session(scan, end);
    let year = taken == 1 && scan.digit_count(i) == Some(4) && (1900..=2100).contains(&first);
    let has_context = has_context || between && min.is_some();
    let counted = (has_context && follows(scan, end) || layout_next) && !year && max > 0;
    counted.then_some(Mention {
        start: if negative { i - 1 } else { start },
        end,
        max,
        min,
        negative,
        ..Mention::default()
    })
}
