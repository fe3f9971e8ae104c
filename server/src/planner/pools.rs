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

/// The pool the words name: (slug, name).
pub fn named(w: &[String]) -> Option<(&'static str, &'static str)> {
    if super::words::phrase(w, "salles de seminaire")
        || super::words::phrase(w, "salle de seminaire")
        || super::words::phrase(w, "pool seminaire")
        || super::words::phrase(w, "pool seminaires")
    {
        return Some(("salles-seminaires", "Salles de séminaire"));
    }
    POOLS.iter().find_map(|(slug, name, words)| {
        w.iter()
            .any(|x| words.contains(&x.as_str()))
            .then_some((*slug, *name))
    })
}

/// Whether a folded word names a pool (« châteaux », « séminaire »).
pub fn is_pool_word(w: &str) -> bool {
    matches!(w, "salle" | "salles" | "seminaire" | "seminaires")
        || POOLS.iter().any(|(_, _, words)| words.contains(&w))
}

/// How an answer names the pool `slug`: its French name when it is one of
/// the catalogue's pools, « le réseau <slug> » never; an unknown slug reads
/// as « réseau » plus the slug with its hyphens as spaces.
pub fn name_of(slug: &str) -> String {
    if slug == "salles-seminaires" {
        return "Salles de séminaire".into();
    }
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
}
