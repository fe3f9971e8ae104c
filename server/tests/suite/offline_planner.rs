//! The offline planner, step by step: for each intent the exact tool calls
//! it makes and the French answer it composes from canned tool results
//! (the tools' JSON shapes as the read tools answer them).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::planner_harness as harness;

use futures_util::StreamExt;
use harness::*;
use serde_json::{json, Value};
use server::llm::{ChatEvent, CompletionRequest, LlmError, LlmProvider, OfflineLlm, Task};
use server::planner::Planner;

fn the_request() -> Value {
    json!({"request": {
        "id": 42, "reference": "D-2026-00042", "pool": "paris", "status": "new",
        "participants": 80, "configurations": ["cocktail"], "postal_codes": ["75008"],
        "event_type": "Soiree", "budget_eur": 12000, "event_start_date": "2026-06-12",
        "area": "Paris 8e",
        "description": wrapped("description", "Soirée d'été <festive> & rooftop pour 80 personnes."),
        "team_memo": null, "search_hints": null
    }})
}

fn search(recommended: usize, compatible: usize) -> Value {
    let rec: Vec<Value> = (0..recommended)
        .map(|i| {
            pick(
                &format!("#{}", 100 + i),
                &format!("Rooftop {i}"),
                Some(500 + i as i64),
            )
        })
        .collect();
    let comp: Vec<Value> = (0..compatible)
        .map(|i| {
            pick(
                &format!("#{}", 200 + i),
                &format!("Loft {i}"),
                (i % 2 == 0).then_some(600 + i as i64),
            )
        })
        .collect();
    json!({"recommended": rec, "compatible": comp, "narrow_area": false, "notices": [], "understood": []})
}

/// The tools of the qualify workflow, with `found` as the search's answer.
fn qualify_tools(found: Value) -> impl FnMut(&str, &Value) -> Result<Value, String> {
    move |name, _input| {
        Ok(match name {
            "get_request" => the_request(),
            "find_similar_requests" => json!({"similar": [
                {"id": 7, "reference": "D-2025-00007", "similarity": 0.91,
                 "summary": wrapped("description", "Cocktail 90 pers."), "catalogue": []}]}),
            "search_members" => found.clone(),
            "get_member_signals" => json!({"signals": [
                {"code": "#101", "team_favorite": false, "favorites": 0, "response_rate": 0.1,
                 "median_response_hours": 40.0, "catalogues_last_year": 2, "won": 0},
                {"code": "#202", "team_favorite": true, "favorites": 3, "response_rate": 0.9,
                 "median_response_hours": 2.0, "catalogues_last_year": 9, "won": 3}]}),
            "search_training" => json!({"sessions": [
                {"id": 1, "verdict": "rejected", "category": "ambiance", "event_type": "soiree",
                 "member_code": "#103", "reason": wrapped("training_reason", "Trop calme le soir."),
                 "directives": null, "created_at": "2026-03-01T10:00:00Z"}]}),
            "add_members_to_catalog" => Value::String(
                "Proposition en attente de validation : la carte est affichée.".into(),
            ),
            other => panic!("unexpected tool {other}"),
        })
    }
}

