//! Bad playbook definitions, as an admin would write them by editing a
//! shipped one (issue 28): invalid YAML, an unknown skill, a `when` with a
//! syntax error or an unknown field — each refused with the line and the
//! field in a French message.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use server::playbooks::definition::{parse, DefinitionError};
use server::playbooks::store;

fn shipped(name: &str) -> &'static str {
    store::shipped()
        .iter()
        .find(|(file, _)| file.strip_suffix(".yaml") == Some(name))
        .map(|(_, source)| *source)
        .expect("shipped")
}

/// The 1-based line of the first line of `source` containing `text`.
fn line_of(source: &str, text: &str) -> usize {
    source
        .lines()
        .position(|l| l.contains(text))
        .expect("present")
        + 1
}

fn refused(source: &str) -> DefinitionError {
    parse(source).expect_err("refused")
}

#[test]
fn invalid_yaml() {
    let source = shipped("qualification-demande")
        .replace("  - skill: get_request\n", "  - skill: [get_request\n");
    let e = refused(&source);
    assert!(e.message.starts_with("YAML invalide"), "{e}");
    assert!(e.line.is_some(), "{e}");
    assert!(e.to_string().starts_with("ligne "), "{e}");
}

#[test]
fn an_unknown_skill() {
    let source =
        shipped("groupe-plus-de-200").replace("skill: count_members", "skill: count_venues");
    let e = refused(&source);
    assert_eq!(e.field.as_deref(), Some("steps[1].skill"));
    assert_eq!(e.line, Some(line_of(&source, "count_venues")));
    assert!(
        e.message.contains("« count_venues » n'est pas une skill"),
        "{e}"
    );
}

#[test]
fn an_unknown_exclusive_skill() {
    let source = shipped("qualification-demande").replace(
        "exclusive_skills: [update_request]",
        "exclusive_skills: [update_requests]",
    );
    let e = refused(&source);
    assert_eq!(e.field.as_deref(), Some("activation.exclusive_skills[0]"));
    assert_eq!(e.line, Some(line_of(&source, "exclusive_skills:")));
}

#[test]
fn a_when_with_a_syntax_error() {
    let source = shipped("groupe-plus-de-200").replace(
        "when: \"request.participants > 200\"",
        "when: \"request.participants > > 200\"",
    );
    let e = refused(&source);
    let line = line_of(&source, "when:");
    assert_eq!(
        (e.field.as_deref(), e.line),
        (Some("activation.when"), Some(line))
    );
    // The column is in the file: past the opening quote of the expression.
    let quote = source.lines().nth(line - 1).unwrap().find('"').unwrap() + 1;
    assert!(e.column.expect("column") > quote, "{e}");
    assert!(
        e.to_string()
            .starts_with(&format!("ligne {line}, colonne ")),
        "{e}"
    );
}

#[test]
fn a_when_with_an_unknown_field() {
    let source = shipped("reprise-catalogue-commentaire").replace(
        "when: \"request.organizer_comment\"",
        "when: \"request.organiser_comment\"",
    );
    let e = refused(&source);
    let line = line_of(&source, "when:");
    let quote = source.lines().nth(line - 1).unwrap().find('"').unwrap() + 1;
    assert_eq!(
        (e.field.as_deref(), e.line, e.column),
        (Some("activation.when"), Some(line), Some(quote + 1)),
        "{e}"
    );
    assert!(e.message.contains("request.organiser_comment"), "{e}");
}

#[test]
fn a_guard_with_an_unknown_field() {
    let source = shipped("groupe-plus-de-200").replace(
        "guard: \"request.participants > 200\"",
        "guard: \"request.guests > 200\"",
    );
    let e = refused(&source);
    assert_eq!(e.field.as_deref(), Some("steps[4].guard"));
    assert_eq!(e.line, Some(line_of(&source, "guard:")));
}

#[test]
fn an_unknown_key() {
    let source = shipped("reprise-catalogue-commentaire").replace("  open: []", "  opne: []");
    let e = refused(&source);
    assert_eq!(e.field.as_deref(), Some("profiles.opne"));
    assert_eq!(e.line, Some(line_of(&source, "opne")));
    assert!(
        e.message
            .contains("champ inconnu « opne » (champs possibles : open, abandon)"),
        "{e}"
    );
}

#[test]
fn the_shipped_playbooks_say_what_they_are() {
    let group = parse(shipped("groupe-plus-de-200")).unwrap();
    assert!(group.is_deterministic_trigger(), "a when without intent");
    let rework = parse(shipped("reprise-catalogue-commentaire")).unwrap();
    assert!(
        !rework.is_deterministic_trigger(),
        "a when with an intent filters"
    );
    assert!(rework
        .describe_for_scoring()
        .starts_with("retravailler un catalogue"));
    let junior = ["sales".to_string(), "junior".to_string()];
    assert!(rework.may_open(&junior));
    assert!(!rework.may_abandon(&junior));
    let qualification = parse(shipped("qualification-demande")).unwrap();
    assert!(!qualification.may_open(&["junior".to_string()]));
    assert!(qualification.may_abandon(&["manager".to_string()]));
}
