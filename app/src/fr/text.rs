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

/// « Lyon », « Lyon et Marseille », « Lyon, Marseille et Lille ».
pub fn join_and<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [head @ .., last] => {
            let head: Vec<&str> = head.iter().map(AsRef::as_ref).collect();
            format!("{} et {}", head.join(", "), last.as_ref())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{capitalized, join_and};

    #[test]
    fn lists_end_with_et() {
        assert_eq!(join_and::<&str>(&[]), "");
        assert_eq!(join_and(&["Lyon"]), "Lyon");
        assert_eq!(join_and(&["Lyon", "Marseille"]), "Lyon et Marseille");
        assert_eq!(
            join_and(&["Lyon", "Marseille", "la Bretagne"]),
            "Lyon, Marseille et la Bretagne"
        );
    }

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