#[test]
fn qualify_runs_the_seed_workflow_one_step_per_call() {
    let mut req = request(SYSTEM, "Qualifie cette demande");
    let (calls, text) = run(&mut req, &mut qualify_tools(search(6, 5)));
    assert_eq!(
        names(&calls),
        [
            "get_request",
            "find_similar_requests",
            "search_members",
            "get_member_signals",
            "search_training",
            "add_members_to_catalog"
        ]
    );
    assert_eq!(calls[0].1, json!({"request_id": 42}));
    assert_eq!(calls[1].1, json!({"request_id": 42}));
    // The description leaves its wrapper, decoded, as the search's text.
    assert_eq!(
        calls[2].1,
        json!({"text": "Soirée d'été <festive> & rooftop pour 80 personnes.", "participants": 80,
               "configurations": ["cocktail"], "postal_codes": ["75008"], "pool": "paris"})
    );
    assert_eq!(calls[3].1["codes"].as_array().unwrap().len(), 11);
    assert_eq!(
        calls[4].1,
        json!({"event_type": "soiree", "text": "Soirée d'été <festive> & rooftop pour 80 personnes."})
    );
    let picks = calls[5].1["picks"].as_array().unwrap();
    assert_eq!(calls[5].1["request_id"], 42);
    let tier = |t: &str| -> Vec<&str> {
        picks
            .iter()
            .filter(|p| p["tier"] == t)
            .map(|p| p["member_code"].as_str().unwrap())
            .collect()
    };
    // #202 (compatible, team favourite) moves up first; #101 (answers 10 %)
    // goes down; #103 (rejected by the team for this kind of event) is out;
    // #105, the fifth recommended, leads the compatible ones.
    assert_eq!(tier("recommended"), ["#202", "#100", "#102", "#104"]);
    assert_eq!(tier("compatible"), ["#105", "#101", "#200", "#201"]);
    let room = |code: &str| {
        picks
            .iter()
            .find(|p| p["member_code"] == code)
            .unwrap()
            .get("room_id")
            .cloned()
    };
    assert_eq!(room("#100"), Some(json!(500)));
    assert_eq!(room("#200"), Some(json!(600)));
    assert_eq!(room("#201"), None, "no room matched, none pinned");
    for p in picks {
        let reason = p["reason"].as_str().unwrap();
        assert!(
            reason.starts_with("Rooftop festif avec vue, 120 en cocktail"),
            "{reason}"
        );
        assert!(!reason.contains("Très demandé"), "one sentence: {reason}");
    }
    assert!(
        text.starts_with(
            "J'ai préparé 8 lieux (4 recommandés + 4 compatibles) pour la demande D-2026-00042 ; \
         la carte dit si elle complète ou remplace le brouillon actuel : validez-la pour \
         l'appliquer."
        ),
        "{text}"
    );
    assert!(text.contains("D-2025-00007"), "{text}");
    assert!(text.contains("Écarté : #103"), "{text}");
}

