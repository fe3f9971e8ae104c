//! Places: arrondissements, communes and centres in their many spellings,
//! and the look-alikes that are not places ("1er étage", "rue Saint-Denis",
//! "vue sur la tour Eiffel").

use super::*;

fn codes(text: &str) -> Vec<String> {
    extract(text).postal_codes
}

#[test]
fn arrondissements_in_every_usual_form() {
    let paris8 = vec!["75008".to_string()];
    for text in [
        "dans le 8ème",
        "dans le 8e",
        "le VIIIe",
        "Paris 8",
        "Paris 8e",
        "Paris VIII",
        "8e arrondissement",
        "huitième arrondissement",
        "8ème arr.",
        "75008",
        "75 008",
        "rooftop 8e",
    ] {
        assert_eq!(codes(text), paris8, "{text}");
    }
    assert_eq!(codes("Paris 11"), vec!["75011"]);
    assert_eq!(codes("11e arrondissement"), vec!["75011"]);
    assert_eq!(codes("75011"), vec!["75011"]);
    assert_eq!(codes("Paris 8 ou 17"), vec!["75008", "75017"]);
    assert_eq!(codes("dans le 1er"), vec!["75001"]);
    assert_eq!(
        codes("XVIe"),
        Vec::<String>::new(),
        "a Roman ordinal needs context"
    );
    assert_eq!(codes("dans le XVIe"), vec!["75016", "75116"]);
    assert_eq!(codes("75116"), vec!["75116"]);
}

#[test]
fn ordinals_that_are_not_arrondissements() {
    for text in [
        "1er étage",
        "au 2e étage",
        "le 1er juin",
        "la 5e édition",
        "notre 10e anniversaire",
        "pour la 3e fois",
        "un château du 17e siècle",
        "la Ve République",
        "2e jour",
        "le 12 juin",
        "Paris",
        "Paris 2024",
        "Paris 8 personnes",
        "dans le 92",
    ] {
        assert_eq!(codes(text), Vec::<String>::new(), "{text}");
    }
}

#[test]
fn communes_by_name() {
    assert_eq!(codes("à Boulogne"), vec!["92100"]);
    assert_eq!(codes("Neuilly"), vec!["92200"]);
    assert_eq!(codes("neuilly sur seine"), vec!["92200"]);
    assert_eq!(codes("ST-DENIS"), vec!["93200"]);
    assert_eq!(codes("Issy"), vec!["92130"]);
    assert_eq!(codes("Sceaux"), vec!["92330"]);
    assert_eq!(codes("un sceau"), Vec::<String>::new());
    assert_eq!(codes("château de Versailles"), vec!["78000"]);
    assert_eq!(codes("rue Saint-Denis"), Vec::<String>::new());
    assert_eq!(codes("bois de Vincennes"), Vec::<String>::new());
    assert_eq!(codes("porte de Saint-Cloud"), Vec::<String>::new());
    assert_eq!(codes("crème chantilly"), Vec::<String>::new());
    assert_eq!(codes("Chantilly"), vec!["60500"]);
}

#[test]
fn around_a_point() {
    // A proximity without a distance has no radius: shown as 0 here.
    let near = |text: &str| {
        extract(text)
            .near
            .map(|n| (n.label, n.radius_km.unwrap_or(0.0)))
    };
    assert_eq!(
        near("à moins de 5 km de la gare de Lyon"),
        Some(("Gare de Lyon".into(), 5.0))
    );
    assert_eq!(
        near("autour de La Défense"),
        Some(("La Défense".into(), 0.0))
    );
    assert_eq!(
        near("près de la tour Eiffel"),
        Some(("Tour Eiffel".into(), 0.0))
    );
    assert_eq!(
        near("dans un rayon de 10 km autour de Versailles"),
        Some(("Versailles".into(), 10.0))
    );
    assert_eq!(near("près de Versailles"), Some(("Versailles".into(), 0.0)));
    assert_eq!(
        near("à 30 minutes en RER de la gare du Nord"),
        Some(("Gare du Nord".into(), 10.0))
    );
    assert_eq!(near("à 1h30 de Paris"), Some(("Paris".into(), 75.0)));
    assert_eq!(
        near("à 500 km de Paris"),
        Some(("Paris".into(), MAX_RADIUS_KM))
    );
    assert_eq!(near("gare de Lyon"), Some(("Gare de Lyon".into(), 0.0)));
    assert_eq!(near("à 3 km de Paris 8e"), Some(("Paris 8e".into(), 3.0)));
    assert_eq!(
        near("4,5 km autour de Paris 20e"),
        Some(("Paris 20e".into(), 4.5))
    );
    assert_eq!(near("près du 8e"), Some(("Paris 8e".into(), 0.0)));
    assert_eq!(near("dans le 8e"), None);
    // A view, a street, Paris without a distance: no centre.
    assert_eq!(near("vue sur la tour Eiffel"), None);
    assert_eq!(near("boulevard Montmartre"), None);
    assert_eq!(near("près de Paris"), None);
    assert_eq!(near("à plus de 20 km de Paris"), None);
    assert_eq!(near("à 10 minutes du métro"), None);
    let c = extract("près de la tour Eiffel");
    let n = c.near.unwrap();
    assert!((n.lat - 48.858).abs() < 0.01 && (n.lng - 2.294).abs() < 0.01);
}

fn elsewhere(text: &str) -> Vec<String> {
    extract(text).places_elsewhere
}

#[test]
fn places_outside_the_area_are_read_apart_and_described_by_nothing() {
    let c = extract("Quels lieux à Lyon pour 80 personnes en théâtre ?");
    assert_eq!(c.places_elsewhere, vec!["Lyon"]);
    assert_eq!(c.participants, Some(80));
    assert!(c.postal_codes.is_empty() && c.near.is_none());
    assert!(!c.semantic_query.to_lowercase().contains("lyon"), "{c:?}");
    assert!(c.has_hard_criteria());
    for (text, places) in [
        ("séminaire en Bretagne", vec!["la Bretagne"]),
        ("un château dans les Alpes", vec!["les Alpes"]),
        ("au Havre, 40 personnes", vec!["Le Havre"]),
        ("à 30 km de Bordeaux", vec!["Bordeaux"]),
        ("près de Genève", vec!["Genève"]),
        ("à Lyon ou Marseille", vec!["Lyon", "Marseille"]),
        (
            "sur Aix-en-Provence ou à Nice",
            vec!["Aix-en-Provence", "Nice"],
        ),
        ("séminaire au vert en province", vec!["la province"]),
    ] {
        assert_eq!(elsewhere(text), places, "{text}");
    }
}

#[test]
fn names_that_are_something_else_here_stay_what_they_are() {
    for text in [
        "près de la gare de Lyon",
        "salle rue de Lyon, 12e",
        "cocktail au champagne pour 50",
        "soirée à Boulogne",
        "Lyon",
        "dîner aux herbes de Provence",
        "boulevard de Strasbourg",
    ] {
        assert!(elsewhere(text).is_empty(), "{text}: {:?}", elsewhere(text));
    }
    let c = extract("dans le 8e ou à Lyon");
    assert_eq!(c.postal_codes, vec!["75008"]);
    assert_eq!(c.places_elsewhere, vec!["Lyon"]);
}
