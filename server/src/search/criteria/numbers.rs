//! Numbers as French writes them: digits with thousands groups ("1 000"),
//! decimals with a comma ("1,5"), words ("cent cinquante",
//! "quatre-vingts"), approximations ("une centaine"), and the ordinals of
//! arrondissements ("8e", "1er", "VIIIe", "huitième").

use super::scan::Scan;
use super::tokens::Kind;

/// An integer in digits at `i`, thousands groups included ("1 000",
/// "1.000", "15 000"): (value, tokens taken).
pub fn digits(scan: &Scan, i: usize) -> Option<(u32, usize)> {
    let mut value = scan.number(i)?;
    let mut taken = 1;
    if scan.digit_count(i)? <= 3 {
        loop {
            let at = i + taken;
            // "1 000": a separate group of exactly three digits.
            let group_at = if scan.digit_count(at) == Some(3) && !scan.glued(at) {
                at
            } else if scan.is(at, ".")
                && scan.glued(at)
                && scan.glued(at + 1)
                && scan.digit_count(at + 1) == Some(3)
            {
                at + 1
            } else {
                break;
            };
            let group = scan.number(group_at)?;
            value = value.checked_mul(1000)?.checked_add(group)?;
            taken = group_at + 1 - i;
        }
    }
    Some((value, taken))
}

/// A decimal in digits at `i` ("1,5", "0.8", "3"): (value, tokens taken).
pub fn decimal(scan: &Scan, i: usize) -> Option<(f64, usize)> {
    let whole = scan.number(i)?;
    let is_separator = scan.is(i + 1, ",") || scan.is(i + 1, ".");
    if is_separator && scan.glued(i + 1) && scan.glued(i + 2) {
        if let Some(fraction) = scan.number(i + 2) {
            let digits = scan.digit_count(i + 2).unwrap_or(1).min(9);
            let scale = 10f64.powi(digits as i32);
            return Some((f64::from(whole) + f64::from(fraction) / scale, 3));
        }
    }
    Some((f64::from(whole), 1))
}

/// Value of a French number word, and whether it multiplies ("cent").
fn word_value(word: &str) -> Option<u32> {
    Some(match word {
        "un" | "une" => 1,
        "deux" => 2,
        "trois" => 3,
        "quatre" => 4,
        "cinq" => 5,
        "six" => 6,
        "sept" => 7,
        "huit" => 8,
        "neuf" => 9,
        "dix" => 10,
        "onze" => 11,
        "douze" => 12,
        "treize" => 13,
        "quatorze" => 14,
        "quinze" => 15,
        "seize" => 16,
        "vingt" | "vingts" => 20,
        "trente" => 30,
        "quarante" => 40,
        "cinquante" => 50,
        "soixante" => 60,
        "cent" | "cents" => 100,
        "mille" => 1000,
        _ => return None,
    })
}

/// A number written in words at `i` ("cent cinquante", "quatre vingts",
/// "deux mille"): (value, tokens taken).
pub fn words(scan: &Scan, i: usize) -> Option<(u32, usize)> {
    let (mut total, mut current, mut taken) = (0u32, 0u32, 0usize);
    let mut last: Option<u32> = None;
    while taken < 8 {
        let at = i + taken;
        let Some(word) = scan.word(at) else { break };
        // "vingt et un", "soixante et onze": "et" only between two numbers.
        if word == "et" && last.is_some() && scan.word(at + 1).and_then(word_value).is_some() {
            taken += 1;
            continue;
        }
        let Some(value) = word_value(word) else { break };
        match value {
            100 if current < 100 => current = current.max(1) * 100,
            1000 if total == 0 => {
                total = current.max(1) * 1000;
                current = 0;
            }
            // "quatre-vingts": four twenties.
            20 if last == Some(4) => current += 76,
            100 | 1000 => break,
            v => current += v,
        }
        last = Some(value);
        taken += 1;
    }
    (taken > 0).then_some((total + current, taken))
}

/// A number in digits or in words at `i`.
pub fn cardinal(scan: &Scan, i: usize) -> Option<(u32, usize)> {
    digits(scan, i).or_else(|| words(scan, i))
}

