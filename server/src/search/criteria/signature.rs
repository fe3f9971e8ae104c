//! The end of a message that is about its sender, not the event: a
//! closing formula and what follows it (« Cordialement,\nMarie Dupont\nChef
//! de projet – ACME\n8 avenue de Paris, 94300 Vincennes\n06 12 34 56 78 »),
//! a block of contact lines with no closing formula, everything after a
//! « -- » line, and legal disclaimers (« Ce message et ses pièces jointes
//! sont confidentiels… »).

use super::contacts::is_contact_line;
use super::people::is_people_unit;
use super::scan::Scan;
use super::tokens::Kind;
use std::ops::Range;

/// Closing formulas that only ever close: a signature of a few lines
/// (name, title, company, phone) may follow.
#[rustfmt::skip]
const CLOSINGS: &[&str] = &[
    "cordialement", "bien cordialement", "tres cordialement", "bien a vous", "bien a toi",
    "sinceres salutations", "salutations", "amicalement", "bises", "best regards", "regards",
    "kind regards", "warm regards", "best wishes", "cheers", "many thanks", "cdlt", "bav",
    "salutations distinguees", "avec mes remerciements",
    "avec nos remerciements", "en vous remerciant", "en vous remerciant par avance",
    // Wishes close too; a line that counts people still stops a signature.
    "belle journee", "bonne journee", "bonne soiree", "belle soiree", "belle fin de journee",
    "belle semaine", "bonne semaine", "au plaisir", "a bientot", "a tres vite",
];

/// Closings that may also start a sentence ("Merci\nNous serons 80"):
/// only a name may follow them.
#[rustfmt::skip]
const WEAK_CLOSINGS: &[&str] = &[
    "merci d avance", "merci par avance", "d avance merci", "merci", "merci beaucoup",
    "merci encore", "best", "thanks",
];

/// Most lines a signature runs after its closing formula, and tokens on
/// each ("Chef de projet événementiel – ACME"); after a weak closing, a
/// name only.
const SIGNATURE: (usize, usize) = (10, 12);
const AFTER_WEAK: (usize, usize) = (4, 10);
/// After a weak closing, the first line must be a name.
const NAME_TOKENS: usize = 5;

/// Phrases of a legal or environmental disclaimer (folded).
#[rustfmt::skip]
const DISCLAIMERS: &[&str] = &[
    "ce message et", "ce courriel et", "ce mail et", "ce message est confidentiel",
    "ce message ainsi que", "ce courriel ainsi que", "les informations contenues",
    "si vous n etes pas le destinataire", "si vous avez recu ce message par erreur",
    "pensez a l environnement", "avant d imprimer", "merci de penser a l environnement",
    "this email and any", "this e mail and any", "this message and any",
    "this message is confidential", "if you are not the intended", "the information contained",
    "please consider the environment", "think before you print", "confidentialite",
    "disclaimer", "avis de confidentialite", "ce message electronique",
];

/// A line that opens a signature on its own: « -- ».
fn is_delimiter(scan: &Scan, line: &Range<usize>) -> bool {
    let raw: Vec<&str> = line.clone().filter_map(|k| scan.raw(k)).collect();
    matches!(raw.as_slice(), ["-", "-"] | ["-", "-", "-"] | ["—"] | ["–"])
}

/// True when the line starts a disclaimer.
pub fn is_disclaimer(scan: &Scan, line: &Range<usize>) -> bool {
    let folded: Vec<&str> = line
        .clone()
        .filter_map(|k| scan.tokens.get(k).map(|t| t.text.as_str()))
        .collect();
    let folded = folded.join(" ");
    DISCLAIMERS.iter().any(|d| folded.contains(d))
}

/// True when a line says a head count ("Nous serons 80 personnes"): no
/// signature line does.
fn counts_people(scan: &Scan, line: &Range<usize>) -> bool {
    line.clone()
        .any(|i| scan.kind(i) == Some(Kind::Number) && scan.word(i + 1).is_some_and(is_people_unit))
}

/// A line of a signature: contact details, or a short line (a name, a
/// title, a company) that counts no people.
fn is_signature_line(scan: &Scan, line: &Range<usize>, most_tokens: usize) -> bool {
    // « 3 place du Marché » is an address, not three people.
    is_contact_line(scan, line) || line.len() <= most_tokens && !counts_people(scan, line)
}

/// Most lines a signature with no closing formula runs, and the tokens of
/// each line that is not contact details.
const BARE_SIGNATURE: (usize, usize) = (8, 10);