#[test]
fn qualify_never_pads_the_catalogue() {
    let mut req = request(SYSTEM, "propose un catalogue");
    let (calls, text) = run(&mut req, &mut qualify_tools(search(2, 1)));
    let add: Vec<&Value> = calls
        .iter()
        .filter(|(n, _)| n == "add_members_to_catalog")
        .map(|(_, i)| i)
        .collect();
    assert_eq!(add.len(), 1);
    let codes: Vec<&str> = add[0]["picks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["member_code"].as_str().unwrap())
        .collect();
    // #101 answers too rarely to be recommended: 1 + 2.
    assert_eq!(codes, ["#100", "#101", "#200"]);
    assert!(
        text.starts_with("J'ai préparé 3 lieux (1 recommandé + 2 compatibles)"),
        "{text}"
    );
    assert!(text.contains("pas davantage"), "{text}");
}

#[test]
fn qualify_without_results_proposes_nothing() {
    let mut req = request(SYSTEM, "Qualifie cette demande");
    let (calls, text) = run(&mut req, &mut qualify_tools(search(0, 0)));
    assert_eq!(
        names(&calls),
        ["get_request", "find_similar_requests", "search_members"]
    );
    assert!(text.contains("aucun lieu assez bon"), "{text}");
}

#[test]
fn qualify_asks_which_request_when_none_is_known() {
    let mut req = request("Tu es Maxy.", "Qualifie cette demande");
    let (calls, text) = run(&mut req, &mut qualify_tools(search(1, 0)));
    assert!(calls.is_empty());
    assert!(text.starts_with("Quelle demande"), "{text}");
    // A number in the message is enough.
    let mut req = request("Tu es Maxy.", "Qualifie la demande #12");
    let a = answer(&req);
    let (_, name, input) = a.tool_calls().next().unwrap();
    assert_eq!((name, input), ("get_request", &json!({"request_id": 12})));
    // A reference the conversation does not know is read by reference,
    // and checked once read.
    req = request(SYSTEM, "Qualifie D-2025-00017");
    let (calls, text) = run(&mut req, &mut qualify_tools(search(1, 0)));
    assert_eq!(
        calls,
        [(
            "get_request".to_string(),
            json!({"reference": "D-2025-00017"})
        )]
    );
    assert!(
        text.contains("Je ne retrouve pas la demande D-2025-00017"),
        "{text}"
    );
}

#[test]
fn a_reference_names_its_request_whatever_its_id() {
    // D-2026-00042 is request 7 here: its number says nothing of its id,
    // which only the read by reference tells.
    let mut req = request("Tu es Maxy.", "Qualifie la demande D-2026-00042");
    let mut tools = qualify_tools(search(2, 1));
    let (calls, text) = run(&mut req, &mut |name, input| {
        let mut v = tools(name, input)?;
        if name == "get_request" {
            v["request"]["id"] = json!(7);
        }
        Ok(v)
    });
    assert_eq!(
        calls[0],
        (
            "get_request".to_string(),
            json!({"reference": "D-2026-00042"})
        )
    );
    let by_id: Vec<&Value> = calls
        .iter()
        .filter_map(|(_, input)| input.get("request_id"))
        .collect();
    assert!(!by_id.is_empty(), "{calls:?}");
    assert!(by_id.iter().all(|id| **id == json!(7)), "{calls:?}");
    assert!(!text.contains("retrouve pas"), "{text}");
}

#[test]
fn find_searches_with_the_users_words_and_lists_the_tiers() {
    let text = "Trouve un rooftop pour 80 personnes dans le 8e";
    let mut req = request(SYSTEM, text);
    let mut found = search(1, 1);
    found["narrow_area"] = json!(true);
    found["notices"] = json!(["Aucun lieu exactement dans le 8e : élargi au 17e."]);
    let (calls, answer) = run(&mut req, &mut |name, _| {
        assert_eq!(name, "search_members");
        Ok(found.clone())
    });
    assert_eq!(
        calls,
        [("search_members".to_string(), json!({"text": text}))]
    );
    let rec = answer.find("Recommandés :").unwrap();
    let comp = answer.find("Compatibles :").unwrap();
    assert!(rec < comp);
    assert!(answer.contains("- Rooftop 0 (#100, Paris 75008) — Salle 500, 120 personnes en cocktail : Rooftop festif avec vue, 120 en cocktail."), "{answer}");
    assert!(answer.contains("élargi au 17e"), "{answer}");
    assert!(answer.contains("Précisez la zone : "), "{answer}");
}

/// « à Lyon »: the search refused to run; the answer opens with why, not
/// with « Aucun lieu ne correspond », and lists nothing.
#[test]
fn a_search_that_did_not_run_says_why_first() {
    let text = "Quels lieux à Lyon pour 80 personnes en théâtre ?";
    let mut req = request(SYSTEM, text);
    let mut found = search(0, 0);
    found["searched"] = json!(false);
    found["pools_searched"] = json!(wrapped(
        "search_note",
        "Cherché dans tous les pools (5) : …"
    ));
    found["understood"] = json!([
        wrapped("search_note", "80 personnes"),
        wrapped("search_note", "théâtre")
    ]);
    found["notices"] = json!([wrapped(
        "search_note",
        "Je ne sais pas situer Lyon : la recherche ne connaît que Paris et l'Île-de-France."
    )]);
    let (_, answer) = run(&mut req, &mut |_, _| Ok(found.clone()));
    assert!(
        answer.starts_with("Je ne sais pas situer Lyon : la recherche ne connaît que Paris et l'Île-de-France.\nCompris : 80 personnes ; théâtre."),
        "{answer}"
    );
    assert!(!answer.contains("Aucun lieu ne correspond"), "{answer}");
    assert!(
        !answer.contains("Cherché dans"),
        "nothing was searched: {answer}"
    );
    assert_eq!(
        answer.matches("Je ne sais pas situer").count(),
        1,
        "{answer}"
    );
}

#[test]
fn a_venue_by_code_and_its_full_sheet() {
    let member = json!({"member": {"code": "#102", "name": "Péniche Lumière", "city": "Paris",
        "postal_code": "75013", "pool": "paris",
        "rooms": [{"id": 9, "name": "Pont", "capacities": {"cocktail": 150, "banquet": 90}}],
        "description": wrapped("venue_text", "Une péniche amarrée quai de la Gare."),
        "attributes": {"terrasse": true}, "tags": ["péniche", "vue"],
        "knowledge": [{"title": wrapped("knowledge", "Accès"), "content": wrapped("knowledge", "Passerelle étroite.")}]}});
    let mut req = request(SYSTEM, "#102");
    let (calls, text) = run(&mut req, &mut |_, _| Ok(member.clone()));
    assert_eq!(calls, [("get_member".to_string(), json!({"code": "#102"}))]);
    assert!(
        text.starts_with("Péniche Lumière (#102), Paris 75013"),
        "{text}"
    );
    assert!(text.contains("- Pont : banquet 90, cocktail 150"), "{text}");
    assert!(!text.contains("Passerelle"), "{text}");

    let mut req = request(SYSTEM, "fiche complète de #102");
    let (calls, text) = run(&mut req, &mut |_, _| Ok(member.clone()));
    assert_eq!(
        calls,
        [("get_member_full".to_string(), json!({"code": "#102"}))]
    );
    assert!(text.contains("Tags : péniche, vue."), "{text}");
    assert!(text.contains("- Accès : Passerelle étroite."), "{text}");
}

#[test]
fn count_reads_the_criteria_with_the_search_extractor() {
    let mut req = request(
        SYSTEM,
        "Combien de lieux dans le 8e pour 100 personnes en cocktail ?",
    );
    let (calls, text) = run(&mut req, &mut |_, _| Ok(json!({"count": 1234})));
    assert_eq!(
        calls,
        [(
            "count_members".to_string(),
            json!({"postal_codes": ["75008"], "configuration": "cocktail", "min_capacity": 100})
        )]
    );
    assert!(text.starts_with("1\u{a0}234 lieux"), "{text}");
}

#[test]
fn count_counts_in_a_departement_and_not_in_lyon() {
    let mut req = request(SYSTEM, "Combien de lieux dans le 93 ?");
    let (calls, text) = run(&mut req, &mut |_, _| Ok(json!({"count": 12})));
    assert_eq!(
        calls,
        [("count_members".to_string(), json!({"departments": ["93"]}))]
    );
    assert_eq!(text, "12 lieux dans le 93 (Seine-Saint-Denis).");

    // No count of Paris stands for Lyon: nothing is counted.
    let mut req = request(SYSTEM, "Combien de lieux à Lyon ?");
    let (calls, text) = run(&mut req, &mut |_, _| Ok(json!({"count": 272})));
    assert!(calls.is_empty(), "{calls:?}");
    assert!(
        text.starts_with("Je ne sais pas compter les lieux de Lyon"),
        "{text}"
    );
    assert!(!text.contains("272"), "{text}");
}

#[test]
fn emails_are_summarised_not_repeated() {
    let mut req = request(SYSTEM, "montre les e-mails");
    let emails = json!({"emails": [
        {"direction": "inbound", "from": "camille@example.com",
         "subject": wrapped("email_subject", "Soirée du 12 juin"),
         "body": wrapped("email_body", "Bonjour, nous serons 80. Budget serré."),
         "received_at": "2026-03-12T09:30:00Z"},
        {"direction": "outbound", "from": "equipe@reciprok.example",
         "subject": wrapped("email_subject", "Re: Soirée du 12 juin"),
         "body": wrapped("email_body", "Merci !"), "received_at": "2026-03-13T08:00:00Z"}]});
    let (calls, text) = run(&mut req, &mut |_, _| Ok(emails.clone()));
    assert_eq!(
        calls,
        [("list_request_emails".to_string(), json!({"request_id": 42}))]
    );
    assert!(
        text.contains("- 12/03/2026 reçu de camille@example.com : « Soirée du 12 juin »"),
        "{text}"
    );
    assert!(
        text.contains("- 13/03/2026 envoyé : « Re: Soirée du 12 juin »"),
        "{text}"
    );
    assert!(!text.contains("Budget serré"), "{text}");
    assert!(!text.contains("Attention"), "{text}");
}

#[test]
fn training_lists_verdicts_and_directives() {
    let mut req = request(SYSTEM, "Qu'a-t-on appris ?");
    let sessions = json!({"sessions": [
        {"id": 3, "verdict": "guideline", "category": "ambiance", "event_type": "soiree",
         "member_code": null, "reason": wrapped("training_reason", "Le festif veut de l'extérieur."),
         "directives": {"trigger": "festif", "prefer": ["jardin", "terrasse"], "avoid": ["sous-sol"]},
         "created_at": "2026-02-01T10:00:00Z"}]});
    let (calls, text) = run(&mut req, &mut |_, _| Ok(sessions.clone()));
    assert_eq!(calls, [("search_training".to_string(), json!({}))]);
    assert!(
        text.contains(
            "- Consigne générale (soirée d'entreprise, ambiance), 01/02/2026 : Le festif veut de l'extérieur."
        ),
        "{text}"
    );
    assert!(
        text.contains("Consigne « festif » : préférer jardin, terrasse ; éviter sous-sol"),
        "{text}"
    );
}

#[test]
fn anything_else_gets_the_offline_help() {
    let mut req = request(SYSTEM, "Bonjour Maxy !");
    let (calls, text) = run(&mut req, &mut |_, _| unreachable!());
    assert!(calls.is_empty());
    assert!(text.contains("mode hors-ligne"), "{text}");
    assert!(text.contains("Qualifie cette demande"), "{text}");
}

#[test]
fn a_tool_error_is_explained_and_ends_the_turn() {
    let mut req = request(SYSTEM, "Qualifie la demande #999");
    let (calls, text) = run(
        &mut req,
        &mut |_, _| Err("introuvable : demande 999".into()),
    );
    assert_eq!(names(&calls), ["get_request"]);
    assert!(
        text.starts_with("Je ne trouve pas cette demande. Vérifiez son numéro"),
        "{text}"
    );

    // A reference that does not exist is named as typed, not by an id.
    let mut req = request(SYSTEM, "budget de la D-2025-00099 ?");
    let (_, text) = run(&mut req, &mut |_, _| Err("introuvable : demande 99".into()));
    assert!(
        text.starts_with("Je ne trouve pas la demande D-2025-00099."),
        "{text}"
    );

    // Any other failure: which step failed, in French, and the turn ends.
    let mut req = request(SYSTEM, "Qualifie la demande #999");
    let (calls, text) = run(&mut req, &mut |_, _| {
        Err("base de données indisponible".into())
    });
    assert_eq!(names(&calls), ["get_request"]);
    assert!(
        text.contains("Lecture de la demande a échoué : base de données indisponible"),
        "{text}"
    );
}

#[tokio::test]
async fn the_provider_streams_the_plan_and_still_refuses_completions() {
    let llm = Planner;
    let completion = CompletionRequest {
        task: Task::Rank,
        system: String::new(),
        messages: vec![],
        max_tokens: 10,
        temperature: None,
        time_limit: None,
    };
    assert!(matches!(
        llm.complete(&completion).await,
        Err(LlmError::Offline)
    ));
    let events: Vec<ChatEvent> = llm
        .stream(&request(SYSTEM, "Bonjour"))
        .await
        .unwrap()
        .map(|e| e.unwrap())
        .collect()
        .await;
    assert!(events.len() > 3, "the help is streamed in small deltas");
    assert!(matches!(events.last(), Some(ChatEvent::Finished(_))));
    // The no-model backend itself streams nothing: the planner is the agent's.
    assert!(matches!(
        OfflineLlm.stream(&request(SYSTEM, "Bonjour")).await.err(),
        Some(LlmError::Offline)
    ));
}

#[test]
fn find_for_the_request_searches_with_its_fields() {
    let mut req = request(SYSTEM, "Trouve des lieux pour cette demande");
    let (calls, text) = run(&mut req, &mut |name, _| {
        Ok(match name {
            "get_request" => the_request(),
            _ => search(1, 0),
        })
    });
    assert_eq!(names(&calls), ["get_request", "search_members"]);
    assert_eq!(calls[1].1["participants"], 80);
    assert_eq!(calls[1].1["postal_codes"], json!(["75008"]));
    assert!(
        text.starts_with(
            "Recherche pour la demande D-2026-00042 : 80 personnes, cocktail, 75008, réseau paris, le 12/06/2026.\nJ'ai trouvé 1 lieu :"
        ),
        "{text}"
    );
}

#[test]
fn a_refused_card_is_not_proposed_again() {
    let mut req = request(SYSTEM, "Qualifie cette demande");
    let mut tools = qualify_tools(search(2, 0));
    let (calls, text) = run(&mut req, &mut |name, input| {
        if name == "add_members_to_catalog" {
            return Err("refusé par Alice : pas de rooftop en juin".into());
        }
        tools(name, input)
    });
    assert_eq!(
        names(&calls)
            .iter()
            .filter(|n| **n == "add_members_to_catalog")
            .count(),
        1
    );
    assert!(
        text.starts_with("La proposition de catalogue n'a pas abouti : refusé par Alice"),
        "{text}"
    );
    assert!(text.contains("Je ne la repropose pas"), "{text}");
}
