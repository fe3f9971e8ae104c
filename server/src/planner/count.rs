//! « Combien de lieux dans le 8e pour 100 personnes en cocktail ? »: the
//! criteria are read by the search's own extractor
//! (`search::criteria::extract`), then `count_members`.
use super::answer::number;
use super::features::{self, Features};
use super::results::count;
use super::step::Next;
use super::turn::Turn;
use super::words::cut;
use crate::search::criteria;
use crate::search::criteria::code_areas::CodeArea;
use serde_json::{json, Map, Value};

pub fn next(turn: &Turn) -> Next {
    let read = criteria::extract(cut(&turn.text, criteria::MAX_INPUT_BYTES));
    // « Combien de lieux à Lyon ? »: no count of Paris stands for Lyon.
    if !read.places_elsewhere.is_empty() && !locates(&read) {
        return Next::Say(format!(
            "Je ne sais pas compter les lieux de {} : Maxy ne connaît que les lieux de Paris et de l'Île-de-France.",
            app::fr::join_and(&read.places_elsewhere)
        ));
    }
    // Refused as the search refuses it, rather than counted without it.
    if let Some(amount) = &read.negative_amount {
        return Next::Say(format!(
            "Le nombre de participants doit être d'au moins 1 (le texte dit « {amount} ») : reformulez la question pour que je compte."
        ));
    }
    let features = features::asked(&turn.text);
    let input = input(&read, &features, &turn.text);
    match turn.json("count_members") {
        None => Next::call("count_members", input),
        Some(v) => Next::Say(answer(v, &input, &read, &features.words)),
    }
}

/// Whether the text names an area of Île-de-France to count in.
fn locates(c: &criteria::Criteria) -> bool {
    !c.postal_codes.is_empty() || !c.departments.is_empty() || c.near.is_some()
}

/// The radius a count uses: the one given, else how far « près de »
/// reaches around the place (« près de la gare de Lyon »).
fn radius_km(near: &criteria::Near) -> f64 {
    near.radius_km.unwrap_or(near.reach_km)
}

/// The count's arguments from what the search's extractor read, the
/// features asked for or refused, and the pool `text` names.
fn input(c: &criteria::Criteria, features: &Features, text: &str) -> Value {
    let mut input = Map::new();
    if !c.postal_codes.is_empty() {
        input.insert("postal_codes".into(), json!(c.postal_codes));
    }
    if !c.departments.is_empty() {
        input.insert("departments".into(), json!(c.departments));
    }
    if let Some(near) = &c.near {
        input.insert(
            "near".into(),
            json!({"lat": near.lat, "lng": near.lng, "radius_km": radius_km(near)}),
        );
    }
    for (key, list) in [
        ("excluded_postal_codes", &c.excluded_postal_codes),
        ("excluded_departments", &c.excluded_departments),
        ("excluded_kinds", &c.excluded_kinds),
    ] {
        if !list.is_empty() {
            input.insert(key.into(), json!(list));
        }
    }
    if let Some(conf) = c.configurations.first() {
        input.insert("configuration".into(), json!(conf.key()));
    }
    if let Some(n) = c.participants {
        input.insert("min_capacity".into(), json!(n));
    }
    // « combien de châteaux ? »: the pool the words name.
    if let Some((slug, _)) = super::pools::named(&super::words::words(text)) {
        input.insert("pool".into(), json!(slug));
    }
    // « avec terrasse », « sans parking »: the tags venue sheets carry; a
    // kind the criteria already rule out (« pas de péniche ») once.
    if !features.wanted.is_empty() {
        input.insert("tags".into(), json!(features.wanted));
    }
    let refused: Vec<&str> = features
        .refused
        .iter()
        .copied()
        .filter(|t| !c.excluded_kinds.iter().any(|k| k == t))
        .collect();
    if !refused.is_empty() {
        input.insert("excluded_tags".into(), json!(refused));
    }
    Value::Object(input)
}