/// At line `k`, where a signature starts, how many lines it takes: a
/// closing formula and a few short lines, a « -- » line and what follows,
/// or a block of contact lines ending the message. `end` is the first line
/// after the message (a quoted or forwarded one, or the end).
pub fn at(
    scan: &Scan,
    lines: &[Range<usize>],
    k: usize,
    start: usize,
    end: usize,
) -> Option<usize> {
    let line = lines.get(k)?;
    if is_delimiter(scan, line) {
        return Some(end - k);
    }
    closing(scan, lines, k, start, end).or_else(|| bare(scan, lines, k, end))
}

/// « Cordialement, Marie » and the lines after it.
fn closing(
    scan: &Scan,
    lines: &[Range<usize>],
    k: usize,
    start: usize,
    end: usize,
) -> Option<usize> {
    let line = start..lines.get(k)?.end;
    let strong = scan.longest(line.start, CLOSINGS);
    let (most_lines, most_tokens) = if strong.is_some() {
        SIGNATURE
    } else {
        AFTER_WEAK
    };
    let (_, n) = strong.or_else(|| scan.longest(line.start, WEAK_CLOSINGS))?;
    // The formula, its punctuation and a name: "Merci, Marie" closes, "Merci
    // de me proposer trois lieux" asks.
    let rest = (line.start + n..line.end)
        .filter(|&i| !scan.is_any(i, &[",", "!", ".", "-"]))
        .count();
    if rest > 3 {
        return None;
    }
    let mut taken = 1;
    let mut written = 0;
    for next in lines.iter().take(end).skip(k + 1) {
        // A second signature starts: this one ends here ("Merci d'avance,
        // Romain" above "Cordialement, Stéphanie Roux…").
        if is_delimiter(scan, next) || closes(scan, next) {
            break;
        }
        // One paragraph after the formula: what follows an empty line is
        // read on its own (a second signature, a disclaimer, the message).
        if next.is_empty() && written > 0 {
            break;
        }
        taken += 1;
        if next.is_empty() {
            continue;
        }
        if is_disclaimer(scan, next) {
            return Some(end - k);
        }
        written += 1;
        let not_a_name = strong.is_none() && written == 1 && next.len() > NAME_TOKENS;
        if written > most_lines || not_a_name || !is_signature_line(scan, next, most_tokens) {
            return None;
        }
    }
    Some(taken)
}

/// True when the line is a closing formula, perhaps with a name
/// ("Merci, Thomas"), not a sentence that starts like one.
fn closes(scan: &Scan, line: &Range<usize>) -> bool {
    let formula = scan
        .longest(line.start, CLOSINGS)
        .or_else(|| scan.longest(line.start, WEAK_CLOSINGS));
    formula.is_some_and(|(_, n)| {
        (line.start + n..line.end)
            .filter(|&i| !scan.is_any(i, &[",", "!", ".", "-"]))
            .count()
            <= 3
    })
}

/// A block of short lines ending the message, with contact details among
/// them and nothing else after: a signature with no closing formula
/// (« Stéphanie Roux\nResponsable événementiel\n06 12 34 56 78 »).
fn bare(scan: &Scan, lines: &[Range<usize>], k: usize, end: usize) -> Option<usize> {
    // The block follows the message after an empty line: a message that
    // is all block is a request, however terse ("75005 et 75006").
    if k == 0 || !lines.get(k - 1).is_some_and(Range::is_empty) {
        return None;
    }
    let (most_lines, most_tokens) = BARE_SIGNATURE;
    let mut written = 0;
    let mut contact = false;
    // One paragraph, up to the end or to a second signature; a
    // disclaimer below is the message's own part.
    let mut taken = end - k;
    for (n, next) in lines.iter().enumerate().take(end).skip(k) {
        if next.is_empty() {
            taken = n - k;
            break;
        }
        if is_disclaimer(scan, next) {
            break;
        }
        if n > k && (is_delimiter(scan, next) || closes(scan, next)) {
            taken = n - k;
            break;
        }
        written += 1;
        if written > most_lines || !is_signature_line(scan, next, most_tokens) {
            return None;
        }
        contact |= is_contact_line(scan, next);
    }
    // The first line is a name, not a sentence.
    let first = lines.get(k)?;
    let named = first.len() <= NAME_TOKENS
        && !first.clone().any(|i| {
            scan.tokens
                .get(i)
                .is_some_and(|t| t.text == "?" || t.text == ".")
        });
    (contact && named && written > 0).then_some(taken)
}
