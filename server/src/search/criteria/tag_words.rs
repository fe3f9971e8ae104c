//! The words people use for what venue sheets carry as tags: « terrasse »,
//! « péniche », « en sous-sol », « vue sur la Seine ». One list read two
//! ways: by the search, for the kinds of venue a request rules out
//! (`kinds`), and by the assistant's counts, for the features a question
//! asks for or refuses (`planner::features`); a word one understands, the
//! other does too.

/// (folded phrase, tag name).
#[rustfmt::skip]
pub const PHRASES: &[(&str, &str)] = &[
    ("rooftop", "rooftop"), ("rooftops", "rooftop"), ("roof top", "rooftop"),
    ("roof", "rooftop"), ("toit terrasse", "rooftop"), ("toits terrasses", "rooftop"),
    ("toit", "rooftop"),
    ("peniche", "péniche"), ("peniches", "péniche"), ("bateau", "péniche"),
    ("bateaux", "péniche"), ("barge", "péniche"), ("boat", "péniche"), ("boats", "péniche"),
    ("sous sol", "sous-sol"), ("sous sols", "sous-sol"), ("salle en sous sol", "sous-sol"),
    ("basement", "sous-sol"), ("souterrain", "sous-sol"), ("lieu en sous sol", "sous-sol"),
    ("cave", "cave-voûtée"), ("caves", "cave-voûtée"), ("cave voutee", "cave-voûtée"),
    ("caves voutees", "cave-voûtée"), ("cellar", "cave-voûtée"), ("vaulted cellar", "cave-voûtée"),
    ("loft", "loft"), ("lofts", "loft"),
    ("friche", "industriel"), ("friche industrielle", "industriel"), ("entrepot", "industriel"),
    ("lieu industriel", "industriel"), ("warehouse", "industriel"),
    ("industriel", "industriel"), ("industriels", "industriel"),
    ("exterieur", "extérieur"), ("espace exterieur", "extérieur"), ("plein air", "extérieur"),
    ("outdoor", "extérieur"), ("outdoors", "extérieur"),
    ("terrasse", "terrasse"), ("terrasses", "terrasse"),
    ("parking", "parking"), ("parkings", "parking"),
    ("pmr", "accessible-pmr"), ("mobilite reduite", "accessible-pmr"),
    ("fauteuil roulant", "accessible-pmr"), ("fauteuils roulants", "accessible-pmr"),
    ("accessible pmr", "accessible-pmr"), ("accessibles pmr", "accessible-pmr"),
    ("acces pmr", "accessible-pmr"),
    ("jardin", "jardin"), ("jardins", "jardin"), ("parc", "parc"),
    ("hebergement", "hébergement"), ("chambres", "hébergement"),
    ("cheminee", "cheminée"), ("spa", "spa"), ("scene", "scène"),
    ("climatisation", "climatisation"), ("climatise", "climatisation"),
    ("climatises", "climatisation"), ("clim", "climatisation"),
    ("ecran led", "écran-led"), ("sonorisation", "sonorisation"), ("sono", "sonorisation"),
    ("dj", "dj-autorisé"), ("dj autorise", "dj-autorisé"), ("dj autorises", "dj-autorisé"),
    ("traiteur libre", "traiteur-libre"), ("traiteur interne", "traiteur-interne"),
    ("traiteur maison", "traiteur-interne"),
    ("privatisation totale", "privatisation-totale"), ("privatisables", "privatisation-totale"),
    ("privatisable", "privatisation-totale"),
    ("lumiere naturelle", "lumière-naturelle"),
    ("bord de l eau", "bord-de-l-eau"),
    ("vue seine", "vue-seine"), ("vue sur la seine", "vue-seine"),
    ("vue tour eiffel", "vue-tour-eiffel"), ("vue sur la tour eiffel", "vue-tour-eiffel"),
    ("vue panoramique", "vue-panoramique"),
    ("festif", "festif"), ("festifs", "festif"), ("festive", "festif"), ("festives", "festif"),
    ("insolite", "insolite"), ("insolites", "insolite"),
    ("haussmannien", "haussmannien"), ("haussmanniens", "haussmannien"),
    ("art deco", "art-déco"),
    ("eco responsable", "éco-responsable"), ("eco responsables", "éco-responsable"),
];

/// How a person names the tags whose slug does not read as French once
/// its hyphens are spaces (« accessible pmr », « vue seine »); the noun
/// makes « sans espace extérieur » and « sans lieu industriel » read.
#[rustfmt::skip]
const LABELS: &[(&str, &str)] = &[
    ("sous-sol", "sous-sol"), ("cave-voûtée", "cave voûtée"),
    ("industriel", "lieu industriel"), ("extérieur", "espace extérieur"),
    ("accessible-pmr", "accessible PMR"), ("bord-de-l-eau", "bord de l'eau"),
    ("vue-seine", "vue sur la Seine"), ("vue-tour-eiffel", "vue sur la tour Eiffel"),
    ("écran-led", "écran LED"), ("dj-autorisé", "DJ autorisé"), ("art-déco", "Art déco"),
    ("éco-responsable", "éco-responsable"), ("cuisine-démo", "cuisine de démonstration"),
    ("proche-gare", "proche d'une gare"),
];

/// A tag as people read it: its label, or its slug with spaces
/// (« lumière-naturelle » → « lumière naturelle »).
pub fn label(tag: &str) -> String {
    LABELS
        .iter()
        .find(|(slug, _)| *slug == tag)
        .map_or_else(|| tag.replace('-', " "), |(_, label)| (*label).to_string())
}

/// Tags by their labels, each in quotes: « accessible PMR ».
pub fn quoted<S: AsRef<str>>(tags: &[S]) -> Vec<String> {
    tags.iter()
        .map(|t| format!("« {} »", label(t.as_ref())))
        .collect()
}

/// The tags that name a kind of venue, which a search rules out when asked
/// (« pas de rooftop »); a kind asked for stays in the description.
pub const KINDS: &[&str] = &[
    "rooftop",
    "péniche",
    "sous-sol",
    "cave-voûtée",
    "loft",
    "industriel",
    "extérieur",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_read_as_french() {
        assert_eq!(label("accessible-pmr"), "accessible PMR");
        assert_eq!(label("vue-seine"), "vue sur la Seine");
        assert_eq!(label("sous-sol"), "sous-sol");
        assert_eq!(label("lumière-naturelle"), "lumière naturelle");
        assert_eq!(label("extérieur"), "espace extérieur");
        assert_eq!(label("rooftop"), "rooftop");
    }

    #[test]
    fn every_kind_has_words_and_every_phrase_is_folded() {
        for kind in KINDS {
            assert!(PHRASES.iter().any(|(_, t)| t == kind), "{kind}");
        }
        for (phrase, _) in PHRASES {
            assert!(
                phrase.chars().all(|c| c.is_ascii_lowercase() || c == ' '),
                "{phrase}"
            );
        }
        for (_, tag) in PHRASES {
            let label = label(tag);
            assert!(
                !label.is_empty() && !label.contains("pmr"),
                "{tag} → {label}"
            );
        }
        let mut seen = std::collections::HashSet::new();
        for (phrase, _) in PHRASES {
            assert!(seen.insert(phrase), "{phrase} twice");
        }
    }
}
