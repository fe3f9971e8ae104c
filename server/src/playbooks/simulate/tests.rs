//! The explicit form: its output, and every refusal with its place.
use super::*;
use serde_json::json;

fn input() -> Value {
    json!({
        "guidance": {"enforce": 0.85, "suggest": 0.5, "margin": 0.05, "max_mode": "enforce"},
        "candidates": [
            {"name": "qualifier-demande", "eligible": true, "deterministic_trigger": false, "score": 0.91},
            {"name": "groupe-200", "eligible": true, "deterministic_trigger": false, "score": 0.62},
            {"name": "interdit", "eligible": false, "deterministic_trigger": false, "score": 0.99}
        ]
    })
}

fn refused(input: Value) -> String {
    match explicit(&input) {
        Err(e) => e.to_string(),
        Ok(v) => format!("accepted: {v}"),
    }
}

#[test]
fn the_explicit_form_answers_the_documented_shape() {
    assert!(is_explicit(&input()));
    assert_eq!(
        explicit(&input()),
        Ok(json!({
            "mode": "ENFORCE",
            "opened": "qualifier-demande",
            "suggested": [],
            "candidates": [
                {"name": "qualifier-demande", "score": 0.91, "band": "ENFORCE", "eligible": true,
                 "reason": "au-dessus du seuil imposé : ouvert"},
                {"name": "groupe-200", "score": 0.62, "band": "SUGGEST", "eligible": true,
                 "reason": "non retenu : « qualifier-demande » a le meilleur score"},
                {"name": "interdit", "score": 0.99, "band": "ENFORCE", "eligible": false,
                 "reason": "non admissible pour ce profil"}
            ]
        }))
    );
}

#[test]
fn observe_only_is_optional_and_read() {
    let mut v = input();
    v["candidates"][0]["observe_only"] = json!(true);
    let out = explicit(&v).unwrap_or_default();
    assert_eq!(out["mode"], "OBSERVE");
    assert_eq!(out["opened"], Value::Null);
}

#[test]
fn refusals_are_french_and_located() {
    let with = |pointer: &str, value: Value| {
        let mut v = input();
        if let Some(slot) = v.pointer_mut(pointer) {
            *slot = value;
        }
        refused(v)
    };
    assert_eq!(
        with("/candidates/2/score", json!(1.5)),
        "candidates[2].score : doit être entre 0 et 1"
    );
    assert_eq!(
        with("/candidates/0/score", json!(-0.1)),
        "candidates[0].score : doit être entre 0 et 1"
    );
    assert_eq!(
        with("/candidates/1/score", json!("0.5")),
        "candidates[1].score : doit être un nombre"
    );
    assert_eq!(
        with("/candidates/1/name", json!("  ")),
        "candidates[1].name : ne doit pas être vide"
    );
    assert_eq!(
        with("/candidates/2/name", json!("groupe-200")),
        "candidates[2].name : « groupe-200 » est déjà le nom de candidates[1]"
    );
    assert_eq!(
        with("/candidates/0/eligible", json!(1)),
        "candidates[0].eligible : doit être true ou false"
    );
    assert_eq!(
        with("/guidance/suggest", json!(0.9)),
        "guidance.suggest : suggest (0.9) doit être inférieur ou égal à enforce (0.85)"
    );
    assert_eq!(
        with("/guidance/margin", json!(2)),
        "guidance.margin : doit être entre 0 et 1"
    );
    assert_eq!(
        with("/guidance/max_mode", json!("ENFORCE")),
        "guidance.max_mode : doit être « enforce », « suggest » ou « observe »"
    );
    assert_eq!(
        with("/candidates", json!({})),
        "candidates : doit être une liste"
    );
    assert_eq!(
        with("/candidates/0", json!(3)),
        "candidates[0] : doit être un objet"
    );

    let mut v = input();
    v["candidates"][1]["colour"] = json!("bleu");
    assert_eq!(
        refused(v),
        "candidates[1].colour : champ inconnu (attendus : name, eligible, deterministic_trigger, score, observe_only)"
    );
    let mut v = input();
    v["station"] = json!("chat");
    assert!(refused(v).starts_with("station : champ inconnu"));
    let mut v = input();
    if let Some(g) = v["guidance"].as_object_mut() {
        g.remove("margin");
    }
    assert_eq!(refused(v), "guidance.margin : champ obligatoire");
    let mut v = input();
    if let Some(c) = v["candidates"][0].as_object_mut() {
        c.remove("deterministic_trigger");
    }
    assert_eq!(
        refused(v),
        "candidates[0].deterministic_trigger : champ obligatoire"
    );
    assert_eq!(
        refused(json!({"candidates": []})),
        "guidance : champ obligatoire"
    );
    assert_eq!(refused(json!([1])), "l'entrée doit être un objet JSON");
}

#[test]
fn no_candidates_is_observe() {
    let mut v = input();
    v["candidates"] = json!([]);
    assert_eq!(
        explicit(&v),
        Ok(json!({"mode": "OBSERVE", "opened": null, "suggested": [], "candidates": []}))
    );
}

#[test]
fn malformed_json_says_where() {
    let err = |text: &str| parse(text).err().map(|e| e.to_string()).unwrap_or_default();
    assert_eq!(err(""), "entrée vide : un objet JSON est attendu");
    assert_eq!(
        err("{\"candidates\": [}"),
        "JSON mal formé (ligne 1, colonne 17)"
    );
    assert_eq!(
        err("{\"candidates\": ["),
        "JSON incomplet (ligne 1, colonne 16)"
    );
    assert_eq!(err("{} {}"), "JSON mal formé (ligne 1, colonne 4)");
}
