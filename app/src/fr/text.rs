//! Small text helpers shared by the labels and the sentences built from them.

/// The text with its first letter in upper case: « à ne plus proposer »
/// becomes « À ne plus proposer » when it starts a sentence or a choice.
pub fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::capitalized;

    #[test]
    fn only_the_first_letter_changes() {
        assert_eq!(capitalized("à ne plus proposer"), "À ne plus proposer");
        assert_eq!(
            capitalized("éco-responsable, calme"),
            "Éco-responsable, calme"
        );
        assert_eq!(capitalized("Déjà"), "Déjà");
        assert_eq!(capitalized(""), "");
    }
}
