//! Gazetteer invariants (well-formed tables, unambiguous names, real-looking
//! coordinates) and the lookups the extractor relies on.

use super::*;

fn all_aliases() -> Vec<(&'static str, &'static str)> {
    let mut all = Vec::new();
    for c in COMMUNES {
        all.extend(c.aliases.iter().map(|a| (*a, c.name)));
    }
    for l in LANDMARKS {
        for list in [l.bare, l.triggered, l.distance_only] {
            all.extend(list.iter().map(|a| (*a, l.name)));
        }
    }
    all
}

#[test]
fn aliases_are_folded_and_unique() {
    let all = all_aliases();
    for (alias, name) in &all {
        assert_eq!(&fold(alias), alias, "alias of {name} is not folded");
        let owners: Vec<_> = all.iter().filter(|(a, _)| a == alias).collect();
        assert_eq!(owners.len(), 1, "alias {alias:?} is ambiguous: {owners:?}");
    }
}

#[test]
fn every_commune_is_found_by_its_name() {
    for c in COMMUNES {
        assert_eq!(c.postal_code.len(), 5, "{}", c.name);
        assert!(
            c.postal_code.bytes().all(|b| b.is_ascii_digit()),
            "{}",
            c.name
        );
        assert_eq!(lookup(c.aliases[0]), Some(Place::Commune(c)), "{}", c.name);
    }
}

#[test]
fn coordinates_are_in_and_around_ile_de_france() {
    let points = ARRONDISSEMENTS
        .iter()
        .map(|a| (a.lat, a.lng))
        .chain(COMMUNES.iter().map(|c| (c.lat, c.lng)))
        .chain(LANDMARKS.iter().map(|l| (l.lat, l.lng)));
    for (lat, lng) in points {
        assert!(
            (48.1..49.3).contains(&lat) && (1.4..3.6).contains(&lng),
            "{lat}, {lng}"
        );
    }
    // Arrondissement centres are inside Paris (10 km of the centre).
    for a in &ARRONDISSEMENTS {
        assert!(
            distance_km(PARIS_CENTRE, (a.lat, a.lng)) < 6.0,
            "{}",
            a.name
        );
    }
}

#[test]
fn arrondissements_by_number_and_postal_code() {
    for n in 1..=20u8 {
        let a = arrondissement(n).unwrap();
        assert_eq!(a.number, n);
        assert_eq!(a.postal_code, format!("750{n:02}"));
        assert_eq!(arrondissement_center(a.postal_code), Some((a.lat, a.lng)));
    }
    assert_eq!(arrondissement(0), None);
    assert_eq!(arrondissement(21), None);
    assert_eq!(arrondissement_by_postal_code("75116").unwrap().number, 16);
    assert_eq!(arrondissement(1).unwrap().name, "Paris 1er");
    assert_eq!(arrondissement(8).unwrap().name, "Paris 8e");
    assert_eq!(arrondissement_center("75021"), None);
    assert_eq!(arrondissement_center("92100"), None);
}

#[test]
fn postal_code_lookups() {
    assert_eq!(
        commune_by_postal_code("92100").unwrap().name,
        "Boulogne-Billancourt"
    );
    assert_eq!(commune_by_postal_code("78000").unwrap().name, "Versailles");
    assert_eq!(commune_by_postal_code("75008"), None);
    assert!(postal_code_center("75008").is_some());
    assert!(postal_code_center("93200").is_some());
    assert_eq!(postal_code_center("13001"), None);
}

#[test]
fn lookup_ignores_accents_case_and_hyphens() {
    let name = |s: &str| lookup(s).map(Place::name);
    assert_eq!(name("Saint Denis"), Some("Saint-Denis"));
    assert_eq!(name("st-denis"), Some("Saint-Denis"));
    assert_eq!(name("ISSY"), Some("Issy-les-Moulineaux"));
    assert_eq!(name("neuilly"), Some("Neuilly-sur-Seine"));
    assert_eq!(name("Neuilly-sur-Marne"), Some("Neuilly-sur-Marne"));
    assert_eq!(name("Créteil"), Some("Créteil"));
    assert_eq!(name("creteil"), Some("Créteil"));
    assert_eq!(name("Gare de l’Est"), Some("Gare de l'Est"));
    assert_eq!(name("Sacré-Cœur"), Some("Montmartre"));
    assert_eq!(name("la défense"), Some("La Défense"));
    assert_eq!(name("Sceaux"), Some("Sceaux"));
    assert_eq!(name("sceau"), None);
    assert_eq!(name("Lyon"), None);
    assert_eq!(name(""), None);
}

