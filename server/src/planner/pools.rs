//! A pool named in the team's words: « dans les châteaux », « un hôtel »,
//! « pool restaurants ». The slugs are the catalogue's own (the demo's and
//! production's pools); a word that names none leaves the pool open, and
//! the tool's answer says which pools it covered.

/// (slug, how the answer names it, folded phrases that name it; a word
/// alone is a one-word phrase).
#[rustfmt::skip]
const POOLS: &[(&str, &str, &[&str])] = &[
    ("chateaux", "Châteaux & domaines", &["chateau", "chateaux", "domaine", "domaines"]),
    ("hotels", "Hôtels", &["hotel", "hotels"]),
    ("restaurants", "Restaurants", &["restaurant", "restaurants", "resto", "restos"]),
    ("lieux-atypiques", "Lieux atypiques", &["atypique", "atypiques"]),
    // « Séminaire » alone is the event (« un séminaire pour 40 »), not
    // the pool.
    (
        "salles-seminaires",
        "Salles de séminaire",
        &["salles de seminaire", "salle de seminaire", "pool seminaire", "pool seminaires"],
    ),
];

/// The pool the words name: (slug, name).
pub fn named(w: &[String]) -> Option<(&'static str, &'static str)> {
    POOLS.iter().find_map(|(slug, name, phrases)| {
        phrases
            .iter()
            .any(|p| super::words::phrase(w, p))
            .then_some((*slug, *name))
    })
}

/// Whether a folded word is one of the words that name a pool
/// (« châteaux », « séminaire », « pool »).
pub fn is_pool_word(w: &str) -> bool {
    POOLS
        .iter()
        .flat_map(|(_, _, phrases)| phrases.iter())
        .any(|p| p.split(' ').any(|x| x == w))
}

/// How an answer names the pool `slug`: its French name when it is one of
/// the catalogue's pools; an unknown slug reads with its hyphens as spaces.
pub fn name_of(slug: &str) -> String {
    POOLS
        .iter()
        .find(|(s, _, _)| *s == slug)
        .map(|(_, name, _)| (*name).to_string())
        .unwrap_or_else(|| slug.replace('-', " "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::words::words;

    #[test]
    fn pools_by_their_names() {
        assert_eq!(name_of("chateaux"), "Châteaux & domaines");
        assert_eq!(name_of("salles-seminaires"), "Salles de séminaire");
        assert_eq!(name_of("paris-est"), "paris est");
    }

    #[test]
    fn pools_by_their_words() {
        assert_eq!(
            named(&words("un séminaire dans un château")).map(|p| p.0),
            Some("chateaux")
        );
        assert_eq!(
            named(&words("les demandes Hôtels")).map(|p| p.0),
            Some("hotels")
        );
        assert_eq!(
            named(&words("une salle de séminaire à Lyon")).map(|p| p.0),
            Some("salles-seminaires")
        );
        assert_eq!(named(&words("un séminaire pour 40")), None);
    }

    #[test]
    fn pool_words_are_the_names_words() {
        for w in [
            "chateau",
            "hotels",
            "resto",
            "atypique",
            "salle",
            "salles",
            "seminaire",
            "seminaires",
            "pool",
        ] {
            assert!(is_pool_word(w), "{w}");
        }
        for w in ["lieu", "terrasse", "seminar"] {
            assert!(!is_pool_word(w), "{w}");
        }
    }
}
