//! The words of a message as the planner compares them: folded (no case,
//! no accents), split on anything but letters and digits, `#` kept as a
//! word of its own so « #102 » and « demande #12 » stay readable. Typos are
//! forgiven by a small edit distance, only on words long enough to stay
//! unambiguous.
use crate::geo::fold;

/// Longer messages are read up to here: an intent is said in the first
/// sentences, and the work stays bounded whatever the user pastes.
const MAX_BYTES: usize = 8192;

/// The folded words of `text`, in order.
pub fn words(text: &str) -> Vec<String> {
    let folded = fold(cut(text, MAX_BYTES));
    let mut out = Vec::new();
    let mut current = String::new();
    for c in folded.chars() {
        if c.is_alphanumeric() {
            current.push(c);
            continue;
        }
        if !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        if c == '#' {
            out.push("#".to_string());
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// `text` cut at a character boundary at most `max` bytes long.
pub fn cut(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// True when `word` spells `key`: exactly, or with one slip from 6
/// letters, two from 9 (swapped letters count as one slip). Shorter words
/// must be exact: one letter off, « mails » is « mains », « count » is
/// « court ».
pub fn spells(word: &str, key: &str) -> bool {
    if word == key {
        return true;
    }
    let (w, k) = (word.chars().count(), key.chars().count());
    let allowed = match k {
        0..=5 => 0,
        6..=8 => 1,
        _ => 2,
    };
    allowed > 0 && w.abs_diff(k) <= allowed && distance(word, key) <= allowed
}

/// True when some word of `words` spells one of `keys`, or starts with one
/// of `stems`.
pub fn any(words: &[String], keys: &[&str], stems: &[&str]) -> bool {
    words
        .iter()
        .any(|w| keys.iter().any(|k| spells(w, k)) || stems.iter().any(|s| w.starts_with(s)))
}

/// True when `phrase` (folded words separated by spaces) occurs in `words`.
pub fn phrase(words: &[String], phrase: &str) -> bool {
    let wanted: Vec<&str> = phrase.split(' ').collect();
    words
        .windows(wanted.len())
        .any(|w| w.iter().zip(&wanted).all(|(a, b)| a == b))
}

/// Optimal string alignment distance (Levenshtein plus adjacent swaps).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_folded_and_hash_stands_alone() {
        assert_eq!(
            words("Qualifie la DEMANDE #12, s'il te plaît"),
            ["qualifie", "la", "demande", "#", "12", "s", "il", "te", "plait"]
        );
        assert_eq!(words("D-2026-00042"), ["d", "2026", "00042"]);
    }

    #[test]
    fn typos_are_forgiven_on_long_words_only() {
        assert!(spells("qualifei", "qualifie"));
        assert!(spells("catalgoue", "catalogue"));
        assert!(spells("emials", "emails"));
        assert!(!spells("mail", "mais"));
        assert!(!spells("mains", "mails"));
        assert!(!spells("court", "count"));
        assert!(spells("cherhce", "cherche"));
        assert!(!spells("trouble", "trouve"));
    }

    #[test]
    fn cut_keeps_characters_whole() {
        assert_eq!(cut("éé", 3), "é");
        assert_eq!(cut("abc", 10), "abc");
    }
}
