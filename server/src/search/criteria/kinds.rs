//! Kinds of venue a request rules out: « pas de rooftop », « sans péniche
//! », « no basement », « pas en extérieur ». A kind asked for stays in the
//! description (the vector ranking finds rooftops never called so); a
//! kind ruled out becomes an exclusion in the SQL stage, on the venue's
//! tags, and leaves the description, where « rooftop » would rank rooftops
//! first.

use super::negation::{self, Category};
use super::scan::Scan;
use super::tag_words::{KINDS, PHRASES};
use super::Criteria;

/// The tags a request can rule out.
pub fn tags() -> Vec<&'static str> {
    KINDS.to_vec()
}

/// Takes every kind a negation rules out.
pub fn extract(scan: &mut Scan, found: &mut Criteria) {
    let mut i = 0;
    while i < scan.len() {
        let longest = PHRASES
            .iter()
            .filter(|(_, tag)| KINDS.contains(tag))
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
