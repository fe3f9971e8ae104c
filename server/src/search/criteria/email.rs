//! A pasted e-mail cut into its parts, of which only the body (and the
//! subject) is read: headers ("De : …", "Envoyé : …", "Objet : …"),
//! forward markers ("---------- Message transféré"), greetings ("Bonjour
//! Marie,"), the signature and disclaimers (`signature`), and the thread
//! quoted under an answer ("Le 3 mars, Marie a écrit :", "> …", an Outlook
//! header block). None of it describes the event, and its dates, counts
//! and places are nobody's criteria. A forwarded message is the request,
//! and is read. Only what clearly is scaffolding is taken: a line is a
//! header only when it starts with a header name and a colon, a signature
//! only when it closes the message (or what precedes a forwarded one).

use super::scan::Scan;
use super::signature;
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

/// Lines that open a message being answered, below the answer: what
/// follows is the thread, never read once the answer said something.
#[rustfmt::skip]
const REPLY_MARKERS: &[&str] = &["message d origine", "original message"];

/// Lines that open a message being passed on: what follows is the
/// request itself, read.
#[rustfmt::skip]
const FORWARD_MARKERS: &[&str] = &[
    "forwarded message", "message transfere", "debut du message reexpedie", "message reexpedie",
];

/// Words of a short note that passes a message on (« Pour info, voir la
/// demande ci-dessous »): the header block after it opens the request.
#[rustfmt::skip]
const PASSING_ON: &[&str] = &[
    "ci dessous", "ci apres", "en dessous", "pour info", "fyi", "je te transfere",
    "je vous transfere", "voir plus bas", "see below", "transfere", "demande suivante",
];

/// Takes the scaffolding; returns the token ranges of subject values, to
/// be taken once the criteria they hold were read.
///
/// The message is cut into its parts: headers, greeting, the body, the
/// signature and disclaimer, and the thread below. Only the body (and the
/// subject) is read; a forwarded message is a body too. A quoted thread
/// under an answer that says something is taken whole: its counts and
/// places are the ones being answered, not the request.
pub fn extract(scan: &mut Scan) -> Vec<Range<usize>> {
    let lines = lines(scan);
    let mut subjects = Vec::new();
    // The body read so far says something (a word or a number).
    let mut said = false;
    let mut k = 0;
    while let Some(line) = lines.get(k).cloned() {
        k += 1;
        if line.is_empty() {
            continue;
        }
        if said && opens_thread(scan, &lines, k - 1) {
            for rest in lines.iter().skip(k - 1) {
                scan.consume(rest.clone());
            }
            break;
        }
        // "> " quoting of a message with nothing above it (or passed on):
        // the quoted words are the request, the marks go.
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
            scan.consume(line.clone());
            if is_forward(scan, &line) {
                said = false;
            }
        } else if signature::is_disclaimer(scan, &line) {
            let end = paragraph_end(&lines, k - 1);
            for taken in lines.iter().take(end).skip(k - 1) {
                scan.consume(taken.clone());
            }
            k = end;
        } else if let Some(end) = greeting(scan, &line) {
            scan.consume(line.start..end);
            said |= line
                .clone()
                .skip(end - line.start)
                .any(|i| is_content(scan, i));
        } else if let Some(n) = signature::at(
            scan,
            &lines,
            k - 1,
            line.start,
            message_end(scan, &lines, k - 1),
        ) {
            for taken in lines.iter().skip(k - 1).take(n) {
                scan.consume(taken.clone());
            }
            k += n - 1;
        } else {
            said |= line.clone().any(|i| is_content(scan, i));
        }
    }
    subjects
}

/// A word, a number or an emoji nobody took yet: what an answer says.
fn is_content(scan: &Scan, i: usize) -> bool {
    match scan.kind(i) {
        Some(Kind::Word | Kind::Number) => true,
        // Emoji and pictographs (from U+2600), not punctuation or dashes.
        Some(Kind::Symbol) => scan
            .tokens
            .get(i)
            .is_some_and(|t| t.text.chars().any(|c| u32::from(c) >= 0x2600)),
        None => false,
    }
}

