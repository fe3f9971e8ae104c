//! The semantic query: the organizer's own words minus the hard criteria,
//! the request phrasing ("trouve-moi", "je cherche", "un lieu") and the
//! prepositions a removed criterion leaves dangling ("dans le", "pour").
//! "Trouve-moi un rooftop dans le 8ème pour 100 personnes festif avec vue
//! sur Paris" → "rooftop festif avec vue sur Paris".

use super::numbers;
use super::scan::Scan;
use super::tokens::Kind;
use std::ops::Range;

/// Request phrasing, removed at the start of each remaining piece.
#[rustfmt::skip]
const FILLERS: &[&str] = &[
    "bonjour", "salut", "hello", "coucou", "svp", "stp", "s il vous plait", "s il te plait",
    "merci", "trouve moi", "trouvez moi", "trouve nous", "trouvez nous", "trouver", "trouve",
    "cherche moi", "cherchez moi", "cherche", "je cherche", "on cherche", "nous cherchons",
    "je recherche", "nous recherchons", "on recherche", "recherche", "recherche de", "il me faut",
    "il nous faut", "il faudrait", "il nous faudrait", "il me faudrait", "j ai besoin", "nous avons besoin", "on a besoin", "besoin",
    "je voudrais", "nous voudrions", "on voudrait", "je souhaite", "nous souhaitons",
    "je souhaiterais", "nous souhaiterions", "j aimerais", "nous aimerions", "on aimerait",
    "propose moi", "proposez moi", "propose nous", "proposez nous", "donne moi", "donnez moi",
    "montre moi", "montrez moi", "peux tu me trouver", "pouvez vous me trouver",
    "tu peux me trouver", "tu peux trouver", "peux tu trouver", "pourrais tu me trouver",
    "pourriez vous me trouver", "pourrais tu", "pourriez vous", "peux tu", "pouvez vous",
    "est ce que tu as", "est ce qu il y a", "as tu", "avez vous", "y a t il", "quels sont les",
    "quelles sont les", "des idees de", "une idee de", "une liste de", "une selection de",
    "quelques", "plusieurs", "lieu", "lieux", "endroit", "endroits", "quel", "quelle", "quels",
    "quelles", "recherche lieu", "recherche d un lieu", "demande", "nouvelle demande", "je veux",
    "nous voulons", "on veut", "il faut", "a la recherche", "a la recherche d",
    "a la recherche de", "en recherche de", "idees", "idee", "on a", "nous avons", "j ai",
    "on aurait", "nous aurions", "nous organisons", "on organise", "j organise",
    "nous organiserons", "pour un client", "pour une cliente", "pour notre client",
    "pour notre cliente", "pour un de nos clients", "pour le compte d un client",
    "pour le compte de notre client", "nous serons", "on sera", "nous serions", "on serait",
    "ce serait", "ca serait", "l idee", "l idee serait", "please", "pls", "svp :", "stp :",
    "je vous contacte", "je me permets de vous contacter", "je reviens vers vous",
    "je vous ecris", "voici", "ci dessous", "pouvez vous nous proposer",
    "pourriez vous nous proposer", "pourrais tu nous proposer", "tu peux nous proposer",
    "merci de nous proposer", "merci de me proposer", "merci de proposer", "du coup", "alors",
    "we need", "we are looking for", "i am looking for", "looking for", "i need", "a venue",
    "venue", "venues", "hi", "thanks", "thank you", "est ce que vous auriez",
    "est ce que tu aurais", "est ce que vous avez", "est ce que tu as", "vous auriez",
    "tu aurais", "auriez vous", "aurais tu", "notre client souhaite", "mon client souhaite",
    "le client souhaite", "me proposer", "nous proposer", "me montrer", "nous montrer",
    "nous trouver", "me trouver", "je te transfere la demande de notre client ci dessous",
    "je te transfere", "je vous transfere", "la demande de notre client ci dessous",
    "on est", "nous sommes", "tu peux me ressortir", "peux tu me ressortir", "me ressortir",
    "je cherche a organiser", "nous cherchons a organiser", "organiser",
];

