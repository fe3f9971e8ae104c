//! The scaffolding of a forwarded e-mail: headers ("De : …", "Envoyé :
//! …", "Objet : …"), forward markers ("---------- Message transféré"),
//! "Le 3 mars, Marie a écrit :", greetings ("Bonjour Marie,") and
//! signatures ("Cordialement,\nMarie Dupont\n06 12 34 56 78"). None of it
//! describes the event, and its dates and numbers are nobody's criteria.
//! Only what clearly is scaffolding is taken: a line is a header only when
//! it starts with a header name and a colon, a signature only when it
//! closes the message (or what precedes a forwarded one).

use super::people::is_people_unit;
use super::scan::Scan;
use super::tokens::Kind;
use std::ops::Range;

/// Header names, folded, before a colon.
#[rustfmt::skip]
const HEADERS: &[&str] = &[
    "de", "a", "cc", "cci", "bcc", "envoye", "envoye le", "date", "from", "to", "sent",
    "repondre a", "reply to", "expediteur", "destinataire", "destinataires", "importance",
];

/// Headers whose value may hold criteria: read, then not described.
const SUBJECTS: &[&str] = &["objet", "sujet", "subject"];

/// Prefixes of a forwarded or answered subject ("RE :", "TR:", "Fwd:").
const SUBJECT_PREFIXES: &[&str] = &["re", "tr", "fw", "fwd", "trans"];

/// Lines that announce a forwarded or quoted message.
#[rustfmt::skip]
const MARKERS: &[&str] = &[
    "message d origine", "forwarded message", "message transfere", "original message",
    "debut du message reexpedie", "message reexpedie", "envoye de mon", "sent from my",
];

/// Greetings at the start of a message.
#[rustfmt::skip]
const GREETINGS: &[&str] = &[
    "bonjour", "bonsoir", "hello", "salut", "coucou", "hi", "cher", "chere", "chers", "cheres",
    "madame", "monsieur", "madame monsieur", "dear", "rebonjour", "re bonjour",
];

