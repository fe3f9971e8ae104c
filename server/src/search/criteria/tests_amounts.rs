//! Amounts, table-driven: head counts (explicit, ranges, tables, vague,
//! negative), budgets, and the numbers that are neither (dates, hours,
//! durations, surfaces), with what stays in the description.

use super::*;

/// What a text should give; `None` in `semantic` leaves it unchecked.
#[derive(Default)]
struct Want {
    people: Option<u32>,
    max: Option<u32>,
    about: Option<u32>,
    total: Option<u32>,
    each: Option<u32>,
    negative: Option<&'static str>,
    semantic: Option<&'static str>,
}

fn people(n: u32) -> Want {
    Want {
        people: Some(n),
        ..Want::default()
    }
}

fn range(min: u32, max: u32) -> Want {
    Want {
        people: Some(min),
        max: Some(max),
        ..Want::default()
    }
}

fn about(n: u32) -> Want {
    Want {
        about: Some(n),
        ..Want::default()
    }
}

fn nothing() -> Want {
    Want::default()
}

impl Want {
    fn total(self, eur: u32) -> Self {
        Want {
            total: Some(eur),
            ..self
        }
    }
    fn each(self, eur: u32) -> Self {
        Want {
            each: Some(eur),
            ..self
        }
    }
    fn negative(self, phrase: &'static str) -> Self {
        Want {
            negative: Some(phrase),
            ..self
        }
    }
    fn semantic(self, text: &'static str) -> Self {
        Want {
            semantic: Some(text),
            ..self
        }
    }
}

/// Every case that differs from what it wants, described.
fn mismatches(cases: &[(&str, Want)]) -> Vec<String> {
    cases
        .iter()
        .filter_map(|(text, want)| {
            let c = extract(text);
            let budget = c.budget.clone().unwrap_or_default();
            let got = (
                c.participants,
                c.participants_max,
                c.participants_about,
                budget.total_eur,
                budget.per_person_eur,
                c.negative_amount.as_deref(),
            );
            let wanted = (
                want.people,
                want.max,
                want.about,
                want.total,
                want.each,
                want.negative,
            );
            let semantic_ok = want.semantic.is_none_or(|s| s == c.semantic_query);
            (got != wanted || !semantic_ok).then(|| {
                format!(
                    "{text:?}\n    got  {got:?} {:?}\n    want {wanted:?} {:?}",
                    c.semantic_query, want.semantic
                )
            })
        })
        .collect()
}

