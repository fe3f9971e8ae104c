//! The tokens as the layout and event vocabulary reads them: each word
//! that spells a vocabulary word within a small typo ("banquett",
//! "reunoin", "conferance") is read as that word, so the phrase tables
//! are written once, correctly spelled.
//!
//! Ordinary French words that sit one or two letters away from the
//! vocabulary are decoys and stay themselves: "début" is not "debout",
//! "banquette" not "banquet", "information" not "formation".

use super::fuzzy;
use super::scan::Scan;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;

/// Words close to the vocabulary that mean something else.
#[rustfmt::skip]
const DECOYS: &[&str] = &[
    "banque", "banques", "banquier", "banquiers", "banquette", "banquettes", "baquet",
    "theatral", "theatrale", "theatraux", "theatrales", "ecolo", "ecolos", "debut", "debuts",
    "chasse", "casse", "classy", "classee", "classees", "conferencier", "conferenciere",
    "protection", "production", "productions", "information", "informations", "comte", "comtes",
    "repos", "super", "punch", "deception", "perception", "exception", "monde", "plage", "court",
    "courts", "course", "stable", "fable", "assez", "comme", "bords", "apres", "reunir",
    "donner", "dinde", "forfait", "formel", "formelle", "standard",
    "trading", "plages", "collegue", "collegues", "compte", "comptes", "comete", "cometes",
    "comice", "comices", "conges", "degout", "deboute", "classer", "clause", "classez", "mondes",
    "sondes", "recreation", "recreations", "receptif", "receptifs", "receptive", "receptives",
    "receptionne", "receptionnee", "receptionnes", "reunirons", "reuniront", "reunissons",
    "reunissant", "formulation", "formulations", "deformation", "deformations", "conventionne",
    "conventionnee", "conventionnes", "convergence", "inference", "coherence", "prospection",
    "protections", "baquets", "redemption", "acception", "invention", "inventions", "deceptions",
    "conseille", "conseillee", "conseilles", "conseillees", "conseiller", "conseillers",
];

/// How each token of a range reads: its corrected spelling when it is a
/// typo of the vocabulary, or its folded text.
pub struct Reading<'s> {
    /// Index of the first token read.
    start: usize,
    /// (word, free) for the tokens from `start`.
    words: Vec<(&'s str, bool)>,
    /// Tokens in the whole text.
    len: usize,
}

impl<'s> Reading<'s> {
    /// Reads the tokens of `range` (others read as nothing).
    pub fn new(scan: &'s Scan, range: Range<usize>, vocabulary: &'static [&'static str]) -> Self {
        let end = range.end.min(scan.len());
        let start = range.start.min(end);
        let mut seen: HashMap<&str, &'s str> = HashMap::new();
        let words = scan
            .tokens
            .get(start..end)
            .unwrap_or_default()
            .iter()
            .enumerate()
            .map(|(k, token)| {
                let text = token.text.as_str();
                let read = *seen
                    .entry(text)
                    .or_insert_with(|| spell(text, vocabulary).unwrap_or(text));
                (read, scan.is_free(start + k))
            })
            .collect();
        Reading {
            start,
            words,
            len: scan.len(),
        }
    }

    /// Tokens in the whole text.
    pub fn len(&self) -> usize {
        self.len
    }

    fn at(&self, i: usize) -> Option<(&'s str, bool)> {
        i.checked_sub(self.start)
            .and_then(|k| self.words.get(k))
            .copied()
    }

    /// The word at `i` when its token is free.
    pub fn word(&self, i: usize) -> Option<&'s str> {
        self.at(i).filter(|(_, free)| *free).map(|(w, _)| w)
    }

    /// The word at `i`, free or not: for the context of a phrase.
    pub fn raw(&self, i: usize) -> Option<&'s str> {
        self.at(i).map(|(w, _)| w)
    }

    pub fn is_free(&self, i: usize) -> bool {
        self.word(i).is_some()
    }

    /// Tokens `phrase` (words separated by spaces) takes when the free
    /// tokens from `i` read it.
    pub fn phrase(&self, i: usize, phrase: &str) -> Option<usize> {
        self.phrase_by(i, phrase, |k| self.word(k))
    }

    /// Like `phrase`, on tokens free or not.
    pub fn raw_phrase(&self, i: usize, phrase: &str) -> Option<usize> {
        self.phrase_by(i, phrase, |k| self.raw(k))
    }

    fn phrase_by<'w>(
        &self,
        i: usize,
        phrase: &str,
        word: impl Fn(usize) -> Option<&'w str>,
    ) -> Option<usize> {
        let mut taken = 0;
        for part in phrase.split(' ') {
            if word(i + taken)? != part {
                return None;
            }
            taken += 1;
        }
        Some(taken)
    }

    /// The longest of `phrases` at `i`: (index in `phrases`, tokens taken).
    pub fn longest(&self, i: usize, phrases: &[&str]) -> Option<(usize, usize)> {
        phrases
            .iter()
            .enumerate()
            .filter_map(|(k, p)| self.phrase(i, p).map(|n| (k, n)))
            .max_by_key(|&(k, n)| (n, usize::MAX - k))
    }

    /// True when one of `phrases`, read on tokens free or not, overlaps
    /// the tokens of `range` ("centre de conférences" overlaps
    /// "conférences", "cours de yoga" overlaps "des cours").
    pub fn overlapped_by(&self, range: Range<usize>, phrases: &[&str]) -> bool {
        phrases.iter().any(|p| {
            let n = p.split(' ').count();
            (range.start.saturating_sub(n - 1)..range.end)
                .any(|start| self.raw_phrase(start, p).is_some())
        })
    }

    /// True when one of `phrases`, read on tokens free or not, ends right
    /// before `i`.
    pub fn preceded_by(&self, i: usize, phrases: &[&str]) -> bool {
        phrases.iter().any(|p| {
            let n = p.split(' ').count();
            i.checked_sub(n)
                .is_some_and(|start| self.raw_phrase(start, p) == Some(n))
        })
    }
}

/// The vocabulary word `word` is a typo of, if any (itself included).
fn spell(word: &str, vocabulary: &'static [&'static str]) -> Option<&'static str> {
    // The vocabulary is sorted: numbers and short words, most of a text,
    // are looked up without measuring any distance.
    let exact = vocabulary
        .binary_search(&word)
        .ok()
        .and_then(|k| vocabulary.get(k).copied());
    // No vocabulary word is long: a long token ("éééé…") is measured
    // against nothing.
    if exact.is_some() || !(5..=24).contains(&word.chars().count()) {
        return exact;
    }
    fuzzy::closest_except(word, vocabulary, DECOYS)
}

/// The vocabulary built once from the words of `phrases`, sorted and
/// without duplicates.
pub fn vocabulary_of(
    cell: &'static OnceLock<Vec<&'static str>>,
    phrases: impl FnOnce() -> Vec<&'static str>,
) -> &'static [&'static str] {
    cell.get_or_init(|| {
        let mut words: Vec<&'static str> = phrases()
            .into_iter()
            .flat_map(|phrase| phrase.split(' '))
            .filter(|w| !w.is_empty())
            .collect();
        words.sort_unstable();
        words.dedup();
        words
    })
}
