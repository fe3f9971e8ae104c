//! Parsing and validation of definitions: the shipped ones parse, each
//! refusal is located, and no input makes the parser panic.
use super::*;
use proptest::prelude::*;

const MINIMAL: &str = "name: essai\ngoal: \"un but\"\nsteps:\n  - skill: get_request\n";

fn refused(source: &str) -> DefinitionError {
    match parse(source) {
        Ok(d) => panic!("accepted: {d:?}"),
        Err(e) => e,
    }
}

#[test]
fn a_minimal_definition_takes_the_defaults() {
    let d = parse(MINIMAL).expect("parses");
    assert_eq!(d.name, "essai");
    assert_eq!(d.activation, Activation::default());
    assert_eq!(d.profiles, Profiles::default());
    assert!(!d.steps[0].optional);
    assert!(!d.is_deterministic_trigger());
    assert_eq!(d.describe_for_scoring(), "un but");
}

#[test]
fn the_example_of_the_module_doc_parses() {
    let source = "\
name: qualification-demande
goal: \"la demande est qualifiée\"
activation:
  when: \"'sales' in profiles or 'account-manager' in profiles\"
  intent: \"qualifier une nouvelle demande d'organisateur\"
  auto_trigger: false
  exclusive_skills: [update_request]
steps:
  - skill: get_request
  - skill: find_similar_requests
    optional: true
  - skill: update_request
    guard: \"request.participants != null\"
    guard_message: \"renseignez d'abord le nombre de participants\"
profiles:
  open: [sales, account-manager, admin]
  abandon: [senior, manager, admin]
";
    let d = parse(source).expect("parses");
    assert_eq!(d.steps.len(), 3);
    assert!(d.steps[1].optional);
    assert_eq!(
        d.steps[2].guard.as_deref(),
        Some("request.participants != null")
    );
    assert!(
        !d.is_deterministic_trigger(),
        "an intent without auto_trigger"
    );
    assert_eq!(
        d.describe_for_scoring(),
        "qualifier une nouvelle demande d'organisateur — la demande est qualifiée"
    );
}

#[test]
fn deterministic_triggers() {
    let mut d = parse(MINIMAL).expect("parses");
    d.activation.when = Some("request.participants > 200".into());
    assert!(d.is_deterministic_trigger(), "when without intent");
    d.activation.intent = Some("un groupe".into());
    assert!(!d.is_deterministic_trigger(), "when with intent filters");
    d.activation.auto_trigger = true;
    assert!(d.is_deterministic_trigger(), "auto_trigger");
}

#[test]
fn who_may_open_and_abandon() {
    let p = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut d = parse(MINIMAL).expect("parses");
    assert!(d.may_open(&p(&["junior"])), "empty open: everyone");
    assert!(d.may_open(&[]), "even without profiles");
    assert!(
        !d.may_abandon(&p(&["senior"])),
        "empty abandon: admins only"
    );
    assert!(d.may_abandon(&p(&["admin"])));
    d.profiles.open = p(&["sales", "admin"]);
    d.profiles.abandon = p(&["senior"]);
    assert!(d.may_open(&p(&["junior", "sales"])));
    assert!(!d.may_open(&p(&["junior"])));
    assert!(d.may_abandon(&p(&["senior"])));
    assert!(
        !d.may_abandon(&p(&["admin"])),
        "a list replaces the default"
    );
}

#[test]
fn the_shipped_playbooks_parse() {
    for (file, source) in crate::playbooks::store::shipped() {
        let d = parse(source).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(format!("{}.yaml", d.name), *file);
        assert!(source.lines().count() <= 40, "{file}: keep it short");
    }
}

#[test]
fn invalid_yaml_is_located() {
    let e = refused("name: essai\ngoal: un: but\nsteps: []\n");
    assert_eq!(e.line, Some(2));
    assert!(e.message.starts_with("YAML invalide"), "{e}");
    assert!(e.to_string().starts_with("ligne 2"), "{e}");
}

#[test]
fn an_unknown_key_is_named_with_its_line() {
    let e = refused(&format!("{MINIMAL}    timeout: 3\n"));
    assert_eq!(e.field.as_deref(), Some("steps[0].timeout"));
    assert_eq!(e.line, Some(5));
    assert!(e.message.contains("champ inconnu « timeout »"), "{e}");
    let e = refused(&format!("{MINIMAL}activation:\n  whn: \"x\"\n"));
    assert_eq!(e.field.as_deref(), Some("activation.whn"));
    assert_eq!(e.line, Some(6));
}

