//! Layouts: explicit ones, the ones events imply, typos, English, and the
//! ordinary words that must never become a layout.

use super::{extract, Configuration};

fn layouts(text: &str) -> Vec<&'static str> {
    extract(text)
        .configurations
        .iter()
        .map(|c| c.key())
        .collect()
}

/// (text, layouts expected, in order).
fn check(cases: &[(&str, &[&str])]) {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(text, want)| {
            let got = layouts(text);
            (got != *want).then(|| format!("{text:?}: got {got:?}, want {want:?}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn events_imply_a_layout_when_none_is_named() {
    check(&[
        ("conférence pour 200 personnes", &["theatre"]),
        ("colloque scientifique", &["theatre"]),
        ("congrès médical de 300 participants", &["theatre"]),
        ("assemblée générale de l'association", &["theatre"]),
        ("notre AG annuelle", &["theatre"]),
        ("keynote produit", &["theatre"]),
        ("conférence de presse", &["theatre"]),
        ("projection privée d'un film", &["theatre"]),
        ("convention commerciale", &["theatre"]),
        ("formation de 12 personnes", &["ecole"]),
        ("training commercial", &["ecole"]),
        ("un cours de droit fiscal", &["ecole"]),
        ("une classe de 30 élèves", &["ecole"]),
        ("réunion d'équipe", &["reunion"]),
        ("board meeting", &["reunion"]),
        ("comité de direction", &["reunion"]),
        ("CODIR mensuel", &["reunion"]),
        ("COMEX", &["reunion"]),
        ("conseil d'administration", &["reunion"]),
        ("meeting client", &["reunion"]),
        ("apéritif de fin d'année", &["cocktail"]),
        ("apéro entre collègues", &["cocktail"]),
        ("afterwork", &["cocktail"]),
        ("after-work jeudi", &["cocktail"]),
        ("réception pour 150 invités", &["cocktail"]),
        ("cocktail dînatoire", &["cocktail"]),
        ("vin d'honneur", &["cocktail"]),
        ("pot de départ", &["cocktail"]),
    ]);
}

#[test]
fn a_seated_meal_of_any_wording_is_a_banquet() {
    check(&[
        ("dîner placé", &["banquet"]),
        ("repas assis", &["banquet"]),
        ("déjeuner à table", &["banquet"]),
        ("brunch assis", &["banquet"]),
        ("dîner assis pour 80", &["banquet"]),
        ("dîner pour 80 personnes assis", &["banquet"]),
        ("déjeuner de 40 personnes assis", &["banquet"]),
        ("dîner de 80 personnes, assis", &["banquet"]),
        ("dîner de gala pour 200 personnes assises", &["banquet"]),
        ("dîner de gala", &["banquet"]),
        ("seated dinner", &["banquet"]),
        ("buffet assis", &["banquet"]),
        ("déjeuner servi à l'assiette", &["banquet"]),
        ("avec plan de table", &["banquet"]),
    ]);
}

#[test]
fn several_events_several_layouts() {
    check(&[
        ("plénière puis cocktail", &["theatre", "cocktail"]),
        (
            "conférence le matin, déjeuner assis, puis afterwork",
            &["theatre", "banquet", "cocktail"],
        ),
        ("formation puis apéro", &["ecole", "cocktail"]),
        ("cocktail puis dîner assis", &["cocktail", "banquet"]),
        ("conférence puis cocktail debout", &["theatre", "cocktail"]),
        (
            "repas assis ou cocktail debout, 70 personnes",
            &["banquet", "cocktail"],
        ),
    ]);
}

#[test]
fn an_explicit_layout_wins_over_its_own_event() {
    check(&[
        ("formation en U", &["u"]),
        ("comité de direction style boardroom", &["reunion"]),
        ("assemblée générale, format cabaret", &["cabaret"]),
        ("afterwork 80 personnes en tables rondes", &["banquet"]),
        ("conférence de 110 personnes en cabaret", &["cabaret"]),
        ("conférence de presse, salle en U pour 30", &["u"]),
    ]);
}

#[test]
fn every_part_of_the_programme_keeps_its_layout() {
    check(&[
        (
            "conférence en théâtre suivie d'un cocktail",
            &["theatre", "cocktail"],
        ),
        (
            "cocktail puis dîner assis en banquet",
            &["cocktail", "banquet"],
        ),
        (
            "conférence en théâtre puis cocktail debout",
            &["theatre", "cocktail"],
        ),
        (
            "conférence de 110 personnes en théâtre, puis un verre debout",
            &["theatre", "cocktail"],
        ),
        (
            "réunion en U pour 24 personnes et dîner placé le soir",
            &["u", "banquet"],
        ),
        (
            "formation de 18 personnes en classe, puis apéro",
            &["ecole", "cocktail"],
        ),
        (
            "réunion d'équipe en U, pas de repas assis, juste un apéro",
            &["u", "cocktail"],
        ),
    ]);
}

#[test]
fn refused_and_vague_events_imply_nothing() {
    check(&[
        ("pas de cocktail", &[]),
        ("sans cocktail", &[]),
        ("sans apéro, juste une conférence", &["theatre"]),
        ("pas de dîner assis", &[]),
        ("pas forcément en théâtre", &[]),
        ("plutôt qu'un cocktail, un dîner placé", &["banquet"]),
        ("ni cocktail ni banquet", &[]),
        ("pas de cocktail debout", &[]),
        ("sans cocktail debout, dîner placé", &["banquet"]),
        ("séminaire", &[]),
        ("soirée d'entreprise", &[]),
        ("gala", &[]),
        ("soirée de gala", &[]),
        ("dîner", &[]),
        ("dîner pour 80 personnes", &[]),
        ("déjeuner sur place", &[]),
        ("un ancien théâtre", &[]),
        ("école de commerce", &[]),
        ("cabaret parisien", &[]),
        ("team building", &[]),
        ("mariage de 120 invités", &[]),
    ]);
}

#[test]
fn typos_and_english() {
    check(&[
        ("en banquett", &["banquet"]),
        ("en theatre", &["theatre"]),
        ("en theatr", &["theatre"]),
        ("en cocktial", &["cocktail"]),
        ("une reunoin", &["reunion"]),
        ("conferance de presse", &["theatre"]),
        ("formaiton de 10 personnes", &["ecole"]),
        ("dîner assi", &[]),
        ("diner asssis pour 60", &["banquet"]),
        ("assemblé générale 180 personnes", &["theatre"]),
        ("team dinner, around 30 people, seated", &["banquet"]),
        (
            "any venue for 50 people? Standing, networking event",
            &["cocktail"],
        ),
        ("diner placé", &["banquet"]),
        ("dinner assis", &["banquet"]),
        ("200 standing", &["cocktail"]),
        ("cocktail standing", &["cocktail"]),
        ("standing reception for 200 guests", &["cocktail"]),
        ("seated dinner for 80 people", &["banquet"]),
        ("boardroom", &["reunion"]),
        ("classroom", &["ecole"]),
        ("theatre style", &["theatre"]),
        ("theatre-style for 120", &["theatre"]),
        ("U-shape", &["u"]),
        ("horseshoe", &["u"]),
        ("réunions", &["reunion"]),
        ("cocktails", &["cocktail"]),
    ]);
}

#[test]
fn near_words_never_become_layouts() {
    check(&[
        ("un bouquet de fleurs", &[]),
        ("près de la banque de France", &[]),
        ("salon avec banquettes", &[]),
        ("une banquette en velours", &[]),
        ("ambiance théâtrale", &[]),
        ("un décor théâtral", &[]),
        ("en début de soirée", &[]),
        ("début juin", &[]),
        ("un lieu écolo", &[]),
        ("pavillon de chasse", &[]),
        ("château classé", &[]),
        ("un lieu classe et élégant", &[]),
        ("plus d'informations", &[]),
        ("société de production", &[]),
        ("en comté", &[]),
        ("salle de repos", &[]),
        ("super lieu", &[]),
        ("un punch maison", &[]),
        ("une belle exception", &[]),
        ("du monde", &[]),
        ("près de la plage", &[]),
        ("un court de tennis", &[]),
        ("au cours de la soirée", &[]),
        ("travaux en cours", &[]),
        ("cours de cuisine", &[]),
        ("des cours de yoga", &[]),
        ("lieu de standing", &[]),
        ("hôtel haut standing", &[]),
        ("prestations grand standing", &[]),
        ("dîner en petit comité", &[]),
        ("comité d'entreprise", &[]),
        ("réunion de famille", &[]),
        ("salle de réception", &[]),
        ("appartement de réception pour 60 pers", &[]),
        ("Hôtel standing, 200 personnes", &[]),
        ("bar à cocktails", &[]),
        ("centre de conférences", &[]),
        ("palais des congrès", &[]),
        ("écran de projection", &[]),
        ("visio-conférence", &[]),
        ("mood board", &[]),
        ("un souper", &[]),
        ("assez grand", &[]),
        ("après le dîner", &[]),
        ("au bord de l'eau", &[]),
        ("avec mes collègues", &[]),
        ("pendant les congés", &[]),
        ("compte rendu", &[]),
        ("nous réunirons nos clients", &[]),
        ("format conseillé : à définir", &[]),
        ("une belle invention", &[]),
        ("dossier en examen", &[]),
        ("une formulation claire", &[]),
        ("la récréation", &[]),
        ("établissement conventionné", &[]),
    ]);
}

#[test]
fn event_words_stay_in_the_description_layout_words_do_not() {
    let c = extract("conférence de presse pour 80 personnes");
    assert_eq!(c.semantic_query, "conférence de presse");
    let c = extract("dîner pour 80 personnes assis, vue sur la Seine");
    assert_eq!(c.semantic_query, "dîner, vue sur la Seine");
    let c = extract("plénière en théâtre puis cocktail");
    assert_eq!(
        c.configurations,
        [Configuration::Theatre, Configuration::Cocktail]
    );
    assert!(
        c.semantic_query.starts_with("plénière"),
        "{}",
        c.semantic_query
    );
    assert!(
        c.semantic_query.ends_with("cocktail"),
        "{}",
        c.semantic_query
    );
    let c = extract("dîner placé pour 120 invités en tables rondes");
    assert_eq!(c.semantic_query, "dîner");
    let c = extract("200 standing");
    assert_eq!(c.semantic_query, "");
}

#[test]
fn head_counts_still_read_next_to_layouts() {
    let c = extract("dîner pour 80 personnes assis");
    assert_eq!(c.participants, Some(80));
    let c = extract("80 debout");
    assert_eq!(c.participants, Some(80));
    let c = extract("200 personnes en cocktail et 120 en dîner assis");
    assert_eq!(c.participants, Some(200));
}