/// The count said with the filters it applied: those read from the text
/// (`read`), and the pool and tags its words named (`input`); `counted`,
/// the words that named those tags, are not said as left uncounted.
fn answer(result: &Value, input: &Value, read: &criteria::Criteria, counted: &[String]) -> String {
    let Some(n) = count(result, "count") else {
        return "Le comptage n'a pas donné de nombre.".to_string();
    };
    let mut filters = Vec::new();
    if let Some(pool) = super::results::text(input, "pool") {
        filters.push(format!("dans le pool {}", super::pools::name_of(pool)));
    }
    let mut areas = places(&read.postal_codes);
    areas.extend(
        read.departments
            .iter()
            .filter_map(|d| app::geo::department(d))
            .map(|d| format!("dans le {} ({})", d.number, d.name)),
    );
    if !areas.is_empty() {
        filters.push(app::fr::join_and(&areas));
    }
    if let Some(near) = &read.near {
        filters.push(format!(
            "à moins de {} {}",
            app::fr::distance_km(radius_km(near)),
            criteria::of(&near.label)
        ));
    }
    let conf = read.configurations.first().map(|c| c.key());
    match (conf, read.participants.map(u64::from)) {
        (Some(conf), Some(cap)) => filters.push(format!(
            "avec une salle d'au moins {} personnes {}",
            number(cap),
            app::room_configurations::phrase_of(conf)
        )),
        (Some(conf), None) => filters.push(app::room_configurations::phrase_of(conf)),
        (None, Some(cap)) => filters.push(format!(
            "avec une salle d'au moins {} personnes",
            number(cap)
        )),
        (None, None) => {}
    }
    let tags = super::results::strings(input, "tags");
    if !tags.is_empty() {
        filters.push(format!(
            "dont la fiche indique {}",
            app::fr::join_and(&criteria::tag_words::quoted(&tags))
        ));
    }
    let noun = app::fr::agree(n, "lieu", "lieux");
    let mut said = if filters.is_empty() {
        format!("{} {noun} au total", number(n))
    } else {
        format!("{} {noun} {}", number(n), filters.join(" "))
    };
    // « hors Paris 17e », « sans péniche », as « Compris » says them.
    for note in criteria::exclusions::notes(read) {
        said.push_str(&format!(", {note}"));
    }
    let refused = super::results::strings(input, "excluded_tags");
    if !refused.is_empty() {
        said.push_str(&format!(
            ", sans {}",
            criteria::tag_words::quoted(&refused).join(" ni ")
        ));
    }
    said.push('.');
    // « avec terrasse »: not counted by, and said rather than implied.
    if let Some(asked) = super::uncounted::asked(&read.semantic_query, counted) {
        said.push_str(&format!(
            " Ce nombre ne tient pas compte de « {asked} » : je ne compte les lieux que par zone, \
             capacité, configuration et pool. Une recherche les classe selon ce critère."
        ));
    }
    if !read.places_elsewhere.is_empty() {
        said.push_str(&format!(
            " Hors de Paris et de l'Île-de-France, non compté : {}.",
            app::fr::join_and(&read.places_elsewhere)
        ));
    }
    said
}

