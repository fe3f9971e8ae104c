//! Contact details: phone numbers (« 06 12 34 56 78 », « +33 1 44 55 66
//! 77 », « 01.44.55.66.77 »), e-mail and web addresses, postal addresses
//! (« 8 avenue de Paris, 94300 Vincennes »). Their numbers are nobody's
//! head count or postcode to search, and they describe no venue: they are
//! taken wherever they are, and a line made of them belongs to a signature.

use super::scan::Scan;
use super::tokens::Kind;
use std::ops::Range;

/// Words that announce a phone number.
#[rustfmt::skip]
const PHONE_WORDS: &[&str] = &[
    "tel", "telephone", "mob", "mobile", "portable", "port", "fixe", "phone", "standard", "ligne",
    "direct", "directe", "fax", "cell", "gsm",
];

/// Top-level domains a web or e-mail address ends with.
#[rustfmt::skip]
const DOMAINS: &[&str] = &[
    "fr", "com", "net", "org", "eu", "io", "paris", "co", "uk", "be", "ch", "info", "biz", "events",
];

/// Street words of a postal address.
#[rustfmt::skip]
const STREETS: &[&str] = &[
    "rue", "avenue", "av", "bd", "boulevard", "place", "quai", "allee", "chemin", "impasse",
    "cours", "route", "square", "passage", "villa", "cedex", "bp", "cs",
];

/// Takes every phone number, e-mail and web address of the text.
pub fn extract(scan: &mut Scan) {
    let mut i = 0;
    while i < scan.len() {
        match contact_at(scan, i) {
            Some(end) => {
                scan.consume(i..end);
                i = end;
            }
            None => i += 1,
        }
    }
}

/// A phone number, an e-mail or a web address starting at `i`: where it ends.
fn contact_at(scan: &Scan, i: usize) -> Option<usize> {
    phone_at(scan, i).or_else(|| address_at(scan, i))
}

/// « 06 12 34 56 78 », « 01.44.55.66.77 », « +33 (0)1 44 55 66 77 »,
/// « 0612345678 ».
fn phone_at(scan: &Scan, i: usize) -> Option<usize> {
    let mut k = i;
    if scan.is(k, "+") {
        k += 1;
    }
    let first = scan.tokens.get(k).filter(|t| t.kind == Kind::Number)?;
    if first.text.len() == 10 && first.text.starts_with('0') {
        return Some(k + 1);
    }
    // Groups of one to three digits, joined by spaces, dots or dashes.
    let mut groups = 0;
    let mut end = k;
    while let Some(t) = scan.tokens.get(end) {
        match t.kind {
            Kind::Number if t.text.len() <= 3 => {
                groups += 1;
                end += 1;
            }
            Kind::Symbol if matches!(t.text.as_str(), "." | "-" | "(" | ")") && groups > 0 => {
                end += 1
            }
            _ => break,
        }
    }
    // Trailing separators are not part of the number.
    while end > k
        && scan
            .tokens
            .get(end - 1)
            .is_some_and(|t| t.kind == Kind::Symbol)
    {
        end -= 1;
    }
    (groups >= 5 || groups >= 4 && scan.is(i, "+")).then_some(end)
}

/// « marie@acme.fr », « www.acme.fr », « https://acme.fr/contact »:
/// word and symbol tokens glued together, with an « @ », a « www » or a
/// domain at the end.
fn address_at(scan: &Scan, i: usize) -> Option<usize> {
    let start = scan.tokens.get(i)?;
    if start.kind == Kind::Symbol {
        return None;
    }
    let mut end = i + 1;
    while scan
        .tokens
        .get(end)
        .is_some_and(|t| t.glued && !matches!(t.text.as_str(), "," | ";" | ")" | ">" | "]"))
    {
        end += 1;
    }
    let words: Vec<&str> = (i..end)
        .filter_map(|k| scan.tokens.get(k).map(|t| t.text.as_str()))
        .collect();
    let at_sign = words.contains(&"@");
    let web = words
        .first()
        .is_some_and(|w| matches!(*w, "www" | "http" | "https"));
    let domain = words
        .windows(2)
        .any(|w| w.first() == Some(&".") && w.get(1).is_some_and(|d| DOMAINS.contains(d)));
    // A trailing dot ends the sentence, not the address.
    while end > i + 1 && scan.tokens.get(end - 1).is_some_and(|t| t.text == ".") {
        end -= 1;
    }
    (at_sign && domain || web && words.len() > 2).then_some(end)
}

/// True when the line is contact details: a phone, an e-mail or web
/// address, or a postal address (« 8 avenue de Paris, 94300 Vincennes »,
/// « 94300 Vincennes »).
pub fn is_contact_line(scan: &Scan, line: &Range<usize>) -> bool {
    let raw = |k: usize| scan.tokens.get(k).map(|t| t.text.as_str());
    let has_phone = line.clone().any(|k| phone_at(scan, k).is_some())
        || raw(line.start).is_some_and(|w| PHONE_WORDS.contains(&w));
    let has_address = line.clone().any(|k| address_at(scan, k).is_some());
    let postcode_town = line.clone().any(|k| {
        scan.tokens
            .get(k)
            .is_some_and(|t| t.kind == Kind::Number && t.text.len() == 5)
            && scan.tokens.get(k + 1).is_some_and(|t| t.kind == Kind::Word)
    });
    let street = line
        .clone()
        .any(|k| raw(k).is_some_and(|w| STREETS.contains(&w)))
        && line
            .clone()
            .any(|k| scan.tokens.get(k).is_some_and(|t| t.kind == Kind::Number));
    has_phone || has_address || postcode_town || street
}
