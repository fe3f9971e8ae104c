//! What `parse` accepts and refuses (column and French message for every
//! kind of error) and what `eval` answers, nulls included.

use super::*;

fn facts() -> Facts {
    Facts {
        profiles: vec!["sales".into(), "senior".into()],
        station: "chat".into(),
        event: None,
        request: Some(RequestFacts {
            participants: Some(250),
            event_type: Some("seminaire".into()),
            status: "qualifying".into(),
            pool: Some("hotels".into()),
            configurations: vec!["theatre".into(), "cocktail".into()],
            postal_codes: vec!["75008".into()],
            budget_eur: Some(12_000.0),
            has_catalogue: true,
            organizer_comment: false,
        }),
    }
}

fn no_request() -> Facts {
    Facts {
        request: None,
        ..facts()
    }
}

fn holds(source: &str, facts: &Facts) -> bool {
    match parse(source) {
        Ok(expr) => expr.eval(facts),
        Err(e) => panic!("{source}: {e}"),
    }
}

fn refused(source: &str) -> WhenError {
    match parse(source) {
        Ok(expr) => panic!("{source} parsed as {expr}"),
        Err(e) => e,
    }
}

/// The error's column and a part of its message.
fn assert_refused(source: &str, column: usize, part: &str) {
    let error = refused(source);
    assert_eq!(error.column, column, "{source}: {error}");
    assert!(error.message.contains(part), "{source}: {error}");
}

#[test]
fn the_briefs_examples_evaluate() {
    let f = facts();
    assert!(holds("'sales' in profiles", &f));
    assert!(holds(
        "request.participants > 200 and station == 'chat'",
        &f
    ));
    assert!(!holds("event == 'organizer_comment'", &f));
    assert!(holds(
        "not ('junior' in profiles) or request.event_type in ['seminaire', 'conference']",
        &f
    ));
    assert!(holds("request != null", &f));
    assert!(!holds("request != null", &no_request()));
}

#[test]
fn every_operator_and_its_symbolic_spelling() {
    let f = facts();
    for (source, expected) in [
        ("request.participants == 250", true),
        ("request.participants != 250", false),
        ("request.participants < 250", false),
        ("request.participants <= 250", true),
        ("request.participants > 249.5", true),
        ("request.participants >= 251", false),
        ("'junior' not in profiles", true),
        ("'senior' not in profiles", false),
        ("'theatre' in request.configurations", true),
        ("request.pool in ['hotels', 'peniches']", true),
        ("request.participants in [100, 250]", true),
        ("request.has_catalogue == true", true),
        ("request.organizer_comment", false),
        ("true and !false", true),
        ("station == 'chat' && 'sales' in profiles", true),
        ("station == 'training' || 'sales' in profiles", true),
        ("!(station == 'chat')", false),
        ("not not request", true),
        ("request.budget_eur >= 12000", true),
        ("\"seminaire\" == event_type", true),
        ("request.status == 'qualifying'", true),
        ("'75008' in request.postal_codes", true),
        ("'x' in []", false),
    ] {
        assert_eq!(holds(source, &f), expected, "{source}");
    }
}

#[test]
fn and_binds_tighter_than_or_and_not_tighter_than_and() {
    let f = facts();
    // or(true, and(false, …)) — true; a left-to-right reading says false.
    assert!(holds("true or false and false", &f));
    assert!(!holds("(true or false) and false", &f));
    // not applies to the comparison, not to the whole `and`.
    assert!(holds("not station == 'training' and request", &f));
}

#[test]
fn nulls_follow_the_documented_rules() {
    let none = no_request();
    for (source, expected) in [
        ("request", false),
        ("request == null", true),
        ("request.participants == null", true),
        ("request.participants > 200", false),
        ("request.participants < 200", false),
        ("request.participants <= 200", false),
        ("request.participants != 200", true),
        ("'theatre' in request.configurations", false),
        ("'theatre' not in request.configurations", true),
        ("request.has_catalogue", false),
        ("event_type == null", true),
        ("event", false),
        ("event == null", true),
        ("request.pool in ['hotels', null]", true),
        ("null == null", true),
    ] {
        assert_eq!(holds(source, &none), expected, "{source}");
    }
}

#[test]
fn a_bare_field_is_true_when_set_non_empty_and_not_false() {
    let mut f = facts();
    assert!(holds("profiles", &f));
    assert!(holds("request.participants", &f));
    f.profiles.clear();
    f.station.clear();
    f.event = Some("organizer_comment".into());
    assert!(!holds("profiles", &f));
    assert!(!holds("station", &f));
    assert!(holds("event", &f));
    if let Some(request) = f.request.as_mut() {
        request.participants = Some(0);
        request.event_type = None;
    }
    assert!(holds("request.participants", &f), "0 is a value");
    assert!(!holds("request.event_type", &f));
    assert!(
        !holds("event_type", &f),
        "event_type mirrors request.event_type"
    );
}