/// Value of an approximation noun ("centaine" → 100), plural or not.
pub fn approximation(noun: &str) -> Option<u32> {
    Some(match noun.trim_end_matches('s') {
        "dizaine" => 10,
        "douzaine" => 12,
        "quinzaine" => 15,
        "vingtaine" => 20,
        "trentaine" => 30,
        "quarantaine" => 40,
        "cinquantaine" => 50,
        "soixantaine" => 60,
        "centaine" => 100,
        "millier" => 1000,
        _ => return None,
    })
}

/// "une centaine", "deux centaines", "un millier", "une petite centaine",
/// "quelques dizaines" (30), "plusieurs centaines" (300) at `i`: (value,
/// tokens taken). The "de" that may follow is not taken.
pub fn approximate(scan: &Scan, i: usize) -> Option<(u32, usize)> {
    let (count, mut skip) = match scan.word(i)? {
        "un" | "une" | "la" | "quelque" => (1, 1),
        // "Quelques" and "plusieurs" are read as about three.
        "quelques" | "plusieurs" => (3, 1),
        w => match word_value(w) {
            Some(n) if (2..=9).contains(&n) => (n, 1),
            _ => (1, 0),
        },
    };
    // "une petite centaine", "une bonne trentaine": the same order of size.
    if skip == 1
        && scan.is_any(
            i + 1,
            &["petite", "bonne", "grosse", "petit", "bon", "gros"],
        )
    {
        skip += 1;
    }
    let each = approximation(scan.word(i + skip)?)?;
    Some((count * each, skip + 1))
}

/// Suffixes that make an ordinal ("8e", "8ème", "1er").
const ORDINAL_SUFFIXES: &[&str] = &["e", "eme", "er", "em", "ieme", "me"];

/// Ordinal words of the arrondissements, in order.
#[rustfmt::skip]
const ORDINAL_WORDS: [&str; 20] = [
    "premier", "deuxieme", "troisieme", "quatrieme", "cinquieme", "sixieme", "septieme",
    "huitieme", "neuvieme", "dixieme", "onzieme", "douzieme", "treizieme", "quatorzieme",
    "quinzieme", "seizieme", "dix septieme", "dix huitieme", "dix neuvieme", "vingtieme",
];

#[rustfmt::skip]
const ROMAN: [&str; 20] = [
    "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv",
    "xv", "xvi", "xvii", "xviii", "xix", "xx",
];

/// 1 to 20 from a Roman numeral (folded, no suffix).
pub fn roman(word: &str) -> Option<u8> {
    ROMAN
        .iter()
        .position(|r| *r == word)
        .and_then(|p| u8::try_from(p + 1).ok())
}

/// How an ordinal was written: a bare number needs more context than "8e".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// "8e", "VIIIe", "huitième".
    Ordinal,
    /// "8" (a bare Roman numeral is read by the caller, after "Paris" only).
    Bare,
}

