//! What a request says of the features venue sheets carry as tags. A kind
//! of venue ruled out (« pas de rooftop », « sans péniche », « no
//! basement ») becomes an exclusion in the SQL stage and leaves the
//! description, where « rooftop » would rank rooftops first. A feature
//! asked for (« un rooftop », « avec parking ») is wanted: the ranking
//! prefers venues that carry it, and its words stay in the description
//! (the vector ranking finds rooftops never called so). Another feature
//! said with a negation (« sans parking ») is neither: a need not voiced
//! is no exclusion.

use super::negation::{self, Category};
use super::scan::Scan;
use super::tag_words::{KINDS, PHRASES};
use super::Criteria;

/// The tags a request can rule out.
pub fn tags() -> Vec<&'static str> {
    KINDS.to_vec()
}

/// Takes every kind a negation rules out; notes every feature asked for.
pub fn extract(scan: &mut Scan, found: &mut Criteria) {
    let mut i = 0;
    while i < scan.len() {
        let longest = PHRASES
            .iter()
            .filter_map(|(phrase, tag)| scan.phrase(i, phrase).map(|n| (*tag, n)))
            .max_by_key(|&(_, n)| n);
        let Some((tag, n)) = longest else {
            i += 1;
            continue;
        };
        let item = i..i + n;
        match negation::ruled_out(scan, item.clone(), Category::Kind) {
            Some(cue) if KINDS.contains(&tag) => {
                add(&mut found.excluded_kinds, tag);
                negation::take(scan, cue, item, Category::Kind);
            }
            // Left to `negation::take_leftovers`, as any refused word.
            Some(_) => {}
            None => add(&mut found.wanted_tags, tag),
        }
        i += n;
    }
    // « un rooftop, mais pas de rooftop trop venté »: ruled out wins.
    found
        .wanted_tags
        .retain(|t| !found.excluded_kinds.contains(t));
}

fn add(tags: &mut Vec<String>, tag: &str) {
    if !tags.iter().any(|t| t == tag) {
        tags.push(tag.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::super::extract;

    #[test]
    fn a_feature_asked_for_is_wanted_and_stays_in_the_description() {
        let c = extract("Un rooftop avec vue sur la Seine pour 80 personnes dans le 8e");
        assert_eq!(c.wanted_tags, ["rooftop", "vue-seine"]);
        assert!(c.excluded_kinds.is_empty());
        assert!(c.semantic_query.contains("rooftop"), "{}", c.semantic_query);
        assert!(
            c.notes
                .iter()
                .any(|n| n == "atouts souhaités : rooftop, vue sur la Seine"),
            "{:?}",
            c.notes
        );
        assert_eq!(
            extract("séminaire avec hébergement").wanted_tags,
            ["hébergement"]
        );
    }

    #[test]
    fn a_kind_ruled_out_is_excluded_and_another_feature_refused_is_neither() {
        let c = extract("pas de rooftop, avec terrasse dans le 11e");
        assert_eq!(c.excluded_kinds, ["rooftop"]);
        assert_eq!(c.wanted_tags, ["terrasse"]);
        let c = extract("cocktail de 50 personnes sans parking");
        assert!(c.wanted_tags.is_empty(), "{:?}", c.wanted_tags);
        assert!(c.excluded_kinds.is_empty());
        assert!(
            !c.semantic_query.contains("parking"),
            "{}",
            c.semantic_query
        );
        // The same kind asked for then ruled out: ruled out.
        let c = extract("un rooftop ? non, surtout pas de rooftop");
        assert_eq!(c.excluded_kinds, ["rooftop"]);
        assert!(c.wanted_tags.is_empty());
    }
}
