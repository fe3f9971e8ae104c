//! The token list being read, and which tokens already belong to a hard
//! criterion. Extractors only match free tokens and mark what they take,
//! so two extractors never claim the same words and what is left over is
//! the semantic query.

use super::tokens::{tokenize, Kind, Token};
use std::ops::Range;

/// What an item a negation ruled out is (`negation`): a comma only joins
/// items of one category (« pas de rooftop, dans le 8e » asks for the 8e).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    Place,
    Kind,
}

pub struct Scan<'a> {
    pub text: &'a str,
    pub tokens: Vec<Token>,
    used: Vec<bool>,
    /// Tokens of an item a negation ruled out ("le 17e" in "on évite le
    /// 17e"), and what it was.
    ruled: Vec<Option<Category>>,
}

impl<'a> Scan<'a> {
    pub fn new(text: &'a str) -> Self {
        let tokens = tokenize(text);
        let used = vec![false; tokens.len()];
        let ruled = vec![None; tokens.len()];
        Scan {
            text,
            tokens,
            used,
            ruled,
        }
    }

    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    pub fn is_free(&self, i: usize) -> bool {
        self.used.get(i) == Some(&false)
    }

    /// Marks tokens as part of a hard criterion.
    pub fn consume(&mut self, range: Range<usize>) {
        for i in range {
            if let Some(slot) = self.used.get_mut(i) {
                *slot = true;
            }
        }
    }

    /// Marks the tokens of an item a negation ruled out.
    pub fn rule_out(&mut self, range: Range<usize>, category: Category) {
        for i in range {
            if let Some(slot) = self.ruled.get_mut(i) {
                *slot = Some(category);
            }
        }
    }

    /// What token `i` belongs to when a negation ruled it out.
    pub fn ruled(&self, i: usize) -> Option<Category> {
        self.ruled.get(i).copied().flatten()
    }

    /// The folded text of token `i` when it exists and is free.
    pub fn word(&self, i: usize) -> Option<&str> {
        self.is_free(i)
            .then(|| self.tokens.get(i))
            .flatten()
            .map(|t| t.text.as_str())
    }

    pub fn kind(&self, i: usize) -> Option<Kind> {
        self.is_free(i)
            .then(|| self.tokens.get(i))
            .flatten()
            .map(|t| t.kind)
    }

    pub fn is(&self, i: usize, word: &str) -> bool {
        self.word(i) == Some(word)
    }

    pub fn is_any(&self, i: usize, words: &[&str]) -> bool {
        self.word(i).is_some_and(|w| words.contains(&w))
    }

    /// True when token `i` touches the previous one ("8e", "#102").
    pub fn glued(&self, i: usize) -> bool {
        self.tokens.get(i).is_some_and(|t| t.glued)
    }

    /// How many tokens `phrase` (folded words separated by spaces) takes
    /// when the free tokens from `i` spell it.
    pub fn phrase(&self, i: usize, phrase: &str) -> Option<usize> {
        let mut taken = 0;
        for part in phrase.split(' ') {
            if self.word(i + taken)? != part {
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

    /// How many tokens the longest of `phrases` takes when it ends right
    /// before `i` (0 when none does).
    pub fn longest_before(&self, i: usize, phrases: &[&str]) -> usize {
        phrases
            .iter()
            .filter_map(|p| {
                let n = p.split(' ').count();
                let start = i.checked_sub(n)?;
                (self.phrase(start, p) == Some(n)).then_some(n)
            })
            .max()
            .unwrap_or(0)
    }

    /// The folded text of token `i`, taken by a criterion or not: what
    /// context checks read ("vue sur", a negation before a place).
    pub fn raw(&self, i: usize) -> Option<&str> {
        self.tokens.get(i).map(|t| t.text.as_str())
    }

    /// How many tokens `phrase` takes when the tokens from `i`, taken or
    /// not, spell it.
    pub fn raw_phrase(&self, i: usize, phrase: &str) -> Option<usize> {
        let mut taken = 0;
        for part in phrase.split(' ') {
            if self.raw(i + taken)? != part {
                return None;
            }
            taken += 1;
        }
        Some(taken)
    }

    /// How many tokens the longest of `phrases` takes when it ends right
    /// before `i`, taken or not (0 when none does).
    pub fn raw_longest_before(&self, i: usize, phrases: &[&str]) -> usize {
        phrases
            .iter()
            .filter_map(|p| {
                let start = i.checked_sub(p.split(' ').count())?;
                self.raw_phrase(start, p)
            })
            .max()
            .unwrap_or(0)
    }

    /// The value of token `i` when it is a free number of at most 9 digits.
    pub fn number(&self, i: usize) -> Option<u32> {
        let token = self.tokens.get(i).filter(|_| self.is_free(i))?;
        (token.kind == Kind::Number && token.text.len() <= 9)
            .then(|| token.text.parse().ok())
            .flatten()
    }

    /// Number of digits of token `i` when it is a free number.
    pub fn digit_count(&self, i: usize) -> Option<usize> {
        (self.kind(i)? == Kind::Number).then(|| self.tokens.get(i).map(|t| t.text.len()))?
    }

    /// Free folded words from `i` up to the first used token, at most `max`:
    /// what the gazetteer matches place names against.
    pub fn free_words(&self, i: usize, max: usize) -> Vec<&str> {
        (i..self.len().min(i.saturating_add(max)))
            .map_while(|k| self.word(k))
            .collect()
    }

    /// True when the token at `i` ends the phrase of a number: nothing, a
    /// token another criterion took, or punctuation that is not part of a
    /// quantity ("€", "%", "/" and "-" are).
    pub fn is_boundary(&self, i: usize) -> bool {
        match self.tokens.get(i) {
            Some(t) if self.is_free(i) => {
                t.kind == Kind::Symbol
                    && !matches!(
                        t.text.as_str(),
                        "€" | "$"
                            | "£"
                            | "%"
                            | "/"
                            | "-"
                            | "+"
                            | "#"
                            | "&"
                            | "~"
                            | "°"
                            | "*"
                            | "×"
                            | "="
                            | "<"
                            | ">"
                            | "@"
                    )
            }
            _ => true,
        }
    }
}
