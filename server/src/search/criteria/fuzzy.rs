//! Typo tolerance for the small vocabularies the extractor knows (layouts,
//! people nouns): "banquett", "theatre", "reunoin" are what a hurried
//! curator types. Only words long enough to be unambiguous are corrected,
//! and only to a single closest entry.

/// The entry of `vocabulary` that `word` (folded) spells, exactly or
/// within a small edit distance: one edit from 5 letters, two from 9.
/// `None` when two entries are equally close.
pub fn closest<'v>(word: &str, vocabulary: &[&'v str]) -> Option<&'v str> {
    closest_with_distance(word, vocabulary, Tie::NoAnswer, |_, _| true).map(|(entry, _)| entry)
}

/// Like [`closest`], stricter, for a vocabulary of phrases read in any
/// text: only entries of 6 letters or more are corrected to, and two edits
/// must change the length ("conferrance"), as two substitutions are how
/// French words differ ("conversion" is not "convention"). And an ordinary
/// word near the vocabulary stays itself:
/// `None` when `word` is one of `decoys` or strictly closer to one of them
/// ("début" is not "debout", "banquette" is not "banquet"). A decoy as
/// close as the entry loses: "banquett" is a typo of "banquet". Entries
/// equally close are forms of one word in a vocabulary of phrases
/// ("banquet", "banquets"; "theatre", "theater"): the one sharing the
/// longest start with `word`, then the shortest, then the first in
/// alphabetical order, is taken. A doubled letter is forgiven even in a
/// short entry ("asssis").
pub fn closest_except<'v>(word: &str, vocabulary: &[&'v str], decoys: &[&str]) -> Option<&'v str> {
    if decoys.contains(&word) {
        return None;
    }
    if let Some(entry) = undoubled(word, vocabulary) {
        return Some(entry);
    }
    let letters = |w: &str| w.chars().count();
    let plausible =
        |entry: &str, d: usize| letters(entry) >= 6 && (d < 2 || letters(entry) != letters(word));
    let (entry, distance) = closest_with_distance(word, vocabulary, Tie::Shortest, plausible)?;
    let nearer_decoy = distance > 0
        && decoys
            .iter()
            .any(|d| within(word, d, distance - 1).is_some());
    (!nearer_decoy).then_some(entry)
}

/// The entry `word` spells with one letter typed twice too many
/// ("asssis", "cocktaill").
fn undoubled<'v>(word: &str, vocabulary: &[&'v str]) -> Option<&'v str> {
    let chars: Vec<char> = word.chars().collect();
    (1..chars.len())
        .filter(|&k| chars.get(k) == chars.get(k - 1))
        .find_map(|k| {
            let shorter: String = chars
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, c)| c)
                .collect();
            vocabulary.iter().find(|v| **v == shorter).copied()
        })
}

/// Edits allowed for a word of this many letters.
fn allowed_edits(letters: usize) -> Option<usize> {
    match letters {
        0..=4 => None,
        5..=8 => Some(1),
        _ => Some(2),
    }
}

/// The edit distance of `word` to `entry` when at most `max`; entries
/// under 5 letters only match exactly ("u" is not "a").
fn within(word: &str, entry: &str, max: usize) -> Option<usize> {
    if word == entry {
        return Some(0);
    }
    let (w, e) = (word.chars().count(), entry.chars().count());
    // Cheap bounds first: most entries differ in length by more than `max`.
    if e < 5 || w.abs_diff(e) > max {
        return None;
    }
    let d = strsim::damerau_levenshtein(word, entry);
    (d <= max).then_some(d)
}

/// Letters `a` and `b` start with in common.
fn common_prefix(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

/// What to do when two entries are equally close.
#[derive(Clone, Copy, PartialEq)]
enum Tie {
    NoAnswer,
    Shortest,
}

fn closest_with_distance<'v>(
    word: &str,
    vocabulary: &[&'v str],
    tie: Tie,
    plausible: impl Fn(&str, usize) -> bool,
) -> Option<(&'v str, usize)> {
    if let Some(exact) = vocabulary.iter().find(|v| **v == word) {
        return Some((exact, 0));
    }
    let allowed = allowed_edits(word.chars().count())?;
    let mut best: Option<(&'v str, usize)> = None;
    let mut tied = false;
    for entry in vocabulary {
        let Some(d) = within(word, entry, allowed).filter(|&d| plausible(entry, d)) else {
            continue;
        };
        match best {
            Some((_, b)) if d > b => {}
            Some((kept, b)) if d == b => {
                let rank = |e: &str| (usize::MAX - common_prefix(word, e), e.len(), e.to_string());
                if tie == Tie::Shortest && rank(entry) < rank(kept) {
                    best = Some((entry, d));
                }
                tied = tie == Tie::NoAnswer;
            }
            _ => {
                best = Some((entry, d));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied)
}

#[cfg(test)]
mod tests {
    use super::{closest, closest_except};

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

    #[test]
    fn ordinary_words_near_the_vocabulary_stay_themselves() {
        let decoys = &["banquette", "banque", "debut"];
        let vocabulary = &["banquet", "debout"];
        assert_eq!(closest_except("banquette", vocabulary, decoys), None);
        assert_eq!(closest_except("banque", vocabulary, decoys), None);
        assert_eq!(closest_except("debut", vocabulary, decoys), None);
        // As close to the entry as to the decoy: a typo of the entry.
        assert_eq!(
            closest_except("banquett", vocabulary, decoys),
            Some("banquet")
        );
        assert_eq!(closest_except("debuot", vocabulary, decoys), Some("debout"));
        assert_eq!(
            closest_except("banquets", vocabulary, decoys),
            Some("banquet")
        );
        // Forms of one word equally close: the shortest.
        let forms = &["banquets", "banquet", "theatre", "theater"];
        assert_eq!(closest_except("banquett", forms, decoys), Some("banquet"));
        assert_eq!(closest_except("theatr", forms, decoys), Some("theatre"));
        assert_eq!(
            closest_except("assemble", &["assembly", "assemblee"], decoys),
            Some("assemblee")
        );
        assert_eq!(closest_except("asssis", &["assis"], decoys), Some("assis"));
    }
}