fn check(cases: &[(&str, Want)]) {
    let failures = mismatches(cases);
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn explicit_head_counts() {
    check(&[
        ("environ 80 personnes", people(80).semantic("")),
        ("~80 pax", people(80).semantic("")),
        ("100 personnes max", people(100).semantic("")),
        ("80 pers. en cocktail", people(80)),
        ("60 invités", people(60)),
        ("45 participants", people(45)),
        ("40 collaborateurs", people(40)),
        ("70 convives", people(70)),
        ("90 guests", people(90)),
        ("120 people", people(120)),
        ("35 attendees", people(35)),
        ("jauge : 120", people(120)),
        ("effectif 200", people(200)),
        ("pour environ 80", people(80).semantic("")),
        ("environ 80, rooftop", people(80).semantic("rooftop")),
        ("1 200 personnes", people(1200)),
        ("1\u{a0}200 personnes", people(1200)),
        ("1\u{202f}200 personnes", people(1200)),
        ("pour 1\u{202f}200", people(1200)),
        ("1.200 personnes", people(1200)),
        ("80 en plénière puis 40 en atelier", people(80)),
        ("35 adultes et 10 enfants", people(45)),
    ]);
}

#[test]
fn typos_and_english_in_the_people_nouns() {
    check(&[
        ("80 personnnes", people(80).semantic("")),
        ("45 particpants", people(45).semantic("")),
        ("60 invitées", people(60)),
        ("30 colaborateurs", people(30)),
        ("rooftop for 50 people", people(50)),
        ("150 guests standing", people(150)),
    ]);
}

#[test]
fn ranges_filter_on_their_bottom() {
    check(&[
        ("80 à 120 personnes", range(80, 120).semantic("")),
        ("80-120 pax", range(80, 120).semantic("")),
        ("entre 80 et 120", range(80, 120).semantic("")),
        ("pour 80 à 120", range(80, 120)),
        ("de 1 000 à 1 500 personnes", range(1000, 1500)),
    ]);
}

#[test]
fn tables_multiply() {
    check(&[
        ("3 tables de 8", people(24).semantic("")),
        ("10 tables rondes de 10", people(100).semantic("")),
        ("dîner pour 3 tables de 8 personnes", people(24)),
        ("une table de 12", people(12)),
        ("10 tables", nothing()),
        ("des tables de 8", nothing()),
    ]);
    let round = extract("10 tables rondes de 10");
    assert_eq!(round.configurations, [Configuration::Banquet]);
}

#[test]
fn vague_amounts_only_inform_the_fit() {
    check(&[
        ("une trentaine", about(30).semantic("")),
        ("une trentaine de personnes", about(30).semantic("")),
        ("quelques dizaines de personnes", about(30)),
        ("plusieurs centaines d'invités", about(300)),
        ("une petite centaine de convives", about(100)),
        ("une bonne cinquantaine de participants", about(50)),
        ("pour une cinquantaine", about(50).semantic("")),
        ("un millier de visiteurs", about(1000)),
    ]);
    let c = extract("une trentaine de personnes");
    assert!(!c.has_hard_criteria());
    assert_eq!(c.notes, ["environ 30 personnes (indicatif)"]);
}

#[test]
fn negative_head_counts_are_reported_as_written() {
    check(&[
        (
            "-20 personnes",
            nothing().negative("-20 personnes").semantic(""),
        ),
        ("rooftop pour -20 pers.", nothing().negative("-20 pers.")),
        ("−15 invités", nothing().negative("−15 invités")),
        ("remise de -20 %", nothing()),
        ("80-120 personnes", range(80, 120)),
        ("-20 € de remise", nothing()),
        // The minus sign ends the number before it, which stays a head
        // count: nothing is left for a second reading to find.
        (
            "environ 30 -20 personnes",
            people(30).negative("-20 personnes").semantic(""),
        ),
        ("30 -20 personnes", nothing().negative("-20 personnes")),
    ]);
}

#[test]
fn numbers_that_are_never_head_counts() {
    check(&[
        ("300 m²", nothing()),
        ("le 12 juin", nothing().semantic("")),
        ("12/06", nothing().semantic("")),
        ("le 12/06/2027", nothing().semantic("")),
        ("en 2027", nothing().semantic("")),
        ("18h30", nothing().semantic("")),
        ("de 9h à 18h", nothing().semantic("")),
        ("à partir de 19 h", nothing().semantic("")),
        ("19:30", nothing().semantic("")),
        ("à 18h", nothing().semantic("")),
        ("2 jours", nothing().semantic("")),
        ("sur deux jours", nothing().semantic("")),
        ("une demi-journée", nothing().semantic("")),
        ("20 k€", nothing().total(20_000).semantic("")),
        ("60 €/pers", nothing().each(60).semantic("")),
        ("10 tables", nothing()),
        ("3 salles", nothing()),
        ("3e édition", nothing()),
        ("pour 2 jours", nothing().semantic("")),
        ("dans 3 semaines", nothing().semantic("")),
    ]);
    // "Paris 5/6" is two arrondissements, not the 5th of June.
    assert_eq!(extract("Paris 5/6").postal_codes, ["75005", "75006"]);
}

#[test]
fn head_counts_next_to_dates_hours_and_money() {
    check(&[
        ("80 personnes le 12 juin", people(80).semantic("")),
        ("le 12 juin pour 80", people(80).semantic("")),
        ("jeudi 12 juin, 18h30, 80 pers.", people(80).semantic("")),
        ("pour 10/12 personnes", range(10, 12)),
        ("2000 personnes en 2027", people(2000).semantic("")),
        ("le 2 et 3 juin pour 40 personnes", people(40).semantic("")),
        ("du 2 au 4 juin, 40 personnes", people(40).semantic("")),
        ("for 80 guests, June 12, 2027", people(80).semantic("")),
        ("juin 80 personnes", people(80).semantic("")),
        (
            "séminaire de 2 jours pour 30",
            people(30).semantic("séminaire"),
        ),
    ]);
}

#[test]
fn budgets_total_and_per_person() {
    check(&[
        (
            "budget 20 k€ pour 100 personnes",
            people(100).total(20_000).each(200).semantic(""),
        ),
        (
            "enveloppe de 15 000 € HT",
            nothing().total(15_000).semantic(""),
        ),
        ("60 €/pers", nothing().each(60).semantic("")),
        ("80 € par personne", nothing().each(80).semantic("")),
        ("50 euros par tête", nothing().each(50).semantic("")),
        ("45€ pp", nothing().each(45).semantic("")),
        (
            "budget : 80 € HT par personne.",
            nothing().each(80).semantic(""),
        ),
        (
            "environ 80 €/pers. tout compris",
            nothing().each(80).semantic(""),
        ),
        ("budget 20k", nothing().total(20_000).semantic("")),
        ("budget de 1,5 k€", nothing().total(1500)),
        ("budget global 15 000", nothing().total(15_000).semantic("")),
        ("budget par personne : 90", nothing().each(90).semantic("")),
        ("entre 50 et 70 €/pers", nothing().each(70).semantic("")),
        (
            "15\u{202f}000 € pour 150 invités",
            people(150).total(15_000).each(100),
        ),
        (
            "budget 20 k€ pour une centaine de personnes",
            about(100).total(20_000).each(200),
        ),
        (
            "budget 24 k€ pour 80 à 120 personnes",
            range(80, 120).total(24_000).each(200),
        ),
        ("budget 2 jours", nothing()),
        (
            "Budget: 45k€ HT pour 300 pax, soit 150 €/pers",
            people(300).total(45_000).each(150),
        ),
        ("env. 40 €/tête", nothing().each(40).semantic("")),
        (
            "100€ par personne hors boissons",
            nothing().each(100).semantic(""),
        ),
    ]);
    let c = extract("budget 20 k€ pour 100 personnes");
    assert!(
        c.notes
            .contains(&"budget ≈ 200 €/pers (20\u{202f}000 € au total)".to_string()),
        "{:?}",
        c.notes
    );
    assert!(extract("60 €/pers")
        .notes
        .contains(&"budget 60 €/pers".to_string()));
    // A budget never filters.
    assert!(!extract("budget 20 k€").has_hard_criteria());
}

#[test]
fn the_description_keeps_descriptive_words_only() {
    check(&[
        (
            "Bonjour, je cherche un lieu lumineux au bord de l'eau pour 80 personnes le 12 juin stp",
            people(80).semantic("lumineux au bord de l'eau"),
        ),
        (
            "Il faudrait une salle de conférence lumineuse, budget 60 €/pers, de 9h à 18h",
            nothing().each(60).semantic("salle de conférence lumineuse"),
        ),
        (
            "On a 50 personnes, rooftop festif. Il faudrait un parking svp",
            people(50).semantic("rooftop festif, parking"),
        ),
        (
            "Pour un client, péniche au bord de l'eau, jeudi soir, 80 invités",
            people(80).semantic("péniche au bord de l'eau"),
        ),
        (
            "Séminaire de 2 jours et 1 nuit au vert, 40 collaborateurs",
            people(40).semantic("Séminaire au vert"),
        ),
        (
            "Nous organisons notre AG le 14/03 à 9h : 450 participants",
            people(450).semantic("notre AG"),
        ),
        (
            "Réunion 12 pers. 1/2 journée, vidéoprojecteur",
            people(12).semantic("Réunion, vidéoprojecteur"),
        ),
        (
            "Conférence de presse 10h-12h, 30 journalistes",
            people(30).semantic("Conférence de presse"),
        ),
        (
            "Il nous faudrait un lieu pour les 10 ans de la société, ambiance guinguette",
            nothing().semantic("pour les 10 ans de la société, ambiance guinguette"),
        ),
    ]);
}

#[test]
fn forwarded_emails_leave_their_scaffolding_out() {
    let mail = "---------- Message transféré ---------\n\
        De : Marie Dupont <marie.dupont@acme.fr>\n\
        Envoyé : lundi 3 mars 2027 10:12\n\
        À : demandes@example.fr\n\
        Objet : TR: Séminaire 80 pers. Paris 8\n\
        \n\
        Bonjour Paul,\n\
        \n\
        Nous organisons un séminaire de direction, salle lumineuse avec terrasse.\n\
        Budget : 90 € HT par personne.\n\
        \n\
        Cordialement,\n\
        Marie Dupont\n\
        Responsable événements – ACME\n\
        06 12 34 56 78";
    let c = extract(mail);
    assert_eq!(c.participants, Some(80));
    assert_eq!(c.postal_codes, ["75008"]);
    assert_eq!(c.budget.and_then(|b| b.per_person_eur), Some(90));
    assert_eq!(
        c.semantic_query,
        "séminaire de direction, salle lumineuse avec terrasse"
    );

    let reply = "Le lun. 3 mars 2027 à 10:12, Marie <marie@acme.fr> a écrit :\n\
        > Bonjour,\n\
        > péniche pour 60 personnes au bord de l'eau\n\
        > Merci, Marie";
    let c = extract(reply);
    assert_eq!(c.participants, Some(60));
    assert_eq!(c.semantic_query, "péniche au bord de l'eau");

    // A thank-you that starts a sentence takes nothing after it.
    assert_eq!(
        extract("Merci\nNous serons 80 personnes environ").participants,
        Some(80)
    );

    // A closing word that asks for something is no signature.
    let c = extract("Merci de me proposer un loft pour 40 personnes");
    assert_eq!(c.participants, Some(40));
    assert_eq!(c.semantic_query, "loft");
}