/// Politeness at the end of the text.
#[rustfmt::skip]
const CLOSINGS: &[&str] = &[
    "merci", "svp", "stp", "s il vous plait", "s il te plait", "merci d avance", "d avance merci",
    "merci beaucoup", "please", "pls", "pour un client", "pour une cliente", "pour notre client",
    "pour notre cliente", "merci pour votre aide", "merci de votre aide", "merci pour ton aide",
    "merci par avance", "si possible merci", "thanks", "thank you", "thx",
];

/// Articles, conjunctions and "de" (a complement of a removed noun:
/// "Cocktail | de networking"): removed at both edges of a piece. Other
/// prepositions start a phrase of their own ("| sur deux jours", "| au
/// vert") and are only removed at the end, where their object is gone.
#[rustfmt::skip]
const GLUE: &[&str] = &[
    "de", "du", "des", "d", "le", "la", "les", "l", "un", "une", "et", "ou", "soit", "ainsi que",
    "ou bien", "voire", "environ", "puis", "mais",
];

/// Prepositions left dangling at the end of a piece ("dans le | 8e").
#[rustfmt::skip]
const PREPOSITIONS: &[&str] = &[
    "a", "au", "aux", "dans", "en", "pour", "sur", "par", "chez", "entre", "vers", "avec", "sans",
];

/// Words left dangling at the end of a piece once what followed is gone
/// ("rooftop avec | vue" keeps "avec", "rooftop près | de Bastille" does not).
#[rustfmt::skip]
const DANGLING: &[&str] = &[
    "qui", "que", "dont", "mais", "pres", "proche", "autour", "a cote", "non loin",
    "pas loin", "cote", "quartier", "secteur", "jusqu", "moins", "plus", "max", "maximum",
    "minimum", "maxi", "idealement", "plutot", "si possible", "de preference", "type", "style",
    "format", "configuration",
];

/// Symbols removed at either edge of a piece.
#[rustfmt::skip]
const EDGE_SYMBOLS: &[&str] = &[
    ",", ".", ";", ":", "!", "?", "-", "–", "—", "/", "&", "+", "*", "…", "•", "|", "~", "=",
];

/// Symbols removed at the edges of a piece: brackets only on the side
/// where they close nothing.
fn is_edge_symbol(text: &str, leading: bool) -> bool {
    EDGE_SYMBOLS.contains(&text)
        || (leading && matches!(text, ")" | "]" | "»"))
        || (!leading && matches!(text, "(" | "[" | "«"))
}

/// How pieces are put back together.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Joiner {
    /// A space, or a comma where the text had punctuation or a number follows.
    Natural,
    /// Always a comma: used when spaces would glue two pieces into a new
    /// criterion ("Paris" + "12 juin").
    Commas,
    /// Always a semicolon: used when a comma would make a list of two
    /// pieces ("le 20" + "2" → "le 20, 2", two arrondissements).
    Semicolons,
}

/// Builds the semantic query from the tokens no criterion took.
pub fn query(scan: &Scan, joiner: Joiner) -> String {
    let mut out = String::new();
    let mut previous: Option<Range<usize>> = None;
    for run in runs(scan) {
        let Some(piece) = trim(scan, run) else {
            continue;
        };
        if let Some(prev) = &previous {
            // What separated the pieces in the text, removed tokens included.
            let gap = span(scan, prev.end - 1..piece.start + 1);
            let punctuated = gap.contains([',', ';', '.', ':', '!', '?', '\n']);
            let number_next = scan
                .tokens
                .get(piece.start)
                .is_some_and(|t| t.kind == Kind::Number);
            let comma = joiner == Joiner::Commas || punctuated || number_next;
            out.push_str(match joiner {
                Joiner::Semicolons => "; ",
                _ if comma => ", ",
                _ => " ",
            });
        }
        // Spaces are tidied, but a no-break space stays: "1 200" must not
        // become "1 200", which reads as more digits with what follows.
        out.push_str(
            &span(scan, piece.clone())
                .split(|c: char| {
                    c.is_whitespace() && !matches!(c, '\u{a0}' | '\u{202f}' | '\u{2009}')
                })
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" "),
        );
        previous = Some(piece);
    }
    out
}