/// An arrondissement number 1 to 20 at `i`, as an ordinal or in bare digits:
/// (number, tokens taken, form).
pub fn ordinal(scan: &Scan, i: usize) -> Option<(u8, usize, Form)> {
    if scan.kind(i)? == Kind::Number {
        let n = u8::try_from(scan.number(i)?)
            .ok()
            .filter(|n| (1..=20).contains(n))?;
        if scan.digit_count(i)? > 2 {
            return None;
        }
        let suffix = scan.word(i + 1).filter(|s| ORDINAL_SUFFIXES.contains(s));
        let glued_suffix = suffix.is_some() && (scan.glued(i + 1) || suffix != Some("e"));
        return Some(if glued_suffix {
            (n, 2, Form::Ordinal)
        } else {
            (n, 1, Form::Bare)
        });
    }
    let word = scan.word(i)?;
    for (k, name) in ORDINAL_WORDS.iter().enumerate() {
        if let Some(taken) = scan.phrase(i, name) {
            return Some((u8::try_from(k + 1).ok()?, taken, Form::Ordinal));
        }
    }
    ["eme", "er", "e"].iter().find_map(|suffix| {
        let n = roman(word.strip_suffix(suffix)?)?;
        (n == 1 || *suffix != "er").then_some((n, 1, Form::Ordinal))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with<T>(text: &str, f: impl Fn(&Scan) -> T) -> T {
        f(&Scan::new(text))
    }

    #[test]
    fn digits_with_thousands_groups() {
        assert_eq!(with("1 000 personnes", |s| digits(s, 0)), Some((1000, 2)));
        assert_eq!(with("1.000", |s| digits(s, 0)), Some((1000, 3)));
        assert_eq!(with("15 000 000", |s| digits(s, 0)), Some((15_000_000, 3)));
        assert_eq!(with("2025 200", |s| digits(s, 0)), Some((2025, 1)));
        assert_eq!(with("8 ou 17", |s| digits(s, 0)), Some((8, 1)));
        assert_eq!(with("99999999999", |s| digits(s, 0)), None);
        // No-break and narrow no-break spaces group thousands as French
        // typography writes them.
        assert_eq!(
            with("1\u{a0}200 personnes", |s| digits(s, 0)),
            Some((1200, 1))
        );
        assert_eq!(with("1\u{202f}200", |s| digits(s, 0)), Some((1200, 1)));
        assert_eq!(
            with("15\u{202f}000\u{202f}000", |s| digits(s, 0)),
            Some((15_000_000, 1))
        );
    }

    #[test]
    fn decimals_with_comma_or_dot() {
        assert_eq!(with("1,5 km", |s| decimal(s, 0)), Some((1.5, 3)));
        assert_eq!(with("0.25", |s| decimal(s, 0)), Some((0.25, 3)));
        assert_eq!(with("3, 5", |s| decimal(s, 0)), Some((3.0, 1)));
    }

    #[test]
    fn number_words() {
        let w = |t: &str| with(t, |s| words(s, 0)).map(|(v, _)| v);
        assert_eq!(w("cent cinquante"), Some(150));
        assert_eq!(w("quatre-vingts"), Some(80));
        assert_eq!(w("quatre-vingt-dix"), Some(90));
        assert_eq!(w("soixante-dix"), Some(70));
        assert_eq!(w("soixante et onze"), Some(71));
        assert_eq!(w("deux cent cinquante"), Some(250));
        assert_eq!(w("deux mille"), Some(2000));
        assert_eq!(w("douze"), Some(12));
        assert_eq!(w("cent cent"), Some(100));
        assert_eq!(w("et"), None);
        assert_eq!(w("salle"), None);
    }

    #[test]
    fn approximations() {
        let a = |t: &str| with(t, |s| approximate(s, 0));
        assert_eq!(a("une centaine de personnes"), Some((100, 2)));
        assert_eq!(a("deux centaines"), Some((200, 2)));
        assert_eq!(a("une cinquantaine"), Some((50, 2)));
        assert_eq!(a("un millier"), Some((1000, 2)));
        assert_eq!(a("une salle"), None);
        assert_eq!(a("une petite centaine"), Some((100, 3)));
        assert_eq!(a("une bonne trentaine"), Some((30, 3)));
        assert_eq!(a("quelques dizaines"), Some((30, 2)));
        assert_eq!(a("plusieurs centaines"), Some((300, 2)));
        assert_eq!(a("une petite salle"), None);
    }

    #[test]
    fn ordinals() {
        let o = |t: &str| with(t, |s| ordinal(s, 0));
        assert_eq!(o("8e"), Some((8, 2, Form::Ordinal)));
        assert_eq!(o("8ème"), Some((8, 2, Form::Ordinal)));
        assert_eq!(o("8 ème"), Some((8, 2, Form::Ordinal)));
        assert_eq!(o("1er"), Some((1, 2, Form::Ordinal)));
        assert_eq!(o("VIIIe"), Some((8, 1, Form::Ordinal)));
        assert_eq!(o("XVIe"), Some((16, 1, Form::Ordinal)));
        assert_eq!(o("Ier"), Some((1, 1, Form::Ordinal)));
        assert_eq!(o("dix-septième"), Some((17, 2, Form::Ordinal)));
        assert_eq!(o("huitième"), Some((8, 1, Form::Ordinal)));
        assert_eq!(o("11"), Some((11, 1, Form::Bare)));
        assert_eq!(o("XI"), None);
        assert_eq!(o("08"), Some((8, 1, Form::Bare)));
        assert_eq!(o("21e"), None);
        assert_eq!(o("008"), None);
        assert_eq!(o("ver"), None);
        assert_eq!(o("salle"), None);
    }
}
