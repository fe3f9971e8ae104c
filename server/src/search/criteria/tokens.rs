//! Splits free text into folded tokens that remember where they came from.
//!
//! Every extractor reads the folded form ("8eme", "saint", "denis") and the
//! semantic query is cut back out of the original text by byte spans, so it
//! keeps the organizer's own spelling and accents.

use crate::geo::{fold_char_into, is_combining_mark, is_joiner};

/// What a token is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// ASCII digits only ("75011", "8").
    Number,
    /// Letters ("eme", "saint"); digits and letters are split apart, so
    /// "8ème" is the number "8" followed by the glued word "eme".
    Word,
    /// Any other single character ("#", "€", ",", an emoji).
    Symbol,
}

/// One token of the input.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// Folded: lower case, no accents.
    pub text: String,
    pub kind: Kind,
    /// Byte span in the original text.
    pub start: usize,
    pub end: usize,
    /// No space (nor joiner) between the previous token and this one:
    /// tells "8e" from "8 e" and "#102" from "# 102".
    pub glued: bool,
}

/// Tokenizes `text`. Hyphens and apostrophes inside names are separators
/// ("Saint-Denis" → "saint" "denis", "l'Est" → "l" "est"); a hyphen next to
/// a digit stays a symbol so "80-120" reads as a range. A no-break space
/// between digits groups thousands ("1 200" → one number 1200), as French
/// typography writes them; a plain space is left to the number reader.
pub fn tokenize(text: &str) -> Vec<Token> {
    let mut tokens: Vec<Token> = Vec::new();
    // True when the next token starts right after the previous one.
    let mut glued = false;
    // True right after a no-break space inside a number.
    let mut grouping = false;
    let mut chars = text.char_indices().peekable();
    let mut previous: Option<char> = None;
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let end = at + c.len_utf8();
        let digit_around = previous.is_some_and(|p| p.is_ascii_digit())
            && next.is_some_and(|n| n.is_ascii_digit());
        if is_thousands_space(c) && digit_around && glued {
            grouping = true;
        } else if is_combining_mark(c) {
            // Part of the previous letter: extends its span.
            if let Some(last) = tokens.last_mut().filter(|t| t.end == at) {
                last.end = end;
            }
        } else if c.is_whitespace()
            || is_joiner(c) && (is_letter(previous) && is_letter(next) || !is_hyphen(c))
        {
            // Joiners between letters separate words; a stray apostrophe
            // too. A hyphen elsewhere is a symbol ("80-120").
            glued = false;
        } else if c.is_alphanumeric() {
            push_alphanumeric(&mut tokens, c, at, end, glued, grouping);
            glued = true;
            grouping = false;
        } else {
            let mut folded = String::new();
            fold_char_into(c, &mut folded);
            tokens.push(Token {
                text: folded,
                kind: Kind::Symbol,
                start: at,
                end,
                glued,
            });
            glued = true;
        }
        if !is_combining_mark(c) {
            previous = Some(c);
        }
    }
    tokens
}

/// No-break (U+00A0), narrow no-break (U+202F) and thin (U+2009) spaces.
fn is_thousands_space(c: char) -> bool {
    matches!(c, '\u{a0}' | '\u{202f}' | '\u{2009}')
}

fn is_hyphen(c: char) -> bool {
    matches!(c, '-' | '\u{2010}' | '\u{2011}')
}

fn is_letter(c: Option<char>) -> bool {
    c.is_some_and(char::is_alphabetic)
}

/// Adds the folded `c` to the last token when it is of the same kind and
/// touches it (or is a digit group after a no-break space), or starts a
/// new token.
fn push_alphanumeric(
    tokens: &mut Vec<Token>,
    c: char,
    start: usize,
    end: usize,
    glued: bool,
    grouping: bool,
) {
    let mut folded = String::new();
    fold_char_into(c, &mut folded);
    let kind = if !folded.is_empty() && folded.bytes().all(|b| b.is_ascii_digit()) {
        Kind::Number
    } else {
        Kind::Word
    };
    match tokens.last_mut() {
        Some(last) if glued && (last.end == start || grouping) && last.kind == kind => {
            last.text.push_str(&folded);
            last.end = end;
        }
        _ => tokens.push(Token {
            text: folded,
            kind,
            start,
            end,
            glued,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str) -> Vec<(String, Kind, bool)> {
        tokenize(text)
            .into_iter()
            .map(|t| (t.text, t.kind, t.glued))
            .collect()
    }

    #[test]
    fn splits_digits_from_letters_and_folds() {
        let t = texts("Paris 8ème, #102 Île-de-France l'Est");
        let words: Vec<&str> = t.iter().map(|(w, _, _)| w.as_str()).collect();
        assert_eq!(
            words,
            ["paris", "8", "eme", ",", "#", "102", "ile", "de", "france", "l", "est"]
        );
        assert_eq!(t[2], ("eme".into(), Kind::Word, true));
        assert_eq!(t[5], ("102".into(), Kind::Number, true));
        assert!(!t[7].2, "a joiner separates");
    }

    #[test]
    fn ranges_keep_their_hyphen_and_spans_point_into_the_text() {
        let text = "80-120 pers. à Sèvres";
        let tokens = tokenize(text);
        let words: Vec<&str> = tokens.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(words, ["80", "-", "120", "pers", ".", "a", "sevres"]);
        assert_eq!(&text[tokens[6].start..tokens[6].end], "Sèvres");
        assert_eq!(&text[tokens[5].start..tokens[5].end], "à");
    }

    #[test]
    fn decomposed_accents_and_odd_characters() {
        let text = "Cre\u{301}teil 🎉 75 m²";
        let tokens = tokenize(text);
        assert_eq!(tokens[0].text, "creteil");
        assert_eq!(&text[tokens[0].start..tokens[0].end], "Cre\u{301}teil");
        let words: Vec<&str> = tokens.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(words, ["creteil", "🎉", "75", "m", "2"]);
        assert!(tokenize("").is_empty());
        assert!(tokenize(" \t\n ").is_empty());
    }

    #[test]
    fn no_break_spaces_group_thousands() {
        for text in ["1\u{a0}200 pax", "1\u{202f}200 pax"] {
            let tokens = tokenize(text);
            assert_eq!(tokens[0].text, "1200", "{text:?}");
            assert_eq!(
                &text[tokens[0].start..tokens[0].end],
                &text[..text.len() - 4]
            );
            assert_eq!(tokens[1].text, "pax");
        }
        // A plain space stays a separator; a no-break space elsewhere too.
        assert_eq!(tokenize("1 200").len(), 2);
        assert_eq!(tokenize("80\u{a0}personnes").len(), 2);
        assert_eq!(tokenize("le\u{a0}12").len(), 2);
    }
}