#[test]
fn longest_name_wins_and_context_gates_ambiguous_names() {
    let words = |s: &str| fold(s).split(' ').map(str::to_string).collect::<Vec<_>>();
    let m = match_place(&words("la plaine saint denis pour 80"), Context::Bare).unwrap();
    assert_eq!((m.place.name(), m.words), ("Saint-Denis – La Plaine", 4));
    let m = match_place(&words("bois de boulogne"), Context::Bare).unwrap();
    assert_eq!(m.place.name(), "Bois de Boulogne");
    let m = match_place(&words("roissy en france"), Context::Bare).unwrap();
    assert_eq!(m.place.name(), "Roissy-en-France");
    // "tour Eiffel" needs a proximity word, "Paris" an explicit distance.
    assert_eq!(match_place(&words("tour eiffel"), Context::Bare), None);
    assert!(match_place(&words("tour eiffel"), Context::Triggered).is_some());
    assert_eq!(match_place(&words("paris"), Context::Triggered), None);
    assert_eq!(
        match_place(&words("paris"), Context::Distance).map(|m| m.place.name()),
        Some("Paris")
    );
}

#[test]
fn distances_are_plausible() {
    let lyon = lookup("gare de lyon").unwrap().position();
    let eiffel = lookup("tour eiffel").unwrap().position();
    let d = distance_km(lyon, eiffel);
    assert!((5.5..7.0).contains(&d), "{d}");
    assert_eq!(distance_km(lyon, lyon), 0.0);
    let versailles = lookup("versailles").unwrap().position();
    let d = distance_km(PARIS_CENTRE, versailles);
    assert!((15.0..20.0).contains(&d), "{d}");
}

#[test]
fn quartiers_are_well_formed() {
    let mut spellings = Vec::new();
    for q in QUARTIERS {
        assert!(!q.postal_codes.is_empty(), "{}", q.name);
        for code in q.postal_codes {
            assert!(
                arrondissement_by_postal_code(code).is_some()
                    || commune_by_postal_code(code).is_some(),
                "{}: {code}",
                q.name
            );
        }
        for spelling in q.bare.iter().chain(q.triggered) {
            assert_eq!(&fold(spelling), spelling, "{}", q.name);
            assert!(!spellings.contains(spelling), "{spelling} twice");
            spellings.push(spelling);
        }
    }
}

#[test]
fn quartiers_by_name_and_context() {
    let words = |s: &str| fold(s).split(' ').map(str::to_string).collect::<Vec<_>>();
    let name =
        |s: &str, triggered: bool| match_quartier(&words(s), triggered).map(|(q, n)| (q.name, n));
    assert_eq!(name("rive gauche pour 80", false), Some(("Rive gauche", 2)));
    assert_eq!(
        name("Saint-Germain-des-Prés", false),
        Some(("Saint-Germain-des-Prés", 4))
    );
    assert_eq!(name("la Défense", false), Some(("La Défense", 2)));
    // "marais" alone is a marsh; after "dans le" it is the quartier.
    assert_eq!(name("marais", false), None);
    assert_eq!(name("marais", true), Some(("Le Marais", 1)));
    assert_eq!(name("saint germain", false), None);
}

#[test]
fn quartiers_that_are_points_can_be_searched_around() {
    // "près du Marais" and "à 2 km du Marais" need a landmark of that name.
    for spelling in [
        "marais",
        "montmartre",
        "quartier latin",
        "passy",
        "auteuil",
        "oberkampf",
        "la defense",
        "pigalle",
        "belleville",
        "batignolles",
        "butte aux cailles",
        "grands boulevards",
        "canal saint martin",
        "saint germain des pres",
        "champs elysees",
    ] {
        let place = lookup(spelling).map(Place::name);
        assert!(place.is_some(), "{spelling}");
    }
    assert_eq!(
        lookup("tour montparnasse").map(Place::name),
        Some("Tour Montparnasse")
    );
}

#[test]
fn places_elsewhere_are_folded_and_never_a_place_of_the_area() {
    let area = all_aliases();
    let mut seen = Vec::new();
    for place in ELSEWHERE {
        for alias in place.aliases {
            assert_eq!(&fold(alias), alias, "alias of {} is not folded", place.name);
            assert!(
                !area.iter().any(|(a, _)| a == alias),
                "{alias:?} is both in the area and outside it"
            );
            assert!(!seen.contains(alias), "{alias:?} is listed twice");
            seen.push(alias);
        }
    }
}

#[test]
fn places_elsewhere_are_found_however_spelt() {
    let name = |s: &str| lookup_elsewhere(s).map(|p| p.name);
    assert_eq!(name("LYON"), Some("Lyon"));
    assert_eq!(name("Aix-en-Provence"), Some("Aix-en-Provence"));
    assert_eq!(name("st-étienne"), Some("Saint-Étienne"));
    assert_eq!(name("Côte d'Azur"), Some("la Côte d'Azur"));
    // A whole name only, and never a place the search knows.
    assert_eq!(name("Lyon Part-Dieu"), None);
    assert_eq!(name("Gare de Lyon"), None);
    assert_eq!(name("Boulogne"), None);
    assert_eq!(name(""), None);
    let words = |s: &str| fold(s).split(' ').map(str::to_string).collect::<Vec<_>>();
    let (place, n) = match_elsewhere(&words("le havre pour 80")).unwrap();
    assert_eq!((place.name, n), ("Le Havre", 2));
}
