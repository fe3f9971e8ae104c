//! Properties: `extract` never panics, ignores case and accents, and what
//! it leaves in the semantic query holds no criterion it did not take.

use super::*;
use proptest::prelude::*;
use proptest::sample::select;

/// Words and symbols the extractors react to, to build adversarial text.
#[rustfmt::skip]
const VOCAB: &[&str] = &[
    "pour", "100", "8", "12", "1", "000", "personnes", "pers", ".", "invités", "Paris", "8e",
    "1er", "XVIe", "dans", "le", "la", "du", "près", "de", "gare", "Lyon", "à", "moins", "km",
    "5", "1,5", "minutes", "pied", ",", "en", "cocktail", "ou", "et", "banquet", "U", "dîner",
    "assis", "#", "#102", "Boulogne", "Saint", "Denis", "Saint-Denis", "rue", "vue", "sur",
    "tour", "Eiffel", "entre", "IDF", "toute", "l'", "n'importe", "où", "Île-de-France",
    "75011", "92100", "arrondissement", "une", "centaine", "étage", "juin", "€", "/", "-",
    "pas", "théâtre", "style", "école", "La", "Défense", "Versailles", "rayon", "autour",
    "Bercy", "une", "heure", "quinzaine", "jours", "m²", "rooftop", "festif", "avec", "🎉",
    "quartier", "Opéra", "vers", "Montmartre", "boulevard", "environ", "max", "jauge", ":",
    "2e", "VIII", "arr", "huitième", "cinquante", "trois", "cent", "debout", "format", "salle",
    "réunion", "d'", "demi", "h", "30", "20", "300", "1900", "2026", "075", "008", "#157",
    "Neuilly", "sur", "Marne", "plus", "au", "Centre", "région", "parisienne", "Sceaux",
    "crème", "Chantilly", "porte", "bois", "Roissy", "aéroport", "mètres", "m", "2",
    "5/6", "Ve", "05", "75005", "75999", "75000", "rive", "gauche", "droite", "Marais",
    "Quartier", "latin", "Pigalle", "Belleville", "petite", "couronne", "forcément", "intra-muros",
    "hors", "Montparnasse", "Passy", "Colombes", "cœur",
];

fn vocab_text() -> impl Strategy<Value = String> {
    prop::collection::vec(select(VOCAB), 0..24).prop_map(|words| words.join(" "))
}

/// Lower case and no accents, punctuation kept.
fn plain(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_alphabetic() {
            geo::fold_char_into(c, &mut out);
        } else {
            out.push(c);
        }
    }
    out
}

/// The hard fields, the folded semantic query and the notes.
fn comparable(c: &Criteria) -> (Criteria, String) {
    let hard = Criteria {
        semantic_query: String::new(),
        ..c.clone()
    };
    (hard, geo::fold(&c.semantic_query))
}

