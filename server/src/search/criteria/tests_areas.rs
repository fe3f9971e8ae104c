//! Places as the contract reads them: arrondissements in every spelling
//! and in lists, named areas as their postal codes, Paris as a whole,
//! areas too broad to filter, unknown postal codes, and proximities that
//! rank without excluding.

use super::*;

fn codes(text: &str) -> Vec<String> {
    extract(text).postal_codes
}

/// (label, radius) of the centre, if any.
fn near(text: &str) -> Option<(String, Option<f64>)> {
    extract(text).near.map(|n| (n.label, n.radius_km))
}

fn paris_all() -> Vec<String> {
    geo::ARRONDISSEMENTS
        .iter()
        .flat_map(|a| a.postal_codes())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_fifth_in_every_spelling() {
    for text in [
        "5e",
        "5ème",
        "5eme",
        "dans le Ve",
        "Paris Ve",
        "Paris 5",
        "Paris 05",
        "75005",
        "5e arrondissement",
        "dans le cinquième",
        "cinquième arrondissement",
        "un loft dans le 5",
    ] {
        assert_eq!(codes(text), ["75005"], "{text}");
    }
}

#[test]
fn lists_of_arrondissements() {
    let cases: &[(&str, &[&str])] = &[
        ("le 5 ou le 6", &["75005", "75006"]),
        ("dans le 5 ou le 6", &["75005", "75006"]),
        ("Paris 5/6", &["75005", "75006"]),
        ("5e, 6e ou 7e", &["75005", "75006", "75007"]),
        ("75005 et 75006", &["75005", "75006"]),
        ("Paris 5, 6 ou 7", &["75005", "75006", "75007"]),
        ("dans le 16 ou le 17", &["75016", "75116", "75017"]),
    ];
    for (text, want) in cases {
        assert_eq!(codes(text), *want, "{text}");
    }
    // Days of the month, not arrondissements.
    for text in [
        "le 5 ou le 6 juin",
        "dispo le 5 ou le 6",
        "le 5 ou le 6 à 19h",
        "pour le 5 ou le 6",
        "le 5",
    ] {
        assert_eq!(codes(text), Vec::<String>::new(), "{text}");
    }
}

#[test]
fn named_areas_are_their_postal_codes() {
    let cases: &[(&str, &[&str])] = &[
        (
            "rive gauche",
            &["75005", "75006", "75007", "75013", "75014", "75015"],
        ),
        (
            "Paris rive gauche",
            &["75005", "75006", "75007", "75013", "75014", "75015"],
        ),
        (
            "plutôt rive droite",
            &[
                "75001", "75002", "75003", "75004", "75008", "75009", "75010", "75011", "75012",
                "75016", "75116", "75017", "75018", "75019", "75020",
            ],
        ),
        ("dans le Marais", &["75003", "75004"]),
        ("au cœur du Marais", &["75003", "75004"]),
        ("quartier du Marais", &["75003", "75004"]),
        ("Quartier latin", &["75005"]),
        ("dans le quartier latin", &["75005"]),
        ("à Saint-Germain-des-Prés", &["75006"]),
        ("à Montmartre", &["75018"]),
        ("aux Batignolles", &["75017"]),
        ("Belleville", &["75019", "75020"]),
        ("sur les Champs-Élysées", &["75008"]),
        ("Triangle d'or", &["75008"]),
        ("Grands Boulevards", &["75002", "75009"]),
        ("le long du canal Saint-Martin", &["75010"]),
        ("quartier Oberkampf", &["75011"]),
        ("à la Butte-aux-Cailles", &["75013"]),
        ("Passy ou Auteuil", &["75016", "75116"]),
        ("Pigalle", &["75009", "75018"]),
        ("Montmartre ou Pigalle", &["75018", "75009"]),
        ("à La Défense", &["92400", "92800"]),
    ];
    for (text, want) in cases {
        let c = extract(text);
        assert_eq!(c.postal_codes, *want, "{text}");
        assert_eq!(c.near, None, "{text}");
    }
    // Streets, views and ordinary words are no areas.
    for text in [
        "rue Oberkampf",
        "boulevard Montmartre",
        "vue sur Montmartre",
        "rue de Belleville",
        "un marais salant",
        "la défense de nos intérêts",
    ] {
        assert_eq!(codes(text), Vec::<String>::new(), "{text}");
    }
    assert_eq!(extract("Paris rive gauche").semantic_query, "");
    // The countryside is no avenue.
    assert_eq!(near("mariage dans les champs"), None);
    assert!(near("près des Champs").is_some());
}

#[test]
fn a_place_inside_a_wide_area_narrows_it() {
    assert_eq!(codes("à Paris, dans le 8e"), ["75008"]);
    assert_eq!(
        codes("sur Paris, idéalement dans le Marais"),
        ["75003", "75004"]
    );
    assert_eq!(codes("rive gauche, 6e ou 7e"), ["75006", "75007"]);
    assert_eq!(codes("Courbevoie – La Défense"), ["92400"]);
    assert_eq!(codes("Paris Centre, dans le 3e"), ["75003"]);
    // A place outside adds up.
    let mut paris_or_boulogne = paris_all();
    paris_or_boulogne.push("92100".into());
    assert_eq!(codes("à Paris ou à Boulogne"), paris_or_boulogne);
    // Offered as alternatives, they add up too.
    assert_eq!(
        codes("Paris 7e ou rive gauche"),
        ["75007", "75005", "75006", "75013", "75014", "75015"]
    );
    assert_eq!(
        codes("rive gauche ou le 8e"),
        ["75005", "75006", "75007", "75013", "75014", "75015", "75008"]
    );
}

#[test]
fn paris_as_a_whole() {
    for text in [
        "à Paris",
        "dans Paris",
        "sur Paris",
        "Paris intra-muros",
        "un lieu intra-muros",
        "au cœur de Paris",
        "rooftop sur Paris pour 40",
        "75000",
    ] {
        assert_eq!(codes(text), paris_all(), "{text}");
    }
    assert_eq!(codes("Paris centre"), ["75001", "75002", "75003", "75004"]);
    for text in [
        "vue sur Paris",
        "rooftop avec une vue imprenable sur Paris",
        "Paris",
        "l'Opéra de Paris",
    ] {
        assert_eq!(codes(text), Vec::<String>::new(), "{text}");
    }
    let c = extract("un rooftop à Paris pour 40 personnes");
    assert_eq!(c.notes[0], "Paris intra-muros (75001 à 75020)");
    assert_eq!(c.semantic_query, "rooftop");
}

#[test]
fn too_broad_for_codes() {
    for text in [
        "Paris ou petite couronne",
        "à Paris ou en petite couronne",
        "Paris ou proche banlieue",
        "pas forcément dans Paris",
        "pas forcément à Paris, 80 personnes",
        "hors Paris",
        "en petite couronne",
        "Île-de-France",
        "n'importe où",
    ] {
        let c = extract(text);
        assert!(c.broad_area, "{text}");
        assert_eq!(c.postal_codes, Vec::<String>::new(), "{text}");
    }
    // A narrower place wins.
    let c = extract("n'importe où dans Paris");
    assert!(!c.broad_area);
    assert_eq!(c.postal_codes, paris_all());
}

#[test]
fn unknown_postal_codes_get_a_notice() {
    let c = extract("un loft dans le 75999");
    assert_eq!(c.postal_codes, Vec::<String>::new());
    assert_eq!(c.unknown_postal_codes, ["75999"]);
    assert!(!c.broad_area);
    assert!(
        c.notes
            .iter()
            .any(|n| n.contains("75999") && n.contains("inconnu")),
        "{:?}",
        c.notes
    );
    let c = extract("75021 ou 75011");
    assert_eq!(c.postal_codes, ["75011"]);
    assert_eq!(c.unknown_postal_codes, ["75021"]);
    // Codes outside Paris the gazetteer does not know stay postal codes.
    assert_eq!(codes("92999"), ["92999"]);
    assert!(extract("92999").unknown_postal_codes.is_empty());
    // Amounts are no codes at all.
    assert!(extract("budget 75 500 €").unknown_postal_codes.is_empty());
}

#[test]
fn a_proximity_ranks_without_excluding() {
    let cases: &[(&str, &str)] = &[
        ("près de la gare du Nord", "Gare du Nord"),
        ("autour de Bastille", "Bastille"),
        ("à deux pas du Louvre", "Louvre"),
        ("près du Marais", "Le Marais"),
        ("autour de la Défense", "La Défense"),
        ("près de Montmartre", "Montmartre"),
        ("près de Versailles", "Versailles"),
        ("gare de Lyon", "Gare de Lyon"),
    ];
    for (text, label) in cases {
        assert_eq!(near(text), Some((label.to_string(), None)), "{text}");
        assert!(codes(text).is_empty(), "{text}");
    }
    let c = extract("près de la gare du Nord");
    assert_eq!(c.notes, ["près de la gare du Nord (classés par distance)"]);
}

#[test]
fn a_distance_is_a_hard_radius() {
    let cases: &[(&str, &str, f64)] = &[
        (
            "à 1 km max de la tour Montparnasse",
            "Tour Montparnasse",
            1.0,
        ),
        ("à 10 min à pied de Saint-Lazare", "Gare Saint-Lazare", 0.8),
        (
            "dans un rayon de 5 km autour de Versailles",
            "Versailles",
            5.0,
        ),
        ("à 2 km du Marais", "Le Marais", 2.0),
        ("à 1 km de Passy", "Passy", 1.0),
    ];
    for (text, label, km) in cases {
        assert_eq!(near(text), Some((label.to_string(), Some(*km))), "{text}");
        assert!(codes(text).is_empty(), "{text}");
    }
}

#[test]
fn postal_codes_and_a_radius_together() {
    let c = extract("dans le 15e, à 1 km max de la tour Montparnasse");
    assert_eq!(c.postal_codes, ["75015"]);
    let n = c.near.unwrap();
    assert_eq!(
        (n.label.as_str(), n.radius_km),
        ("Tour Montparnasse", Some(1.0))
    );
}

#[test]
fn communes_by_their_short_names() {
    let cases: &[(&str, &str)] = &[
        ("à Boulogne", "92100"),
        ("Issy", "92130"),
        ("Neuilly", "92200"),
        ("St-Denis", "93200"),
        ("à Levallois", "92300"),
        ("Vélizy", "78140"),
        ("à Colombes", "92700"),
        ("Bois-Colombes", "92270"),
    ];
    for (text, code) in cases {
        assert_eq!(codes(text), [*code], "{text}");
    }
}
