//! `maxy playbooks simulate` as an admin runs it: one JSON object on
//! standard input, one on standard output, French errors on standard error
//! and a non-zero exit. The explicit form needs no database: the tests point
//! `DATABASE_URL` at a port where nothing listens.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const MAXY: &str = env!("CARGO_BIN_EXE_maxy");

/// A fresh, empty working directory: the simulator must leave it empty.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("maxy-simulate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn simulate(name: &str, stdin: &str) -> Output {
    let dir = scratch_dir(name);
    let mut child = Command::new(MAXY)
        .args(["playbooks", "simulate"])
        .current_dir(&dir)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATABASE_URL", "postgres://maxy@127.0.0.1:9/nothing")
        .env("MAXY_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("maxy runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("stdin written");
    let output = child.wait_with_output().expect("maxy ends");
    let left: Vec<_> = std::fs::read_dir(&dir).expect("scratch dir").collect();
    assert!(left.is_empty(), "the simulator wrote files: {left:?}");
    let _ = std::fs::remove_dir(&dir);
    output
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn an_explicit_input_prints_the_decision() {
    let input = json!({
        "guidance": {"enforce": 0.85, "suggest": 0.5, "margin": 0.05, "max_mode": "enforce"},
        "candidates": [
            {"name": "groupe-plus-de-200", "eligible": true, "deterministic_trigger": false, "score": 0.80},
            {"name": "qualifier-demande", "eligible": true, "deterministic_trigger": false, "score": 0.88},
            {"name": "reprise-catalogue", "eligible": true, "deterministic_trigger": false, "score": 0.85},
            {"name": "reserve-direction", "eligible": false, "deterministic_trigger": false, "score": 0.97}
        ]
    });
    let output = simulate("good", &input.to_string());
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let printed: Value = serde_json::from_slice(&output.stdout).expect("one JSON object");
    assert_eq!(
        printed,
        json!({
            "mode": "SUGGEST",
            "opened": null,
            "suggested": ["qualifier-demande", "reprise-catalogue"],
            "candidates": [
                {"name": "qualifier-demande", "score": 0.88, "band": "ENFORCE", "eligible": true,
                 "reason": "au-dessus du seuil imposé mais à moins de la marge de 0,05 : suggéré"},
                {"name": "reprise-catalogue", "score": 0.85, "band": "ENFORCE", "eligible": true,
                 "reason": "au-dessus du seuil imposé mais à moins de la marge de 0,05 : suggéré"},
                {"name": "groupe-plus-de-200", "score": 0.8, "band": "SUGGEST", "eligible": true,
                 "reason": "non suggéré : plusieurs candidats au-dessus du seuil imposé, à moins de la marge"},
                {"name": "reserve-direction", "score": 0.97, "band": "ENFORCE", "eligible": false,
                 "reason": "non admissible pour ce profil"}
            ]
        })
    );
}

#[test]
fn a_trigger_opens_under_an_observe_station() {
    let input = r#"{"guidance": {"enforce": 0.85, "suggest": 0.5, "margin": 0.05, "max_mode": "observe"},
        "candidates": [{"name": "a", "eligible": true, "deterministic_trigger": true, "score": 0.1},
                       {"name": "b", "eligible": true, "deterministic_trigger": false, "score": 0.99}]}"#;
    let output = simulate("trigger", input);
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let printed: Value = serde_json::from_slice(&output.stdout).expect("one JSON object");
    assert_eq!(printed["mode"], "ENFORCE");
    assert_eq!(printed["opened"], "a");
}

#[test]
fn malformed_json_fails_with_a_message() {
    let output = simulate("malformed", r#"{"guidance": {"enforce": 0.85,"#);
    assert!(!output.status.success());
    assert!(output.stdout.is_empty());
    assert!(
        stderr(&output).contains("JSON incomplet (ligne 1"),
        "stderr: {}",
        stderr(&output)
    );

    let output = simulate("empty", "");
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("entrée vide"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn invalid_thresholds_name_the_field() {
    let input = r#"{"guidance": {"enforce": 0.85, "suggest": 0.9, "margin": 0.05, "max_mode": "enforce"},
        "candidates": []}"#;
    let output = simulate("thresholds", input);
    assert!(!output.status.success());
    assert!(output.stdout.is_empty());
    assert!(
        stderr(&output).contains(
            "guidance.suggest : suggest (0.9) doit être inférieur ou égal à enforce (0.85)"
        ),
        "stderr: {}",
        stderr(&output)
    );

    let input = r#"{"guidance": {"enforce": 0.85, "suggest": 0.5, "margin": 0.05, "max_mode": "enforce"},
        "candidates": [{"name": "a", "eligible": true, "deterministic_trigger": false, "score": 0.1},
                       {"name": "b", "eligible": true, "deterministic_trigger": false, "score": 1.2}]}"#;
    let output = simulate("score", input);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("candidates[1].score : doit être entre 0 et 1"),
        "stderr: {}",
        stderr(&output)
    );
}
