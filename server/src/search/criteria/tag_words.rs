//! The words people use for what venue sheets carry as tags: « terrasse »,
//! « péniche », « en sous-sol », « vue sur la Seine ». One list read two
//! ways: by the search, for the kinds of venue a request rules out
//! (`kinds`), and by the assistant's counts, for the features a question
//! asks for or refuses (`planner::features`); a word one understands, the
//! other does too. How a tag reads is `app::fr::tag`.

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

/// The features `text` names, as tags, each once: « Pont-terrasse » names
/// a terrasse, « Péniche Lumière » a péniche. For names, which state what
/// a place is; a description may say « pas de parking ».
pub fn named(text: &str) -> Vec<&'static str> {
    let folded = app::geo::fold(text);
    let words: Vec<&str> = folded.split(' ').collect();
    let mut tags: Vec<&'static str> = Vec::new();
    for (phrase, tag) in PHRASES {
        let parts: Vec<&str> = phrase.split(' ').collect();
        if !tags.contains(tag) && words.windows(parts.len()).any(|w| w == parts.as_slice()) {
            tags.push(tag);
        }
    }
    tags
}

/// Tags by their labels, each in quotes: « accessible PMR ».
pub fn quoted<S: AsRef<str>>(tags: &[S]) -> Vec<String> {
    tags.iter()
        .map(|t| format!("« {} »", app::fr::tag(t.as_ref())))
        .collect()
}

/// The catalogue's tag someone typed: as the catalogue spells it (any
/// case), else by its slug or its label with accents, hyphens and case set
/// aside (« accessible PMR », « vue sur la seine », « sous sol »). Team
/// members type labels, having read them on the sheets; so may the model.
pub fn catalogue_tag<'a>(catalogue: &'a [String], typed: &str) -> Option<&'a String> {
    let lower = typed.trim().to_lowercase();
    let folded = app::geo::fold(typed);
    catalogue
        .iter()
        .find(|t| t.to_lowercase() == lower)
        .or_else(|| {
            catalogue
                .iter()
                .find(|t| app::geo::fold(t) == folded || app::geo::fold(&app::fr::tag(t)) == folded)
        })
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
    fn a_tag_is_found_by_its_slug_or_its_label() {
        let catalogue: Vec<String> = ["accessible-pmr", "Rooftop", "sous-sol", "vue-seine"]
            .map(String::from)
            .to_vec();
        let found = |typed: &str| catalogue_tag(&catalogue, typed).map(String::as_str);
        assert_eq!(found("accessible-pmr"), Some("accessible-pmr"));
        assert_eq!(found("Accessible PMR"), Some("accessible-pmr"));
        assert_eq!(found(" rooftop "), Some("Rooftop"));
        assert_eq!(found("sous sol"), Some("sous-sol"));
        assert_eq!(found("Vue sur la Seine"), Some("vue-seine"));
        assert_eq!(found("vue sur mer"), None);
        assert_eq!(found(""), None);
    }

    #[test]
    fn a_name_says_what_a_place_has() {
        assert_eq!(named("Pont-terrasse"), ["terrasse"]);
        assert_eq!(
            named("La Péniche Lumière Salle du sous-sol"),
            ["péniche", "sous-sol"]
        );
        assert_eq!(
            named("Le Caveau du Panthéon Grande halle"),
            Vec::<&str>::new()
        );
        assert_eq!(named(""), Vec::<&str>::new());
    }

    #[test]
    fn every_kind_has_words_and_every_phrase_is_folded() {
        for tag in KINDS {
            assert!(PHRASES.iter().any(|(_, t)| t == tag), "{tag}");
        }
        for (phrase, _) in PHRASES {
            assert!(
                phrase.chars().all(|c| c.is_ascii_lowercase() || c == ' '),
                "{phrase}"
            );
        }
        let mut seen = std::collections::HashSet::new();
        for (phrase, _) in PHRASES {
            assert!(seen.insert(phrase), "{phrase} twice");
        }
    }
}
