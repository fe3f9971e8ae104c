//! Checks on what callers hand the store, before anything is written: the
//! memory page, the assistant's tools and the summariser all pass here, so
//! a bad input is refused with the same French message wherever it comes from.
use super::{MemoryError, MAX_CONTENT_CHARS, MAX_QUERY_CHARS, MAX_TITLE_CHARS};

/// Most hits a search returns (a tool result must stay small).
pub const MAX_HITS: usize = 50;

/// A required text: trimmed, not blank, at most `max` characters.
pub fn required(field: &'static str, value: &str, max: usize) -> Result<String, MemoryError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(MemoryError::Empty(field));
    }
    bounded(field, value, max)
}

/// An optional text: trimmed, possibly empty, at most `max` characters.
pub fn bounded(field: &'static str, value: &str, max: usize) -> Result<String, MemoryError> {
    let value = value.trim();
    let got = value.chars().count();
    if got > max {
        return Err(MemoryError::TooLong { field, max, got });
    }
    Ok(value.to_string())
}

/// A memory's title and content. A blank title is derived from the content's
/// first line (the summariser and the tools often have only a fact to store).
pub fn memory(title: &str, content: &str) -> Result<(String, String), MemoryError> {
    let content = required("le contenu", content, MAX_CONTENT_CHARS)?;
    let title = bounded("le titre", title, MAX_TITLE_CHARS)?;
    let title = if title.is_empty() {
        derived_title(&content)
    } else {
        title
    };
    Ok((title, content))
}

/// A task's title (required) and description (optional).
pub fn task(title: &str, description: &str) -> Result<(String, String), MemoryError> {
    let title = required("le titre", title, MAX_TITLE_CHARS)?;
    let description = bounded("la description", description, MAX_CONTENT_CHARS)?;
    Ok((title, description))
}

/// A search query: trimmed, not blank, at most [`MAX_QUERY_CHARS`].
pub fn query(query: &str) -> Result<String, MemoryError> {
    let query = query.trim();
    if query.is_empty() {
        return Err(MemoryError::EmptyQuery);
    }
    bounded("la recherche", query, MAX_QUERY_CHARS)
}

/// The first line of `content`, cut to 80 characters on a character boundary.
fn derived_title(content: &str) -> String {
    let line = content.lines().next().unwrap_or_default().trim();
    let mut title: String = line.chars().take(80).collect();
    if line.chars().count() > 80 {
        title.push('…');
    }
    title
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_and_oversized_fields_are_refused_with_their_name() {
        assert!(matches!(
            memory("t", "  \n "),
            Err(MemoryError::Empty("le contenu"))
        ));
        let big = "x".repeat(100 * 1024);
        assert!(matches!(
            memory("t", &big),
            Err(MemoryError::TooLong { field: "le contenu", got, .. }) if got == 100 * 1024
        ));
        assert!(matches!(
            memory(&"é".repeat(MAX_TITLE_CHARS + 1), "ok"),
            Err(MemoryError::TooLong {
                field: "le titre",
                ..
            })
        ));
        assert!(matches!(
            task(" ", "d"),
            Err(MemoryError::Empty("le titre"))
        ));
        assert!(matches!(query(" \t"), Err(MemoryError::EmptyQuery)));
        assert!(matches!(
            query(&"a".repeat(MAX_QUERY_CHARS + 1)),
            Err(MemoryError::TooLong {
                field: "la recherche",
                ..
            })
        ));
    }

    #[test]
    fn limits_count_characters_not_bytes() {
        // 200 accented characters are 400 bytes: still a valid title.
        assert!(memory(&"é".repeat(MAX_TITLE_CHARS), "ok").is_ok());
    }

    #[test]
    fn a_blank_title_comes_from_the_first_line() {
        let (title, content) =
            memory("", "  Le Pavillon ferme en août\nsauf le rooftop ").unwrap_or_default();
        assert_eq!(title, "Le Pavillon ferme en août");
        assert_eq!(content, "Le Pavillon ferme en août\nsauf le rooftop");
        let (long, _) = memory(" ", &"a".repeat(120)).unwrap_or_default();
        assert_eq!(long.chars().count(), 81);
    }
}
