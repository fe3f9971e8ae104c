//! The kinds of event as the team says them: the key a request stores
//! (`seminaire`, `soiree`…) is never shown to a person.

/// The French label of an event-type key; a key nobody labelled yet is
/// shown as written, its hyphens as spaces.
pub fn label(key: &str) -> String {
    let known = match key.trim() {
        "seminaire" => "séminaire",
        "comite" => "comité de direction",
        "formation" => "formation",
        "conference" => "conférence",
        "assemblee" => "assemblée générale",
        "soiree" => "soirée d'entreprise",
        "lancement" => "lancement produit",
        "afterwork" => "afterwork",
        "diner" => "dîner",
        "gala" => "dîner de gala",
        "dejeuner" => "déjeuner d'affaires",
        "cocktail" => "cocktail",
        "team-building" => "team building",
        "mariage" => "mariage",
        "reunion" => "réunion",
        "festif" => "événement festif",
        other => return other.replace(['-', '_'], " "),
    };
    known.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_as_french() {
        assert_eq!(label("seminaire"), "séminaire");
        assert_eq!(label("team-building"), "team building");
        assert_eq!(label("salon_pro"), "salon pro");
    }
}