/// « à Paris 8e », « à Paris 16e et à Montreuil (93100) », « à Paris »:
/// the codes as a person names them, one arrondissement once (75016 and
/// 75116).
fn places(codes: &[String]) -> Vec<String> {
    criteria::code_areas::of(codes)
        .into_iter()
        .map(|area| match area {
            CodeArea::Paris => "à Paris".to_string(),
            CodeArea::Arrondissement(a, _) => format!("à {}", a.name),
            CodeArea::Commune(code, commune) => format!("à {} ({code})", commune.name),
            CodeArea::Unknown(code) => format!("dans le {code}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (criteria::Criteria, Value) {
        let c = criteria::extract(text);
        let input = input(&c, &features::asked(text), text);
        (c, input)
    }

    /// The words of `text` its count counted by tags.
    fn counted(text: &str) -> Vec<String> {
        features::asked(text).words
    }

    #[test]
    fn a_negative_head_count_is_refused_as_the_search_refuses_it() {
        let turn = |text: &str| Turn {
            text: text.into(),
            intent: super::super::intent::Intent::Count,
            target: None,
            steps: Vec::new(),
            rounds: 0,
            offered: vec!["count_members".into()],
            refusals: Vec::new(),
        };
        let Next::Say(said) = next(&turn("combien de lieux environ 30 -20 personnes ?")) else {
            panic!("counted despite « -20 personnes »");
        };
        assert!(said.contains("« -20 personnes »"), "{said}");
        assert!(matches!(
            next(&turn("combien de lieux pour 20 personnes ?")),
            Next::Call { .. }
        ));
    }

    #[test]
    fn criteria_become_the_count_filters() {
        let (_, input) = read("Combien de lieux dans le 8e pour 100 personnes en cocktail ?");
        assert_eq!(
            input,
            json!({"postal_codes": ["75008"], "configuration": "cocktail", "min_capacity": 100})
        );
        assert_eq!(read("combien de lieux ?").1, json!({}));
        assert_eq!(
            read("Combien de lieux dans le 93 ?").1,
            json!({"departments": ["93"]})
        );
    }

    #[test]
    fn a_place_is_counted_within_its_radius() {
        let (c, input) = read("Combien de lieux à 2 km de la gare de Lyon ?");
        let near = &input["near"];
        assert_eq!(near["radius_km"], json!(2.0));
        assert!(
            (near["lat"].as_f64().unwrap() - 48.84).abs() < 0.01,
            "{near}"
        );
        assert_eq!(
            answer(
                &json!({"count": 42}),
                &input,
                &c,
                &counted("Combien de lieux à 2 km de la gare de Lyon ?")
            ),
            "42 lieux à moins de 2\u{a0}km de la gare de Lyon."
        );
        // Without a radius, the place's own, said in the answer.
        let (c, input) = read("Combien de lieux près de la gare de Lyon ?");
        let radius = input["near"]["radius_km"].as_f64().expect("a radius");
        assert!(radius > 0.0 && radius <= 5.0, "{radius}");
        assert!(answer(
            &json!({"count": 7}),
            &input,
            &c,
            &counted("Combien de lieux près de la gare de Lyon ?")
        )
        .starts_with("7 lieux à moins de "));
    }

    #[test]
    fn the_answer_names_the_filters() {
        let codes = |list: &[&str]| list.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        let eighth = criteria::Criteria {
            postal_codes: codes(&["75008"]),
            participants: Some(100),
            ..Default::default()
        };
        assert_eq!(
            answer(&json!({"count": 1234}), &json!({}), &eighth, &[]),
            "1\u{a0}234 lieux à Paris 8e avec une salle d'au moins 100 personnes."
        );
        let sixteenth = criteria::Criteria {
            postal_codes: codes(&["75016", "75116", "93100"]),
            configurations: vec![criteria::Configuration::U],
            ..Default::default()
        };
        assert_eq!(
            answer(&json!({"count": 3}), &json!({}), &sixteenth, &[]),
            "3 lieux à Paris 16e et à Montreuil (93100) en U."
        );
        let none = criteria::Criteria::default();
        assert_eq!(
            answer(&json!({"count": 1}), &json!({}), &none, &[]),
            "1 lieu au total."
        );
        assert_eq!(
            answer(&json!({"count": 0}), &json!({}), &none, &[]),
            "0 lieu au total."
        );
        assert_eq!(
            answer(
                &json!({"count": 5}),
                &json!({"pool": "chateaux"}),
                &none,
                &[]
            ),
            "5 lieux dans le pool Châteaux & domaines."
        );
        let (c, input) = read("Combien de lieux dans le 93 ?");
        assert_eq!(
            answer(
                &json!({"count": 12}),
                &input,
                &c,
                &counted("Combien de lieux dans le 93 ?")
            ),
            "12 lieux dans le 93 (Seine-Saint-Denis)."
        );
    }

    #[test]
    fn what_the_text_rules_out_is_not_counted_and_said() {
        let (c, input) = read("Combien de lieux dans le 75 sauf le 17e, pas de péniche ?");
        assert_eq!(input["excluded_postal_codes"], json!(["75017"]), "{input}");
        assert_eq!(input["excluded_kinds"], json!(["péniche"]), "{input}");
        assert_eq!(
            answer(
                &json!({"count": 250}),
                &input,
                &c,
                &counted("Combien de lieux dans le 75 sauf le 17e, pas de péniche ?")
            ),
            "250 lieux à Paris, hors Paris 17e, sans péniche."
        );
    }

    #[test]
    fn what_the_count_cannot_filter_on_is_said() {
        let (c, input) = read("Combien de lieux avec piscine dans le 8e ?");
        assert_eq!(input, json!({"postal_codes": ["75008"]}));
        assert_eq!(
            answer(
                &json!({"count": 22}),
                &input,
                &c,
                &counted("Combien de lieux avec piscine dans le 8e ?")
            ),
            "22 lieux à Paris 8e. Ce nombre ne tient pas compte de « piscine » : je ne compte \
             les lieux que par zone, capacité, configuration et pool. Une recherche les classe \
             selon ce critère."
        );
        let (c, input) = read("Combien de lieux dans le 8e ?");
        assert_eq!(
            answer(
                &json!({"count": 22}),
                &input,
                &c,
                &counted("Combien de lieux dans le 8e ?")
            ),
            "22 lieux à Paris 8e."
        );
    }

    #[test]
    fn features_are_counted_by_the_tags_sheets_carry() {
        let text = "Combien de lieux avec terrasse et parking dans le 8e ?";
        let (c, input) = read(text);
        assert_eq!(
            input,
            json!({"postal_codes": ["75008"], "tags": ["terrasse", "parking"]})
        );
        assert_eq!(
            answer(&json!({"count": 4}), &input, &c, &counted(text)),
            "4 lieux à Paris 8e dont la fiche indique « terrasse » et « parking »."
        );
        // Tags are named as people say them, never by their slug.
        let text = "Combien de lieux accessibles PMR avec vue sur la Seine ?";
        let (c, input) = read(text);
        assert_eq!(input["tags"], json!(["accessible-pmr", "vue-seine"]));
        let said = answer(&json!({"count": 2}), &input, &c, &counted(text));
        assert!(
            said.starts_with(
                "2 lieux dont la fiche indique « accessible PMR » et « vue sur la Seine »."
            ),
            "{said}"
        );
        let text = "Combien de lieux en sous-sol dans le 75 ?";
        let (c, input) = read(text);
        let said = answer(&json!({"count": 6}), &input, &c, &counted(text));
        assert_eq!(said, "6 lieux à Paris dont la fiche indique « sous-sol ».");
        // Every word of the feature is the tag's, elided ones too.
        for (text, tag) in [
            ("Combien de lieux au bord de l'eau ?", "bord de l'eau"),
            ("Combien de lieux avec DJ autorisé ?", "DJ autorisé"),
        ] {
            let (c, input) = read(text);
            let said = answer(&json!({"count": 3}), &input, &c, &counted(text));
            assert_eq!(said, format!("3 lieux dont la fiche indique « {tag} »."));
        }
        // What no tag says is still said as not counted.
        let text = "Combien de lieux avec jardin et une belle lumière dans le 92 ?";
        let (c, input) = read(text);
        assert_eq!(input["tags"], json!(["jardin"]));
        let said = answer(&json!({"count": 3}), &input, &c, &counted(text));
        assert!(
            said.starts_with("3 lieux dans le 92 (Hauts-de-Seine) dont la fiche indique « jardin ». Ce nombre ne tient pas compte de « belle lumière »"),
            "{said}"
        );
    }

    #[test]
    fn features_ruled_out_are_not_counted_and_said() {
        let text = "combien de lieux sans parking dans le 11e ?";
        let (c, input) = read(text);
        assert_eq!(
            input,
            json!({"postal_codes": ["75011"], "excluded_tags": ["parking"]})
        );
        assert_eq!(
            answer(&json!({"count": 12}), &input, &c, &counted(text)),
            "12 lieux à Paris 11e, sans « parking »."
        );
        // A kind the criteria rule out is said once, their way.
        let text = "Combien de lieux dans le 75 sauf le 17e, pas de péniche ?";
        assert_eq!(read(text).1.get("excluded_tags"), None);
        let text = "Combien de lieux sans espace extérieur dans le 92 ?";
        let (c, input) = read(text);
        assert_eq!(
            answer(&json!({"count": 39}), &input, &c, &counted(text)),
            "39 lieux dans le 92 (Hauts-de-Seine), sans espace extérieur."
        );
    }

    #[test]
    fn a_place_outside_the_area_is_not_counted() {
        let (c, input) = read("Combien de lieux à Lyon ou dans le 8e ?");
        assert_eq!(input, json!({"postal_codes": ["75008"]}));
        assert_eq!(
            answer(
                &json!({"count": 30}),
                &input,
                &c,
                &counted("Combien de lieux à Lyon ou dans le 8e ?")
            ),
            "30 lieux à Paris 8e. Hors de Paris et de l'Île-de-France, non compté : Lyon."
        );
    }
}
