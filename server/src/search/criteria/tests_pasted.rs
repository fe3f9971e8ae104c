//! A whole pasted e-mail, as « Compris » says it back: the body's
//! criteria, exclusions and the head count chosen with its reason; nothing
//! from the signature or the thread.

use super::extract;

const EMAIL: &str = "Bonjour Camille,

Notre club de randonnée réunit 900 adhérents ; pour l'assemblée annuelle nous serons environ 120.
Nous cherchons un lieu à Paris, mais on évite le 17e. Conférence en théâtre, puis un verre debout pour prolonger les échanges. Pas de péniche, merci.

Cordialement,

Stéphanie Roux
Responsable événementiel – Club Alpin Francilien
8 avenue de Paris, 94300 Vincennes
06 12 34 56 78

Le mar. 3 mars 2026 à 10:12, Julie Martin <julie@acme.fr> a écrit :
> Bonjour, pouvez-vous nous aider pour 40 personnes à Boulogne ?";

#[test]
fn compris_says_the_body_exclusions_and_the_head_count_chosen() {
    let c = extract(EMAIL);
    let notes = c.notes.join(" · ");
    for wanted in [
        "Paris intra-muros (75001 à 75020)",
        "hors Paris 17e",
        "120 personnes",
        "théâtre ou cocktail",
        "sans péniche",
        "jauge : 120 (le nombre de participants) ; non retenu : « 900 adhérents », l'effectif de l'organisation",
    ] {
        assert!(notes.contains(wanted), "« {wanted} » not in {notes}");
    }
    for unwanted in [
        "94300",
        "Vincennes",
        "Boulogne",
        "40 personnes",
        "Stéphanie",
    ] {
        assert!(!notes.contains(unwanted), "« {unwanted} » in {notes}");
    }
    assert_eq!(c.participants, Some(120));
    assert_eq!(c.excluded_postal_codes, ["75017"]);
    assert_eq!(c.excluded_kinds, ["péniche"]);
    let description = crate::geo::fold(&c.semantic_query);
    for unwanted in [
        "peniche",
        "stephanie",
        "vincennes",
        "06",
        "boulogne",
        "randonnee reunit",
    ] {
        assert!(
            !description.contains(unwanted),
            "« {unwanted} » in {description}"
        );
    }
}

#[test]
fn a_single_head_count_needs_no_reason() {
    let c = extract("Bonjour, nous serons 80 pour un cocktail dans le 9e. Merci");
    assert_eq!(c.participants, Some(80));
    assert!(
        !c.notes.iter().any(|n| n.starts_with("jauge")),
        "{:?}",
        c.notes
    );
}

#[test]
fn departments_are_searched_whole_and_said_by_name() {
    let c = extract("séminaire de 30 personnes dans le 93 ou le 94, surtout pas à Montreuil");
    assert_eq!(c.departments, ["93", "94"]);
    assert_eq!(c.excluded_postal_codes, ["93100"]);
    assert!(!c.broad_area);
    let notes = c.notes.join(" · ");
    assert!(
        notes.contains("Seine-Saint-Denis (93)") && notes.contains("Val-de-Marne (94)"),
        "{notes}"
    );
    assert!(notes.contains("hors Montreuil (93100)"), "{notes}");
    let c = extract("pour 92 personnes en cocktail");
    assert_eq!(c.participants, Some(92));
    assert!(c.departments.is_empty());
}

#[test]
fn misspelt_places_are_read_after_a_word_that_announces_them() {
    for (text, code) in [
        ("dîner à Vincenes", "94300"),
        ("brunch à Montreui", "93100"),
        ("réunion à Levalois-Perret", "92300"),
        ("séminaire à Maison-Laffitte", "78600"),
        ("cocktail à St Mandé", "94160"),
        ("dîner à Neuily", "92200"),
    ] {
        let c = extract(text);
        assert_eq!(c.postal_codes, [code], "{text}");
    }
    // Not after a word that puts the event there, and not an ordinary word.
    assert!(extract("une salle vincenes").postal_codes.is_empty());
    assert!(extract("dîner à proximité").postal_codes.is_empty());
}

#[test]
fn what_is_not_a_negation_stays_asked_for() {
    let near = extract("pas loin du 8e, cocktail");
    assert_eq!(near.near.map(|n| n.label).as_deref(), Some("Paris 8e"));
    assert!(near.excluded_postal_codes.is_empty());
    for text in [
        "pas forcément dans le 8e",
        "pas plus de 80 personnes dans le 8e",
        "pas de rooftop, dans le 8e",
    ] {
        let c = extract(text);
        assert_eq!(c.postal_codes, ["75008"], "{text}: {c:?}");
        assert!(c.excluded_postal_codes.is_empty(), "{text}: {c:?}");
    }
}