/// A realistic query: (text, head count, arrondissement asked for).
fn realistic() -> impl Strategy<Value = (String, u32, Option<u8>)> {
    let opener = select(vec![
        "",
        "Trouve-moi",
        "Je cherche",
        "Bonjour, je cherche",
        "Il nous faut",
    ]);
    let subject = select(vec![
        "un rooftop festif",
        "une péniche",
        "un loft industriel",
        "une salle lumineuse",
        "un hôtel particulier",
        "un restaurant gastronomique",
        "une galerie d'art",
        "un château avec parc",
        "une cave voûtée",
        "un espace atypique",
    ]);
    let wish = select(vec![
        "avec vue sur Paris",
        "ambiance chic",
        "avec terrasse",
        "au calme",
        "avec un jardin",
        "lumière naturelle",
        "avec parking",
        "décor industriel",
        "",
    ]);
    // Below 1900: "pour 2026" is a year.
    let people = (
        2u32..1900,
        select(vec![
            "{} personnes",
            "pour {} personnes",
            "{} pers.",
            "pour {}",
            "{} invités",
            "{} pax",
            "{} couverts",
        ]),
    );
    let place = (
        1u8..=20,
        select(vec![
            "dans le {}e",
            "Paris {}",
            "750{:02}",
            "{}e arrondissement",
            "Paris {}e",
            "dans le {}ème",
        ]),
    );
    let layout = select(vec![
        "",
        "en cocktail",
        "en banquet",
        "dîner assis",
        "en U",
        "en théâtre",
        "en cocktail ou banquet",
        "debout",
        "style école",
    ]);
    let separator = select(vec![" ", ", "]);
    (
        opener,
        subject,
        wish,
        people,
        prop::option::of(place),
        layout,
        separator,
        any::<u64>(),
    )
        .prop_map(
            |(opener, subject, wish, (n, people), place, layout, separator, order)| {
                let people = people.replace("{}", &n.to_string());
                let place_text = place.map(|(k, form)| {
                    if form.contains("{:02}") {
                        format!("750{k:02}")
                    } else {
                        form.replace("{}", &k.to_string())
                    }
                });
                let mut parts: Vec<String> = [people, layout.to_string(), wish.to_string()]
                    .into_iter()
                    .chain(place_text)
                    .filter(|p| !p.is_empty())
                    .collect();
                // A deterministic shuffle driven by the generated seed.
                let len = parts.len();
                parts.rotate_left(usize::try_from(order % len as u64).unwrap_or(0));
                let text = format!("{opener} {subject}{separator}{}", parts.join(separator));
                (text, n, place.map(|(k, _)| k))
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn never_panics_on_any_text(text in any::<String>()) {
        let c = extract(&text);
        prop_assert!(c.semantic_query.len() <= text.len());
    }

    #[test]
    fn never_panics_on_french_like_text(text in "[a-zA-Z0-9àâçéèêëîïôûùüœÉÈÎ ,.;:'’#€/%²-]{0,200}") {
        let _ = extract(&text);
    }

    #[test]
    fn case_and_accents_do_not_change_results(text in vocab_text()) {
        let reference = comparable(&extract(&text));
        prop_assert_eq!(&comparable(&extract(&text.to_uppercase())), &reference);
        prop_assert_eq!(&comparable(&extract(&plain(&text))), &reference);
    }

    #[test]
    fn case_and_accents_do_not_change_results_on_any_french(text in "[a-zA-Z0-9àâçéèêëîïôûùüœ ,.'#€/-]{0,120}") {
        let reference = comparable(&extract(&text));
        prop_assert_eq!(&comparable(&extract(&text.to_uppercase())), &reference);
        prop_assert_eq!(&comparable(&extract(&plain(&text))), &reference);
    }

    #[test]
    fn leftovers_hold_no_new_criteria(text in vocab_text()) {
        let first = extract(&text);
        let again = extract(&first.semantic_query);
        prop_assert!(again.postal_codes.iter().all(|c| first.postal_codes.contains(c)), "{:?} → {:?}", text, first.semantic_query);
        prop_assert!(again.member_codes.iter().all(|c| first.member_codes.contains(c)), "{:?} → {:?}", text, first.semantic_query);
        prop_assert!(again.near.is_none() || first.near.is_some(), "{:?} → {:?}", text, first.semantic_query);
        prop_assert!(again.participants.is_none() || first.participants.is_some(), "{:?} → {:?}", text, first.semantic_query);
        // Weak layout words stay when an explicit layout won ("en théâtre
        // suivie d'un cocktail"): only a first layout would be new.
        prop_assert!(again.configurations.is_empty() || !first.configurations.is_empty(), "{:?} → {:?}", text, first.semantic_query);
        prop_assert!(!again.broad_area || first.broad_area || first.has_hard_criteria(), "{:?} → {:?}", text, first.semantic_query);
    }

    #[test]
    fn realistic_queries_give_up_their_criteria((text, n, arrondissement) in realistic()) {
        let c = extract(&text);
        prop_assert_eq!(c.participants, Some(n), "{:?}", text);
        if let Some(k) = arrondissement {
            let code = format!("750{k:02}");
            prop_assert!(c.postal_codes.contains(&code), "{:?} gave {:?}", text, c.postal_codes);
        }
        let words: Vec<String> = geo::fold(&c.semantic_query).split(' ').map(str::to_string).collect();
        prop_assert!(!words.contains(&n.to_string()), "{:?} → {:?}", text, c.semantic_query);
        for code in &c.postal_codes {
            prop_assert!(!c.semantic_query.contains(code.as_str()), "{:?} → {:?}", text, c.semantic_query);
        }
        let again = extract(&c.semantic_query);
        prop_assert!(!again.has_hard_criteria(), "{:?} → {:?} → {:?}", text, c.semantic_query, again);
        prop_assert!(!c.semantic_query.is_empty(), "{:?}", text);
    }
}