#[test]
fn missing_or_empty_fields_are_refused() {
    let e = refused("name: essai\nsteps:\n  - skill: get_request\n");
    assert_eq!(e.field.as_deref(), Some("goal"));
    assert!(e.message.contains("manquant"), "{e}");
    let e = refused("name: essai\ngoal: \"  \"\nsteps:\n  - skill: get_request\n");
    assert_eq!((e.field.as_deref(), e.line), (Some("goal"), Some(2)));
    let e = refused("name: essai\ngoal: but\nsteps: []\n");
    assert_eq!((e.field.as_deref(), e.line), (Some("steps"), Some(3)));
    let e = refused("name: essai\ngoal: but\nsteps:\n  - optional: true\n");
    assert_eq!(e.field.as_deref(), Some("steps[0].skill"));
    assert_eq!(e.line, Some(4));
    let e = refused("");
    assert!(e.message.contains("name, goal et steps"), "{e}");
}

#[test]
fn a_bad_slug_is_refused() {
    let e = refused(&MINIMAL.replace("essai", "Essai Groupe"));
    assert_eq!(
        (e.field.as_deref(), e.line, e.column),
        (Some("name"), Some(1), Some(1))
    );
    assert!(e.message.contains("n'est pas un nom valide"), "{e}");
    for bad in ["-a", "a-", "a--b", "é"] {
        refused(&MINIMAL.replace("essai", bad));
    }
}

#[test]
fn an_unknown_skill_is_refused_with_its_line_and_field() {
    let source = "name: essai\ngoal: but\nsteps:\n  - skill: get_request\n  - skill: refund\n";
    let e = refused(source);
    assert_eq!(e.field.as_deref(), Some("steps[1].skill"));
    assert_eq!((e.line, e.column), (Some(5), Some(5)));
    assert!(e.message.contains("« refund » n'est pas une skill"), "{e}");
    assert!(
        e.to_string()
            .starts_with("ligne 5, colonne 5, steps[1].skill : "),
        "{e}"
    );
}

#[test]
fn exclusive_skills_must_exist_and_be_steps() {
    let e = refused(&format!(
        "{MINIMAL}activation:\n  exclusive_skills: [get_request, refund]\n"
    ));
    assert_eq!(e.field.as_deref(), Some("activation.exclusive_skills[1]"));
    assert_eq!((e.line, e.column), (Some(6), Some(35)));
    let e = refused(&format!(
        "{MINIMAL}activation:\n  exclusive_skills:\n    - update_request\n"
    ));
    assert_eq!(e.field.as_deref(), Some("activation.exclusive_skills[0]"));
    assert_eq!(e.line, Some(7));
    assert!(e.message.contains("doit être une des étapes"), "{e}");
}

#[test]
fn a_when_with_a_syntax_error_is_located_in_the_file() {
    // The expression starts at column 10 (inside the quotes); its error
    // column is added to it.
    let e = refused(&format!(
        "{MINIMAL}activation:\n  when: \"request.participants >\"\n"
    ));
    assert_eq!(e.field.as_deref(), Some("activation.when"));
    assert_eq!(e.line, Some(6));
    let column = e.column.expect("a column");
    assert!(column >= 10, "{e}");
    assert!(e.to_string().starts_with("ligne 6, colonne "), "{e}");
}

#[test]
fn a_when_with_an_unknown_field_is_refused() {
    let e = refused(&format!(
        "{MINIMAL}activation:\n  when: \"request.participant > 200\"\n"
    ));
    assert_eq!(
        (e.field.as_deref(), e.line, e.column),
        (Some("activation.when"), Some(6), Some(10))
    );
    let e = refused(&format!(
        "{MINIMAL}    guard: \"request.colour == 'red'\"\n"
    ));
    assert_eq!(
        (e.field.as_deref(), e.line),
        (Some("steps[0].guard"), Some(5))
    );
}