/// True when line `k` opens the thread under an answer: a reply marker,
/// « … a écrit : », quoted lines, or a header block that no note passing
/// the message on announced.
fn opens_thread(scan: &Scan, lines: &[Range<usize>], k: usize) -> bool {
    let Some(line) = lines.get(k) else {
        return false;
    };
    let folded = folded_line(scan, line);
    if REPLY_MARKERS.iter().any(|m| folded.contains(m)) || wrote(&folded) {
        return true;
    }
    if scan.tokens.get(line.start).is_some_and(|t| t.text == ">") {
        return !passed_on(scan, lines, k);
    }
    let header = is_header(scan, line)
        || is_rule(&folded) && lines.get(k + 1).is_some_and(|l| is_header(scan, l));
    header && !passed_on(scan, lines, k)
}

/// True when the message above line `k` passes the one below on: a
/// forward marker right above it, or a short note of the current message
/// (« Je te transfère la demande ci-dessous »). Notes of messages further
/// up, above their own headers, do not count.
fn passed_on(scan: &Scan, lines: &[Range<usize>], k: usize) -> bool {
    let above = (0..k)
        .rev()
        .find(|&n| lines.get(n).is_some_and(|l| !l.is_empty()));
    if above.is_some_and(|n| lines.get(n).is_some_and(|l| is_forward(scan, l))) {
        return true;
    }
    for n in (0..k).rev() {
        let Some(line) = lines.get(n) else { break };
        if is_marker(scan, line) {
            break;
        }
        let folded = folded_line(scan, line);
        if PASSING_ON.iter().any(|p| folded.contains(p)) {
            return true;
        }
    }
    false
}

/// True when a marker line passes a message on (« Message transféré »).
fn is_forward(scan: &Scan, line: &Range<usize>) -> bool {
    let folded = folded_line(scan, line);
    FORWARD_MARKERS.iter().any(|m| folded.contains(m))
}

/// The first line after the message that line `k` is in: the next thread
/// or forwarded message, or the end.
fn message_end(scan: &Scan, lines: &[Range<usize>], k: usize) -> usize {
    (k + 1..lines.len())
        .find(|&n| {
            lines.get(n).is_some_and(|l| {
                let folded = folded_line(scan, l);
                is_marker(scan, l)
                    || wrote(&folded)
                    || REPLY_MARKERS.iter().any(|m| folded.contains(m))
            })
        })
        .unwrap_or(lines.len())
}

/// The line after the paragraph line `k` is in (the next empty line).
fn paragraph_end(lines: &[Range<usize>], k: usize) -> usize {
    (k..lines.len())
        .find(|&n| lines.get(n).is_some_and(Range::is_empty))
        .unwrap_or(lines.len())
}

/// The raw tokens of a line, folded, joined by spaces.
fn folded_line(scan: &Scan, line: &Range<usize>) -> String {
    line.clone()
        .filter_map(|i| scan.tokens.get(i).map(|t| t.text.as_str()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// « Le 3 mars, Marie a écrit : ».
fn wrote(folded: &str) -> bool {
    folded.ends_with("a ecrit :") || folded.ends_with("a ecrit") || folded.ends_with("wrote :")
}

/// A rule of dashes or underscores.
fn is_rule(folded: &str) -> bool {
    let words: Vec<&str> = folded.split(' ').collect();
    words.len() >= 3
        && words
            .iter()
            .all(|w| matches!(*w, "-" | "_" | "=" | "*" | "–" | "—"))
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

/// Headers, forward markers, "… a écrit :" and rules of dashes.
fn is_marker(scan: &Scan, line: &Range<usize>) -> bool {
    if is_header(scan, line) {
        return true;
    }
    let folded = folded_line(scan, line);
    is_rule(&folded) || wrote(&folded) || MARKERS.iter().any(|m| folded.contains(m))
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
