//! What the organizer means to spend: "budget 20 k€", "enveloppe de 15 000 €
//! HT" (the whole event), "60 €/pers", "80 € par personne", "45€ pp" (per
//! person). A soft criterion: the ranking compares it with venue prices,
//! nothing is excluded. Read before head counts so "80 €/pers" is never
//! eighty people.

use super::numbers;
use super::people::is_people_unit;
use super::scan::Scan;
use super::{Budget, Criteria};

/// Words that announce an amount of money even without a currency
/// ("budget 20k", "enveloppe : 15 000").
const ANNOUNCE: &[&str] = &["budget", "budgets", "enveloppe", "prix", "tarif", "cout"];

/// Words allowed between an announcing word and its amount ("budget
/// global d'environ", "enveloppe max :").
#[rustfmt::skip]
const BETWEEN: &[&str] = &[
    "global", "globale", "total", "totale", "max", "maximum", "maxi", "maximal", "indicatif",
    "indicative", "previsionnel", "estime", "approximatif", "de", "d", "du", "l", "ordre", ":",
    "environ", "env", "~", "jusqu", "a", "autour", "pres", "plafond", "plafonne", "par",
    "personne", "pers", ".", "moyen", "client", "est", "serait", "sera", "ht", "ttc", "entre",
];

/// Qualifiers right before an amount, taken with it ("environ 80 €").
#[rustfmt::skip]
const QUALIFIERS: &[&str] = &[
    "environ", "env", "env .", "~", "max", "maximum", "maxi", "jusqu a", "jusqu", "pas plus de",
    "moins de", "autour de", "de l ordre de", "a peu pres", "approximativement", "entre",
    "au maximum", "au plus",
];

/// Currencies after an amount.
const CURRENCIES: &[&str] = &["€", "euro", "euros", "eur", "balles"];

/// Thousands multipliers after an amount ("20 k€", "20k", "20 keur").
const THOUSANDS: &[&str] = &["k", "ke", "keur", "mille"];

/// Words after "par" or "/" that mean "per person".
#[rustfmt::skip]
const PER_WHOM: &[&str] = &["p", "pp", "tete", "head", "personne", "pers", "pax", "person"];

/// Taxes and inclusions said after an amount, taken with it.
#[rustfmt::skip]
const TAIL: &[&str] = &[
    "ht", "ttc", "hors taxes", "hors taxe", "toutes taxes comprises", "tout compris", "tt compris",
    "net", "nets", "hors boissons", "boissons comprises", "boissons incluses", "hors location",
    "location comprise", "traiteur compris", "hors traiteur", "max", "maximum", "environ",
];

/// An amount of money said in the text.
struct Money {
    start: usize,
    end: usize,
    euros: u32,
    per_person: bool,
}

/// Takes every amount of money; the largest total and the largest per
/// person figure are kept.
pub fn extract(scan: &mut Scan, found: &mut Criteria) {
    let mut budget = Budget::default();
    let mut i = 0;
    while i < scan.len() {
        let Some(money) = money_at(scan, i) else {
            i += 1;
            continue;
        };
        scan.consume(money.start..money.end);
        let slot = if money.per_person {
            &mut budget.per_person_eur
        } else {
            &mut budget.total_eur
        };
        if slot.is_none_or(|v| money.euros > v) {
            *slot = Some(money.euros);
        }
        i = money.end;
    }
    if budget != Budget::default() {
        found.budget = Some(budget);
    }
}

/// The per person figure from a total and the head count, once the head
/// count is known: "20 k€ pour 100 personnes" → 200. The top of a range
/// divides, so the budget holds if everybody comes.
pub fn complete(found: &mut Criteria) {
    let heads = found
        .participants_max
        .or(found.participants)
        .or(found.participants_about)
        .filter(|&n| n > 0);
    if let (Some(budget), Some(heads)) = (found.budget.as_mut(), heads) {
        if let (Some(total), None) = (budget.total_eur, budget.per_person_eur) {
            budget.per_person_eur = Some(total.saturating_add(heads / 2) / heads);
        }
    }
}

