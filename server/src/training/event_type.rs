//! Event types as the team writes them: free text (« cocktail dînatoire »
//! is its own kind of event) stored lower-case and trimmed, compared by a
//! key that ignores case, accents and punctuation and maps the few known
//! spellings of one event onto one (« after work » = « afterwork »).
//!
//! [`key`] is the twin of the SQL function `training_event_key`
//! (migration 0016): the search compares in SQL, the validator and the
//! reasons in Rust, and a test holds the two together.

/// The longest event type accepted.
pub const MAX_CHARS: usize = 60;

/// Known spellings of one event, by key.
const SYNONYMS: &[(&str, &str)] = &[
    ("after work", "afterwork"),
    ("teambuilding", "team building"),
    ("seminar", "seminaire"),
    ("soiree d entreprise", "soiree"),
];

/// How an event type is stored: trimmed, lower-case, inner whitespace
/// collapsed; `None` when nothing is left.
pub fn normalize(raw: &str) -> Option<String> {
    let text = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    (!text.is_empty()).then(|| text.to_lowercase())
}

/// One character without its accent (the same table as the SQL function;
/// a `match`, as the search folds every finalist's texts).
fn fold_char(c: char) -> char {
    match c {
        'à' | 'â' | 'ä' | 'á' | 'ã' | 'å' | 'æ' | 'À' | 'Â' | 'Ä' | 'Á' | 'Ã' | 'Å' | 'Æ' => {
            'a'
        }
        'ç' | 'Ç' => 'c',
        'é' | 'è' | 'ê' | 'ë' | 'É' | 'È' | 'Ê' | 'Ë' => 'e',
        'í' | 'ì' | 'î' | 'ï' | 'Í' | 'Ì' | 'Î' | 'Ï' => 'i',
        'ñ' | 'Ñ' => 'n',
        'ó' | 'ò' | 'ô' | 'ö' | 'õ' | 'œ' | 'Ó' | 'Ò' | 'Ô' | 'Ö' | 'Õ' | 'Œ' => 'o',
        'ú' | 'ù' | 'û' | 'ü' | 'Ú' | 'Ù' | 'Û' | 'Ü' => 'u',
        'ý' | 'ÿ' | 'Ý' | 'Ÿ' => 'y',
        other => other,
    }
}

/// `text` folded: accents removed, lower case, every run of characters
/// other than `a-z0-9` one space, trimmed.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut gap = false;
    for c in text.chars().map(fold_char).flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            if gap && !out.is_empty() {
                out.push(' ');
            }
            gap = false;
            out.push(c);
        } else {
            gap = true;
        }
    }
    out
}

/// The comparison key of an event type.
pub fn key(event_type: &str) -> String {
    let folded = fold(event_type);
    match SYNONYMS.iter().find(|(from, _)| *from == folded) {
        Some((_, to)) => (*to).to_string(),
        None => folded,
    }
}

/// Whether two event types name the same kind of event.
pub fn same(a: &str, b: &str) -> bool {
    key(a) == key(b)
}

/// Whether `phrase` (folded) appears in `text` (folded) as whole words.
pub fn contains_words(text_folded: &str, phrase: &str) -> bool {
    let phrase = fold(phrase);
    !phrase.is_empty() && format!(" {text_folded} ").contains(&format!(" {phrase} "))
}

/// « un cocktail », « une soirée »: the article of an event type, guessed
/// from its ending (French event names ending in -ée, -ion, -ence or -ie
/// are feminine; the others the team uses are masculine).
pub fn with_article(event_type: &str) -> String {
    let k = key(event_type);
    let first = k.split(' ').next().unwrap_or_default();
    let feminine = ["ee", "ion", "ence", "ie", "ete", "fete"]
        .iter()
        .any(|end| first.ends_with(end))
        || matches!(
            first,
            "fete" | "journee" | "reception" | "remise" | "croisiere"
        );
    let article = if feminine { "une" } else { "un" };
    format!("{article} {event_type}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_accents_and_punctuation_do_not_matter() {
        assert_eq!(key("  Séminaire "), "seminaire");
        assert_eq!(key("SEMINAIRE"), key("séminaire"));
        assert_eq!(key("Team-Building"), "team building");
        assert_eq!(key("after-work"), "afterwork");
        assert_eq!(key("Cocktail dînatoire"), "cocktail dinatoire");
        assert_ne!(key("cocktail dînatoire"), key("cocktail"));
        assert_eq!(key("ÉTÉ"), "ete");
        assert_eq!(key("!!!"), "");
    }

    #[test]
    fn stored_form_keeps_the_words() {
        assert_eq!(
            normalize("  Cocktail   Dînatoire "),
            Some("cocktail dînatoire".into())
        );
        assert_eq!(normalize("   "), None);
    }

    #[test]
    fn phrases_match_whole_words_only() {
        let text = fold("Un cocktail festif, 80 personnes");
        assert!(contains_words(&text, "Cocktail"));
        assert!(contains_words(&text, "cocktail festif"));
        assert!(!contains_words(&text, "cock"));
        assert!(!contains_words(&text, ""));
    }

    #[test]
    fn articles() {
        assert_eq!(with_article("cocktail"), "un cocktail");
        assert_eq!(with_article("soirée"), "une soirée");
        assert_eq!(with_article("formation"), "une formation");
        assert_eq!(with_article("séminaire"), "un séminaire");
        assert_eq!(with_article("conférence"), "une conférence");
    }
}
