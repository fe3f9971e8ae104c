//! Checks of the free text a write carries (reasons, memos, contents), and
//! the French labels cards use for stored values.
use crate::tools::ToolError;

/// `value` trimmed, refused when empty or longer than `max` characters.
pub fn required(field: &str, value: &str, max: usize) -> Result<String, ToolError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(ToolError::InvalidArguments(format!(
            "« {field} » ne peut pas être vide"
        )));
    }
    at_most(field, value, max)
}

/// `value` trimmed, refused when longer than `max` characters.
pub fn at_most(field: &str, value: &str, max: usize) -> Result<String, ToolError> {
    let value = value.trim();
    // PostgreSQL text (and jsonb) cannot hold a NUL character.
    if value.contains('\0') {
        return Err(ToolError::InvalidArguments(format!(
            "« {field} » contient un caractère nul"
        )));
    }
    let n = value.chars().count();
    if n > max {
        return Err(ToolError::InvalidArguments(format!(
            "« {field} » dépasse {max} caractères ({n})"
        )));
    }
    Ok(value.to_string())
}

/// One sentence: non-empty, at most `max` characters, no line break and no
/// second sentence (a stop followed by a capital letter).
pub fn one_sentence(field: &str, value: &str, max: usize) -> Result<String, ToolError> {
    let value = required(field, value, max)?;
    let refuse = || {
        ToolError::InvalidArguments(format!(
            "« {field} » doit tenir en une seule phrase : « {value} »"
        ))
    };
    if value.contains(['\n', '\r']) {
        return Err(refuse());
    }
    let chars: Vec<char> = value.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if matches!(c, '.' | '!' | '?') {
            let mut rest = chars[i + 1..].iter().skip_while(|c| c.is_whitespace());
            let spaced = chars.get(i + 1).is_some_and(|c| c.is_whitespace());
            // « St. Lazare », « Mme. X »: a short word before a stop is an
            // abbreviation, not the end of a sentence.
            let word = chars[..i]
                .iter()
                .rev()
                .take_while(|c| c.is_alphanumeric())
                .count();
            let ends = *c != '.' || word >= 4;
            if ends && spaced && rest.next().is_some_and(|c| c.is_uppercase()) {
                return Err(refuse());
            }
        }
    }
    Ok(value)
}

/// A request's status inside a sentence (« catalogue envoyé »): the shared
/// French table, lowercased.
pub fn status_label(status: &str) -> String {
    app::fr::request_status(status).to_lowercase()
}

/// The room layouts the database accepts (CHECK of `requests` and
/// `room_capacities`).
pub const CONFIGURATIONS: &[&str] = &[
    "reunion", "u", "theatre", "cabaret", "ecole", "banquet", "cocktail",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_sentence_refuses_two_sentences_and_line_breaks() {
        assert!(one_sentence(
            "reason",
            "Jardin de 300 m², idéal pour 180 en cocktail.",
            300
        )
        .is_ok());
        assert!(one_sentence("reason", "Proche de St. Lazare, terrasse.", 300).is_ok());
        assert!(one_sentence("reason", "Bien. Mais cher.", 300).is_err());
        assert!(one_sentence("reason", "Bien\nmais cher", 300).is_err());
        assert!(one_sentence("reason", "   ", 300).is_err());
        assert!(one_sentence("reason", &"a".repeat(301), 300).is_err());
        assert_eq!(one_sentence("reason", "  Calme.  ", 300).unwrap(), "Calme.");
    }

    #[test]
    fn lengths_count_characters_not_bytes() {
        assert!(at_most("title", &"é".repeat(200), 200).is_ok());
        assert!(at_most("title", &"é".repeat(201), 200).is_err());
        assert!(at_most("title", "a\0b", 200).is_err());
    }
}