/// An amount of money starting at `i` (its number), with what announces
/// and follows it.
fn money_at(scan: &Scan, i: usize) -> Option<Money> {
    // A negative number is no budget, and "80-120" reads from its start.
    if i > 0 && scan.glued(i) && scan.tokens.get(i - 1).is_some_and(|t| t.text == "-") {
        return None;
    }
    let (mut value, mut end) = amount_at(scan, i)?;
    let mut currency = false;
    let mut thousands = false;
    // "50 à 70 €/pers", "entre 15 et 20 k€": the top of a range is what
    // the organizer can spend.
    if unit_at(scan, end).is_none() {
        if let Some((_, sep)) = scan.longest(end, &["a", "-", "et", "ou", "au"]) {
            if let Some((top, after)) = amount_at(scan, end + sep) {
                if top > value && unit_at(scan, after).is_some() {
                    (value, end) = (top, after);
                }
            }
        }
    }
    // "k", "€", "k€", "keur", "€ HT".
    while let Some(unit) = unit_at(scan, end) {
        if unit.thousands && (thousands || currency) || unit.currency && currency {
            break;
        }
        thousands |= unit.thousands;
        currency |= unit.currency;
        end += 1;
    }
    if thousands {
        value *= 1000.0;
    }
    let (said_per_person, after) = per_person_at(scan, end);
    end = after;
    let announced = announced_before(scan, i);
    let per_person = said_per_person || announced.is_some_and(|(_, per)| per);
    if !currency && !thousands && !per_person && announced.is_none() {
        return None;
    }
    // Without a currency, an announced bare number must stand alone:
    // "budget 2 jours" is no amount.
    if !currency && !thousands && !per_person && !scan.is_boundary(end) {
        return None;
    }
    let euros = value.round();
    if !(1.0..=f64::from(u32::MAX)).contains(&euros) {
        return None;
    }
    let start = announced.map_or_else(|| i - scan.longest_before(i, QUALIFIERS), |(k, _)| k);
    Some(Money {
        start,
        end,
        euros: euros as u32,
        per_person,
    })
}

/// A number at `i` in digits, with thousands groups or a decimal comma
/// ("15 000", "1,5"): (value, index after it).
fn amount_at(scan: &Scan, i: usize) -> Option<(f64, usize)> {
    let (whole, taken) = numbers::digits(scan, i)?;
    if taken == 1 {
        let (value, taken) = numbers::decimal(scan, i)?;
        return Some((value, i + taken));
    }
    Some((f64::from(whole), i + taken))
}

/// What a word after an amount says about it.
struct Unit {
    currency: bool,
    thousands: bool,
}

/// A currency or a thousands multiplier at `i` ("€", "k", "keur").
fn unit_at(scan: &Scan, i: usize) -> Option<Unit> {
    let word = scan.word(i)?;
    let unit = Unit {
        currency: CURRENCIES.contains(&word) || matches!(word, "keur" | "ke"),
        thousands: THOUSANDS.contains(&word),
    };
    (unit.currency || unit.thousands).then_some(unit)
}

/// After an amount: "/pers.", "par personne", "pp", "p.p.", taxes.
/// Returns whether it is per person and the index after what was taken.
fn per_person_at(scan: &Scan, mut end: usize) -> (bool, usize) {
    end += tail_at(scan, end);
    let mut per_person = false;
    if scan.is(end, "pp") {
        per_person = true;
        end += 1;
    } else if scan.is(end, "p") && scan.is(end + 1, ".") && scan.is(end + 2, "p") {
        per_person = true;
        end += 3 + usize::from(scan.is(end + 3, "."));
    } else if let Some((_, n)) = scan.longest(end, &["/", "par", "per", "a la", "la"]) {
        let whom = end + n;
        if scan.is_any(whom, PER_WHOM) || scan.word(whom).is_some_and(is_people_unit) {
            per_person = true;
            end = whom + 1;
            // "pers." takes its dot.
            if scan.is(end, ".") && scan.glued(end) {
                end += 1;
            }
        }
    }
    if per_person {
        end += tail_at(scan, end);
    }
    (per_person, end)
}

/// Tokens taken by "HT", "TTC", "tout compris"… at `i` (0 when none).
fn tail_at(scan: &Scan, i: usize) -> usize {
    scan.longest(i, TAIL).map_or(0, |(_, n)| n)
}

/// Where the word announcing an amount at `i` starts ("budget", "budget
/// global d'environ"), and whether it says "per person" ("budget par
/// personne : 80").
fn announced_before(scan: &Scan, i: usize) -> Option<(usize, bool)> {
    let mut k = i;
    let mut per_person = false;
    for _ in 0..6 {
        k = k.checked_sub(1)?;
        let word = scan.word(k)?;
        if ANNOUNCE.contains(&word) {
            return Some((k, per_person));
        }
        if !BETWEEN.contains(&word) {
            return None;
        }
        per_person |= matches!(word, "personne" | "pers");
    }
    None
}