#[test]
fn other_inconsistencies_are_refused() {
    let e = refused(&format!("{MINIMAL}activation:\n  auto_trigger: true\n"));
    assert_eq!(e.field.as_deref(), Some("activation.auto_trigger"));
    let e = refused(&format!("{MINIMAL}    guard_message: \"pourquoi\"\n"));
    assert_eq!(e.field.as_deref(), Some("steps[0].guard_message"));
    let e = refused(&format!("{MINIMAL}activation:\n  intent: \"\"\n"));
    assert_eq!(e.field.as_deref(), Some("activation.intent"));
    let e = refused(&format!(
        "{MINIMAL}profiles:\n  open: [\"chef de projet\"]\n"
    ));
    assert_eq!(e.field.as_deref(), Some("profiles.open[0]"));
    let e = refused(&format!("{MINIMAL}    optional: peut-être\n"));
    assert_eq!(e.field.as_deref(), Some("steps[0].optional"));
    assert!(e.message.contains("booléen"), "{e}");
}

#[test]
fn a_definition_round_trips_through_json() {
    for (_, source) in crate::playbooks::store::shipped() {
        let d = parse(source).expect("parses");
        let json = serde_json::to_value(&d).expect("json");
        let back: Definition = serde_json::from_value(json).expect("back");
        assert_eq!(back, d);
    }
}

proptest! {
    #[test]
    fn parse_never_panics(source in "\\PC{0,200}") {
        let _ = parse(&source);
    }

    #[test]
    fn parse_never_panics_on_yaml_like_text(
        source in "([a-z_]{1,8}:( [\"'\\[\\]a-z0-9 ,>|-]{0,12})?\n( {0,4}- ?)?){0,8}"
    ) {
        let _ = parse(&source);
    }

    /// Shipped files with a slice cut out, a character replaced or inserted.
    #[test]
    fn parse_never_panics_on_mutated_shipped_files(
        which in 0usize..3,
        at in 0usize..2000,
        len in 0usize..12,
        insert in "\\PC{0,3}",
    ) {
        let (_, source) = crate::playbooks::store::shipped()[which % crate::playbooks::store::shipped().len()];
        let chars: Vec<char> = source.chars().collect();
        let at = at % (chars.len() + 1);
        let end = (at + len).min(chars.len());
        let mutated: String = chars[..at]
            .iter()
            .chain(insert.chars().collect::<Vec<_>>().iter())
            .chain(chars[end..].iter())
            .collect();
        if let Err(e) = parse(&mutated) {
            prop_assert!(!e.message.is_empty());
            if let Some(line) = e.line {
                prop_assert!(line >= 1 && line <= mutated.lines().count().max(1) + 1, "{e}");
            }
        }
    }
}

#[test]
fn an_overlong_definition_is_refused_before_parsing() {
    let source = format!("{MINIMAL}# {}\n", "x".repeat(MAX_CHARS));
    let e = refused(&source);
    assert!(e.message.contains("trop longue"), "{e}");
}

/// Whatever the mistake, the message is French and says where.
#[test]
fn messages_are_french_and_located() {
    let cases = [
        "name: essai\nname: autre\ngoal: but\nsteps:\n  - skill: get_request\n",
        "name: essai\ngoal: but\nsteps: get_request\n",
        "name: essai\ngoal: but\nsteps:\n  - get_request\n",
        "name: [a]\ngoal: but\nsteps:\n  - skill: get_request\n",
        "name: essai\ngoal: [but]\nsteps:\n  - skill: get_request\n",
        "name: essai\ngoal: but\nactivation: oui\nsteps:\n  - skill: get_request\n",
        "name: essai\ngoal: but\nactivation:\n  when: 3\nsteps:\n  - skill: get_request\n",
        "name: essai\ngoal: but\nsteps:\n\t- skill: get_request\n",
        "name: essai\ngoal: \"but\nsteps:\n  - skill: get_request\n",
        "name: essai\ngoal: but\nsteps:\n  - skill: *nowhere\n",
        "- name: essai\n",
        "name: essai\ngoal: but\nsteps:\n  - skill: get_request\n---\nname: b\n",
    ];
    for source in cases {
        let e = refused(source);
        if source.starts_with("name: essai\nname:") {
            assert_eq!((e.line, e.field.as_deref()), (Some(2), Some("name")), "{e}");
        }
        let text = e.to_string();
        println!("{text}");
        assert!(e.line.is_some(), "{source:?}: {text}");
        let words: Vec<&str> = e.message.split(|c: char| !c.is_alphabetic()).collect();
        for english in [
            "expected",
            "invalid",
            "unknown",
            "found",
            "missing",
            "duplicate",
        ] {
            assert!(!words.contains(&english), "{source:?}: {text}");
        }
    }
}