/// Punctuation that ends a clause when a space follows: each clause is
/// trimmed on its own, so "…lumineux. Il faudrait un parking" loses its
/// "Il faudrait" too.
const CLAUSE_ENDS: &[&str] = &[".", "!", "?", ";", ",", ":", "…"];

/// Ranges of free tokens, cut at clause ends. A bare line break does not
/// cut: "2e\npersonne" must read as it did in one piece.
fn runs(scan: &Scan) -> Vec<Range<usize>> {
    let mut runs = Vec::new();
    let mut start = None;
    for i in 0..=scan.len() {
        match (scan.is_free(i), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                runs.push(s..i);
                start = None;
            }
            _ => {}
        }
        let clause_end = scan.is_free(i) && scan.is_any(i, CLAUSE_ENDS) && !scan.glued(i + 1);
        if let (Some(s), true) = (start, clause_end) {
            runs.push(s..i + 1);
            start = None;
        }
    }
    runs
}

/// The run without filler and glue at its edges; `None` when nothing is left.
fn trim(scan: &Scan, run: Range<usize>) -> Option<Range<usize>> {
    let (mut a, mut b) = (run.start, run.end);
    while a < b {
        let symbol = scan.tokens.get(a).filter(|t| t.kind == Kind::Symbol);
        if symbol.is_some_and(|t| is_edge_symbol(&t.text, true)) {
            a += 1;
        } else if let Some((_, n)) = scan.longest(a, FILLERS) {
            a += n;
        } else if let Some((_, n)) = scan
            .longest(a, GLUE)
            .filter(|&(_, n)| scan.kind(a + n) != Some(Kind::Number))
        {
            // An article before a number stays: "la 3e fois" is a rank,
            // "3e fois" could read as an arrondissement.
            a += n;
        } else {
            break;
        }
    }
    while a < b {
        let symbol = scan.tokens.get(b - 1).filter(|t| t.kind == Kind::Symbol);
        let n = [GLUE, PREPOSITIONS, DANGLING, CLOSINGS]
            .iter()
            .map(|list| scan.longest_before(b, list))
            .max()
            .unwrap_or(0);
        // "une quinzaine de | jours" keeps its "de": alone, "une quinzaine"
        // would read as fifteen people.
        let counted = b
            .checked_sub(n + 1)
            .and_then(|k| scan.tokens.get(k))
            .is_some_and(|t| t.kind == Kind::Number || numbers::approximation(&t.text).is_some());
        let n = if counted { 0 } else { n };
        // "100 /" keeps its slash: without it "100" could read as a count.
        let after_number = b >= 2
            && scan
                .tokens
                .get(b - 2)
                .is_some_and(|t| t.kind == Kind::Number);
        if symbol.is_some_and(|t| is_edge_symbol(&t.text, false))
            && (!after_number || scan.is_boundary(b - 1))
        {
            b -= 1;
        } else if n > 0 && b - n >= a {
            b -= n;
        } else {
            break;
        }
    }
    (a < b).then_some(a..b)
}

/// The original text of a token range (empty when out of bounds).
fn span<'t>(scan: &Scan<'t>, tokens: Range<usize>) -> &'t str {
    let (Some(first), Some(last)) = (
        scan.tokens.get(tokens.start),
        tokens.end.checked_sub(1).and_then(|e| scan.tokens.get(e)),
    ) else {
        return "";
    };
    scan.text.get(first.start..last.end).unwrap_or_default()
}
