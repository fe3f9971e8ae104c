//! A pool named in the team's words: « dans les châteaux », « un hôtel »,
//! « pool restaurants ». The slugs are the catalogue's own (the demo's and
//! production's pools); a word that names none leaves the pool open, and
//! the tool's answer says which pools it covered.

/// (slug, how the answer names it, words that name it).
const POOLS: &[(&str, &str, &[&str])] = &[
    (
        "chateaux",
        "Châteaux & domaines",
        &["chateau", "chateaux", "domaine", "domaines"],
    ),
    ("hotels", "Hôtels", &["hotel", "hotels"]),
    (
        "restaurants",
        "Restaurants",
        &["restaurant", "restaurants", "resto", "restos"],
    ),
    (
        "lieux-atypiques",
        "Lieux atypiques",
        &["atypique", "atypiques"],
    ),
    ("salles-seminaires", "Salles de séminaire", &[]),
];

/// The seminar rooms' pool is named by phrases only: « séminaire » alone
/// is the event (« un séminaire pour 40 »), not the pool.
const SEMINAR_PHRASES: &[&str] = &[
    "salles de seminaire",
    "salle de seminaire",
    "pool seminaire",
    "pool seminaires",
];

/// The pool the words name: (slug, name).
pub fn named(w: &[String]) -> Option<(&'static str, &'static str)> {
    let seminar = SEMINAR_PHRASES.iter().any(|p| super::words::phrase(w, p));
    POOLS.iter().find_map(|(slug, name, words)| {
        let says = if *slug == "salles-seminaires" {
            seminar
        } else {
            w.iter().any(|x| words.contains(&x.as_str()))
        };
        says.then_some((*slug, *name))
    })
}

/// Whether a folded word names a pool (« châteaux », « séminaire »): its
/// own words, or a word of the seminar rooms' phrases but « de » and «
/// pool ».
pub fn is_pool_word(w: &str) -> bool {
    POOLS.iter().any(|(_, _, words)| words.contains(&w))
        || (!matches!(w, "de" | "pool")
            && SEMINAR_PHRASES.iter().any(|p| p.split(' ').any(|x| x == w)))
}

/// How an answer names the pool `slug`: its French name when it is one of
/// the catalogue's pools, « le réseau <slug> » never; an unknown slug reads
/// as « réseau » plus the slug with its hyphens as spaces.
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
        ] {
            assert!(is_pool_word(w), "{w}");
        }
        for w in ["de", "pool", "lieu", "terrasse"] {
            assert!(!is_pool_word(w), "{w}");
        }
    }
}
