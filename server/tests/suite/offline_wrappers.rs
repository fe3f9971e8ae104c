//! The offline planner speaks to people: what it quotes from the tools'
//! answers — where every third-party field now arrives wrapped (names,
//! cities, rooms, the search's reasons, kinds of event, zones, training
//! directives) — reaches the chat as written, without the model's wrapper.
//! Issue 25: « Qualifie cette demande » answered
//! `Consigne « <external_content type="training_reason"> festif </external_… »`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::planner_harness as harness;

use harness::*;
use serde_json::{json, Value};

/// A pick as `search_members` answers it now: every text wrapped.
fn wrapped_pick(code: &str, name: &str) -> Value {
    json!({
        "code": code,
        "name": wrapped("venue_name", name),
        "city": wrapped("place", "Paris"),
        "postal_code": "75008",
        "matched_room": {"id": 500, "name": wrapped("venue_name", "Salon <Jardin>"),
                         "configuration": "cocktail", "capacity": 120},
        "reason": wrapped("search_note", "Salle « Salon <Jardin> » : 120 places en cocktail ; \
                          jardin, préféré par l'équipe pour « festif »."),
        "distance_km": 0.4
    })
}

/// The read tools of « Qualifie cette demande », answering as they do now.
fn tools(name: &str, _input: &Value) -> Result<Value, String> {
    Ok(match name {
        "get_request" => json!({"request": {
            "id": 42, "reference": "D-2026-00042", "pool": "paris", "status": "new",
            "participants": 80, "configurations": ["cocktail"], "postal_codes": ["75008"],
            "event_type": wrapped("event_type", "Soirée"), "budget_eur": 12000,
            "event_start_date": "2026-06-12", "area": wrapped("area", "Paris 8e"),
            "description": wrapped("description", "Soirée festive & rooftop pour 80 personnes."),
            "team_memo": null, "search_hints": null
        }}),
        "find_similar_requests" => json!({"similar": [], "source": "fts"}),
        "search_members" => json!({
            "recommended": (0..4).map(|i| wrapped_pick(&format!("#10{i}"), &format!("Le Belvédère & {i}"))).collect::<Vec<_>>(),
            "compatible": (0..4).map(|i| wrapped_pick(&format!("#20{i}"), &format!("Loft {i}"))).collect::<Vec<_>>(),
            "narrow_area": false,
            "notices": [wrapped("search_note", "Zone élargie au 17e.")],
            "understood": [wrapped("search_note", "75008 (Paris 8e)")],
        }),
        "get_member_signals" => json!({"signals": []}),
        "search_training" => json!({"sessions": [
            {"id": 1, "verdict": "guideline", "category": "ambiance",
             "event_type": wrapped("event_type", "soiree"), "member_code": null,
             "reason": wrapped("training_reason", "Les soirées festives veulent de l'extérieur."),
             "directives": {"trigger": wrapped("training_reason", "festif"),
                            "prefer": [wrapped("training_reason", "jardin"), wrapped("training_reason", "terrasse")],
                            "avoid": [wrapped("training_reason", "sous-sol")]},
             "created_at": "2026-03-01T10:00:00Z"}], "source": "fts"}),
        "add_members_to_catalog" => {
            Value::String("Proposition en attente de validation : la carte est affichée.".into())
        }
        other => panic!("unexpected tool {other}"),
    })
}

#[track_caller]
fn no_wrapper(text: &str) {
    assert!(
        !text.contains("external_") && !text.contains("&lt;") && !text.contains("&amp;"),
        "the wrapper reached people:\n{text}"
    );
}

#[test]
fn qualify_quotes_the_training_as_written() {
    let mut req = request(SYSTEM, "Qualifie cette demande");
    let (calls, text) = run(&mut req, &mut tools);
    no_wrapper(&text);
    assert!(
        text.contains("Consigne « festif » : préférer jardin, terrasse ; éviter sous-sol"),
        "{text}"
    );
    assert!(text.contains("Le Belvédère & 0 (#100)"), "{text}");
    // What it passed on to the tools is the text too: the search read the
    // description, the card's picks carry the reason as written.
    for (name, input) in &calls {
        no_wrapper(&input.to_string());
        if name == "add_members_to_catalog" {
            let reason = input["picks"][0]["reason"].as_str().unwrap_or_default();
            assert!(reason.contains("Salon <Jardin>"), "{input}");
        }
    }
    let training = calls.iter().find(|(n, _)| n == "search_training").unwrap();
    assert_eq!(training.1["event_type"], "soirée", "{}", training.1);
}

#[test]
fn what_the_team_learned_is_quoted_as_written() {
    let mut req = request(SYSTEM, "Qu'a-t-on appris sur les soirées ?");
    let (_, text) = run(&mut req, &mut tools);
    no_wrapper(&text);
    assert!(text.contains("Consigne « festif »"), "{text}");
    assert!(text.contains("de l'extérieur"), "{text}");
}