/// Closing formulas that only ever close: a signature of a few lines
/// (name, title, company, phone) may follow.
#[rustfmt::skip]
const CLOSINGS: &[&str] = &[
    "cordialement", "bien cordialement", "tres cordialement", "bien a vous", "bien a toi",
    "sinceres salutations", "salutations", "amicalement", "bises", "best regards", "regards",
    "kind regards", "cdlt", "bav", "salutations distinguees", "avec mes remerciements",
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
const SIGNATURE: (usize, usize) = (6, 12);
const AFTER_WEAK: (usize, usize) = (4, 10);
/// After a weak closing, the first line must be a name.
const NAME_TOKENS: usize = 4;

/// Takes the scaffolding; returns the token ranges of subject values, to
/// be taken once the criteria they hold were read.
pub fn extract(scan: &mut Scan) -> Vec<Range<usize>> {
    let lines = lines(scan);
    let mut subjects = Vec::new();
    let mut k = 0;
    while let Some(line) = lines.get(k).cloned() {
        k += 1;
        if line.is_empty() {
            continue;
        }
        // "> " quoting: the quoted words stay, the marks go.
        let mut a = line.start;
        while a < line.end && scan.is(a, ">") {
            scan.consume(a..a + 1);
            a += 1;
        }
        let line = a..line.end;
        if let Some(value) = subject_value(scan, &line) {
            scan.consume(line.start..value.start);
            subjects.push(value);
        } else if is_marker(scan, &line) {
            scan.consume(line);
        } else if let Some(end) = greeting(scan, &line) {
            scan.consume(line.start..end);
        } else if let Some(n) = signature(scan, &lines, k - 1, line.start) {
            for taken in lines.iter().skip(k - 1).take(n) {
                scan.consume(taken.clone());
            }
            k += n - 1;
        }
    }
    subjects
}

/// Token ranges of each line of the text, empty lines included.
fn lines(scan: &Scan) -> Vec<Range<usize>> {
    let mut lines = Vec::new();
    let mut token = 0;
    let mut offset = 0;
    for text in scan.text.split_inclusive('\n') {
        let end = offset + text.len();
        let first = token;
        while scan.tokens.get(token).is_some_and(|t| t.start < end) {
            token += 1;
        }
        lines.push(first..token);
        offset = end;
    }
    lines
}

/// A header line ("De : Marie <m@acme.fr>", "Envoyé : lundi 3 mars"):
/// wholly scaffolding.
fn is_header(scan: &Scan, line: &Range<usize>) -> bool {
    scan.longest(line.start, HEADERS)
        .is_some_and(|(_, n)| scan.is(line.start + n, ":"))
}

/// "Objet : Séminaire 80 pers." → the tokens of "Séminaire 80 pers.".
fn subject_value(scan: &Scan, line: &Range<usize>) -> Option<Range<usize>> {
    let (_, n) = scan.longest(line.start, SUBJECTS)?;
    let mut value = line.start + n;
    if !scan.is(value, ":") {
        return None;
    }
    value += 1;
    while scan.is_any(value, SUBJECT_PREFIXES) && scan.is(value + 1, ":") {
        value += 2;
    }
    Some(value.min(line.end)..line.end)
}

/// True when a line says a head count ("Nous serons 80 personnes"): no
/// signature line does.
fn counts_people(scan: &Scan, line: &Range<usize>) -> bool {
    line.clone()
        .any(|i| scan.kind(i) == Some(Kind::Number) && scan.word(i + 1).is_some_and(is_people_unit))
}

/// Headers, forward markers, "… a écrit :" and rules of dashes.
fn is_marker(scan: &Scan, line: &Range<usize>) -> bool {
    if is_header(scan, line) {
        return true;
    }
    let words: Vec<&str> = line
        .clone()
        .filter_map(|i| scan.tokens.get(i).map(|t| t.text.as_str()))
        .collect();
    let folded = words.join(" ");
    let rule = words
        .iter()
        .all(|w| matches!(*w, "-" | "_" | "=" | "*" | "–" | "—"))
        && words.len() >= 3;
    let wrote =
        folded.ends_with("a ecrit :") || folded.ends_with("a ecrit") || folded.ends_with("wrote :");
    rule || wrote || MARKERS.iter().any(|m| folded.contains(m))
}

/// "Bonjour Marie," or "Madame, Monsieur,": the end of the greeting, the
/// name and its comma included; `None` when the line does not greet.
fn greeting(scan: &Scan, line: &Range<usize>) -> Option<usize> {
    let (_, n) = scan.longest(line.start, GREETINGS)?;
    let mut end = line.start + n;
    // A name of one to three words closed by a comma ("Bonjour Marie-Hélène,"):
    // case is no clue, the same text in capitals must read the same.
    let mut name = end;
    while name < line.end && name - end < 3 && scan.kind(name) == Some(Kind::Word) {
        name += 1;
    }
    if scan.is_any(name, &[",", "!"]) {
        end = name;
    }
    if scan.is_any(end, &[",", "!", "."]) {
        end += 1;
    }
    // "Madame, Monsieur,".
    if let Some((_, m)) = scan.longest(end, GREETINGS) {
        end += m + usize::from(scan.is_any(end + m, &[",", "."]));
    }
    Some(end)
}

/// At line `k`, a closing formula ("Cordialement, Marie") followed by at
/// most a few short lines up to the end or a forwarded message: how many
/// lines the signature takes.
/// `start` skips the quoting marks of the line.
fn signature(scan: &Scan, lines: &[Range<usize>], k: usize, start: usize) -> Option<usize> {
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
    for next in lines.iter().skip(k + 1) {
        if is_marker(scan, next) {
            break;
        }
        taken += 1;
        if next.is_empty() {
            continue;
        }
        written += 1;
        let not_a_name = strong.is_none() && written == 1 && next.len() > NAME_TOKENS;
        if written > most_lines
            || next.len() > most_tokens
            || not_a_name
            || counts_people(scan, next)
        {
            return None;
        }
    }
    Some(taken)
}