#[test]
fn texts_compare_exactly_and_strings_unescape() {
    let mut f = facts();
    f.profiles = vec!["l'équipe".into(), "a\\b".into()];
    assert!(holds(r"'l\'équipe' in profiles", &f));
    assert!(holds(r#""l'équipe" in profiles"#, &f));
    assert!(holds(r"'a\\b' in profiles", &f));
    assert!(!holds("'Sales' in profiles", &f));
}

#[test]
fn fields_lists_what_is_read_once_in_order() {
    let expr = parse(
        "request.participants > 200 and ('sales' in profiles or request.participants == null) and station",
    )
    .unwrap();
    assert_eq!(
        expr.fields(),
        vec!["request.participants", "profiles", "station"]
    );
    assert!(parse("true").unwrap().fields().is_empty());
}

#[test]
fn display_is_canonical_and_reparses_to_the_same_tree() {
    for (source, canonical) in [
        (
            "!(station=='chat')&&request",
            "not station == 'chat' and request",
        ),
        ("(true or false) and false", "(true or false) and false"),
        ("true or (false or true)", "true or (false or true)"),
        ("(true or false) or true", "true or false or true"),
        ("not (request and true)", "not (request and true)"),
        ("\"it's\" in profiles", r"'it\'s' in profiles"),
        (
            "request.participants >= 12.50",
            "request.participants >= 12.5",
        ),
        ("request.pool in ['a',null,]", "request.pool in ['a', null]"),
        ("'x' not   in profiles", "'x' not in profiles"),
    ] {
        let expr = parse(source).unwrap();
        assert_eq!(expr.to_string(), canonical, "{source}");
        assert_eq!(parse(canonical).unwrap(), expr, "{canonical}");
    }
}

#[test]
fn syntax_errors_are_located_and_french() {
    assert_refused("", 1, "expression vide");
    assert_refused("   ", 1, "expression vide");
    assert_refused(
        "request.participants 200",
        22,
        "opérateur attendu après « request.participants », trouvé « 200 »",
    );
    assert_refused(
        "station = 'chat'",
        9,
        "« = » seul ne compare pas : écrivez « == »",
    );
    assert_refused(
        "station == 'chat' and",
        22,
        "condition attendue après « and », trouvé la fin de l'expression",
    );
    assert_refused(
        "station == 'chat' ||",
        21,
        "condition attendue après « || »",
    );
    assert_refused("not", 4, "condition attendue après « not »");
    assert_refused("station ==", 11, "valeur attendue après « == »");
    assert_refused(
        "station == 'chat",
        12,
        "chaîne non fermée : il manque le ' final",
    );
    assert_refused(r"station == 'a\nb'", 14, "échappement inconnu « \\n »");
    assert_refused(
        "(station == 'chat'",
        19,
        "parenthèse fermante « ) » attendue, trouvé la fin de l'expression",
    );
    assert_refused("station == 'chat')", 18, "« ) » sans parenthèse ouvrante");
    assert_refused("()", 2, "condition attendue après « ( », trouvé « ) »");
    assert_refused(
        "station == 'chat' request",
        19,
        "« and » ou « or » attendu, trouvé « request »",
    );
    assert_refused("# commentaire", 1, "condition attendue, trouvé « # »");
    assert_refused("and station", 1, "condition attendue, trouvé « and »");
    assert_refused("request.", 9, "nom de champ attendu après « request. »");
    assert_refused(
        "station in ['a' 'b']",
        17,
        "« , » ou « ] » attendu dans la liste",
    );
    assert_refused(
        "station in ['a', station]",
        18,
        "valeur attendue dans la liste",
    );
    assert_refused(
        "station in ['a'",
        16,
        "« , » ou « ] » attendu dans la liste, trouvé la fin",
    );
    assert_refused(
        "request.participants > -",
        24,
        "valeur attendue après « > », trouvé « - »",
    );
    let huge = format!("request.participants > {}", "9".repeat(400));
    assert_refused(&huge, 24, "nombre trop grand");
}

#[test]
fn columns_count_characters_not_bytes() {
    // « é » is two bytes; the column of `foo` is still 18.
    assert_refused(
        "'été' == station foo",
        18,
        "« and » ou « or » attendu, trouvé « foo »",
    );
    assert_refused(
        "station == 'à' and requête",
        20,
        "champ inconnu « requête »",
    );
}

#[test]
fn unknown_fields_name_the_permitted_ones() {
    let error = refused("request.participants > 10 and request.foo == 'x'");
    assert_eq!(error.column, 31);
    assert!(
        error.message.starts_with("champ inconnu « request.foo »"),
        "{error}"
    );
    assert!(
        error.message.contains(
            "champs permis : profiles, station, event, event_type, request, request.participants"
        ),
        "{error}"
    );
    assert_refused(
        "request.participant > 10",
        1,
        "champ inconnu « request.participant » (vouliez-vous dire « request.participants » ?)",
    );
    assert_refused("eval == 'x'", 1, "champ inconnu « eval »");
    assert_refused("True", 1, "champ inconnu « True »");
    assert_refused("request.participants.count > 1", 1, "champ inconnu");
}

#[test]
fn type_errors_point_at_the_operand_at_fault() {
    assert_refused(
        "profiles > 3",
        1,
        "« > » compare des nombres : « profiles » est une liste de textes",
    );
    assert_refused(
        "request.participants == 'x'",
        25,
        "« request.participants » est un nombre, « 'x' » est un texte : comparaison impossible",
    );
    assert_refused(
        "station < 'b'",
        1,
        "« < » compare des nombres : « station » est un texte",
    );
    assert_refused("request.participants < null", 24, "« null » est null");
    assert_refused(
        "profiles == 'sales'",
        1,
        "« profiles » est une liste de textes : utilisez « in »",
    );
    assert_refused(
        "request == 'x'",
        1,
        "« request » se compare seulement à null",
    );
    assert_refused("'sales' in station", 12, "« in » attend une liste à droite");
    assert_refused("profiles in ['a']", 1, "« in » cherche une valeur simple");
    assert_refused(
        "request.participants in request.configurations",
        1,
        "« request.participants » est un nombre, mais « request.configurations » contient des textes",
    );
    assert_refused("station in [1, 2]", 1, "contient des nombres");
    assert_refused(
        "station in ['a', 2]",
        18,
        "liste mêlant un texte et un nombre",
    );
    assert_refused(
        "station == ['a']",
        12,
        "une liste ne se compare pas avec « == »",
    );
    assert_refused("'sales'", 1, "« 'sales' » seul n'est pas une condition");
    assert_refused("42 or true", 1, "« 42 » seul n'est pas une condition");
    assert_refused("['a']", 1, "seule n'est pas une condition");
    assert_refused(
        "request.has_catalogue == 1",
        26,
        "est un booléen, « 1 » est un nombre",
    );
}

#[test]
fn nulls_and_lists_that_type_check() {
    for source in [
        "profiles == null",
        "null != request",
        "request.pool in [null]",
        "null in profiles",
        "station in []",
        "request.has_catalogue in [true]",
    ] {
        assert!(parse(source).is_ok(), "{source}: {:?}", parse(source));
    }
}

#[test]
fn limits_refuse_instead_of_overflowing() {
    let deep = format!("{}true{}", "(".repeat(100), ")".repeat(100));
    assert_refused(&deep, 33, "expression trop imbriquée");
    let nots = format!("{}true", "not ".repeat(100));
    assert!(refused(&nots).message.contains("trop imbriquée"));
    let long = format!("true{}", " or true".repeat(300));
    assert_refused(&long, MAX_CHARS + 1, "expression trop longue");
    let fine = format!("true{}", " or true".repeat(200));
    assert!(parse(&fine).unwrap().eval(&Facts::default()));
}

#[test]
fn facts_deserialize_strictly() {
    let f: Facts = serde_json::from_str(
        r#"{"profiles": ["sales"], "station": "chat", "request": {"participants": 300}}"#,
    )
    .unwrap();
    assert_eq!(f.request.as_ref().and_then(|r| r.participants), Some(300));
    assert!(serde_json::from_str::<Facts>(r#"{"profile": []}"#).is_err());
    assert!(serde_json::from_str::<Facts>(r#"{"request": {"budget": 3}}"#).is_err());
    assert_eq!(
        serde_json::from_str::<Facts>("{}").unwrap(),
        Facts::default()
    );
}

#[test]
fn the_whitelist_is_exported_with_french_labels() {
    assert_eq!(FIELDS.len(), 14);
    assert!(FIELDS.iter().all(|f| !f.label.is_empty()));
    let participants = FIELDS
        .iter()
        .find(|f| f.name == "request.participants")
        .unwrap();
    assert_eq!(participants.kind, FieldKind::Number);
}
