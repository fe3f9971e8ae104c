//! Kinds of venue a request rules out: « pas de rooftop », « sans péniche
//! », « no basement », « pas en extérieur ». A kind asked for stays in the
//! description (the vector ranking finds rooftops never called so); a
//! kind ruled out becomes an exclusion in the SQL stage, on the venue's
//! tags, and leaves the description, where « rooftop » would rank rooftops
//! first.

use super::negation::{self, Category};
use super::scan::Scan;
use super::Criteria;

/// (folded phrase, tag name).
#[rustfmt::skip]
const KINDS: &[(&str, &str)] = &[
    ("rooftop", "rooftop"), ("rooftops", "rooftop"), ("roof top", "rooftop"),
    ("roof", "rooftop"), ("toit terrasse", "rooftop"), ("toits terrasses", "rooftop"),
    ("toit", "rooftop"),
    ("peniche", "péniche"), ("peniches", "péniche"), ("bateau", "péniche"),
    ("bateaux", "péniche"), ("barge", "péniche"), ("boat", "péniche"), ("boats", "péniche"),
    ("sous sol", "sous-sol"), ("sous sols", "sous-sol"), ("salle en sous sol", "sous-sol"),
    ("basement", "sous-sol"), ("souterrain", "sous-sol"), ("lieu en sous sol", "sous-sol"),
    ("cave", "cave-voûtée"), ("caves", "cave-voûtée"), ("cave voutee", "cave-voûtée"),
    ("caves voutees", "cave-voûtée"), ("cellar", "cave-voûtée"), ("vaulted cellar", "cave-voûtée"),
    ("loft", "loft"), ("lofts", "loft"),
    ("friche", "industriel"), ("friche industrielle", "industriel"), ("entrepot", "industriel"),
    ("lieu industriel", "industriel"), ("warehouse", "industriel"),
    ("exterieur", "extérieur"), ("plein air", "extérieur"), ("outdoor", "extérieur"),
    ("outdoors", "extérieur"),
];

/// The tags a request can rule out, each once, in the list's order.
pub fn tags() -> Vec<&'static str> {
    let mut tags: Vec<&'static str> = Vec::new();
    for (_, tag) in KINDS {
        if !tags.contains(tag) {
            tags.push(tag);
        }
    }
    tags
}

/// How « Compris » names a tag ruled out, after « sans ».
pub fn label(tag: &str) -> &str {
    match tag {
        "cave-voûtée" => "cave voûtée",
        "industriel" => "lieu industriel",
        "extérieur" => "espace extérieur",
        other => other,
    }
}

/// Takes every kind a negation rules out.
pub fn extract(scan: &mut Scan, found: &mut Criteria) {
    let mut i = 0;
    while i < scan.len() {
        let longest = KINDS
            .iter()
            .filter_map(|(phrase, tag)| scan.phrase(i, phrase).map(|n| (*tag, n)))
            .max_by_key(|&(_, n)| n);
        let Some((tag, n)) = longest else {
            i += 1;
            continue;
        };
        let item = i..i + n;
        if let Some(cue) = negation::ruled_out(scan, item.clone(), Category::Kind) {
            if !found.excluded_kinds.iter().any(|t| t == tag) {
                found.excluded_kinds.push(tag.to_string());
            }
            negation::take(scan, cue, item, Category::Kind);
        }
        i += n;
    }
}
