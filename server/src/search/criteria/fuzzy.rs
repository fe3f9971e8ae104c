//! Typo tolerance for the small vocabularies the extractor knows (layouts,
//! people nouns): "banquett", "theatre", "reunoin" are what a hurried
//! curator types. Only words long enough to be unambiguous are corrected,
//! and only to a single closest entry.

/// The entry of `vocabulary` that `word` (folded) spells, exactly or
/// within a small edit distance: one edit from 5 letters, two from 9.
/// `None` when two entries are equally close.
pub fn closest<'v>(word: &str, vocabulary: &[&'v str]) -> Option<&'v str> {
    if let Some(exact) = vocabulary.iter().find(|v| **v == word) {
        return Some(exact);
    }
    let allowed = match word.chars().count() {
        0..=4 => return None,
        5..=8 => 1,
        _ => 2,
    };
    let mut best: Option<(&'v str, usize)> = None;
    let mut tied = false;
    for entry in vocabulary {
        // Short entries are matched exactly only: "u" is not "a".
        if entry.chars().count() < 5 {
            continue;
        }
        let d = strsim::damerau_levenshtein(word, entry);
        if d > allowed {
            continue;
        }
        match best {
            Some((_, b)) if d > b => {}
            Some((_, b)) if d == b => tied = true,
            _ => {
                best = Some((entry, d));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(entry, _)| entry)
}

#[cfg(test)]
mod tests {
    use super::closest;

    const LAYOUTS: &[&str] = &[
        "banquet", "theatre", "reunion", "cocktail", "cabaret", "ecole",
    ];

    #[test]
    fn corrects_small_typos_of_long_enough_words() {
        assert_eq!(closest("banquett", LAYOUTS), Some("banquet"));
        assert_eq!(closest("reunoin", LAYOUTS), Some("reunion"));
        assert_eq!(closest("coktail", LAYOUTS), Some("cocktail"));
        assert_eq!(closest("theatre", LAYOUTS), Some("theatre"));
    }

    #[test]
    fn leaves_short_and_distant_words_alone() {
        assert_eq!(closest("ecol", LAYOUTS), None);
        assert_eq!(closest("banc", LAYOUTS), None);
        assert_eq!(closest("bouquet", LAYOUTS), None);
        assert_eq!(closest("", LAYOUTS), None);
    }

    #[test]
    fn a_tie_is_no_answer() {
        assert_eq!(closest("abcdx", &["abcde", "abcdf"]), None);
    }
}
