//! Write tools as proposals, the executor registry and the approval
//! lifecycle on a real database: proposals validate and write nothing; an
//! approval runs its write once, in one transaction; every attack (replay,
//! expiry, another user's card, altered arguments, unknown id, double
//! click, approve racing reject) is refused and nothing runs twice.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::approvals_fixture as fixture;

use app::chat::{CardBody, Decision};
use app::errors::AppError;
use fixture::{
    count, ctx, key, pending, plant, propose, request_state, room, written, World, REFERENCE,
};
use serde_json::{json, Value};
use server::approvals::{self, ApprovalError, DecisionOutcome};
use server::executors;
use server::tools::{write, Mode, Proposal, ToolError};
use sqlx::PgPool;

fn pick(code: &str, tier: &str, room_id: Option<i64>) -> Value {
    json!({"member_code": code, "tier": tier, "reason": format!("Le lieu {code} reçoit 180 personnes en cocktail."), "room_id": room_id})
}

fn catalogue(w: &World, picks: Vec<Value>) -> Value {
    json!({"request_id": w.request_id, "picks": picks})
}

async fn approve(
    db: &PgPool,
    user: i64,
    id: i64,
    hash: &str,
) -> Result<DecisionOutcome, ApprovalError> {
    let decision = Decision::Approve {
        arguments_hash: hash.to_string(),
    };
    approvals::decide(db, &key(), user, id, decision).await
}

async fn reject(
    db: &PgPool,
    user: i64,
    id: i64,
    reason: &str,
) -> Result<DecisionOutcome, ApprovalError> {
    let decision = Decision::Reject {
        reason: reason.to_string(),
    };
    approvals::decide(db, &key(), user, id, decision).await
}

/// 4 recommended (#101 with its big room pinned) + 2 compatible.
async fn six_picks(db: &PgPool, w: &World) -> Proposal {
    let grand = room(db, "Grand salon #101").await;
    let input = catalogue(
        w,
        vec![
            pick("#105", "compatible", None),
            pick("#101", "recommended", Some(grand)),
            pick("#102", "recommended", None),
            pick("#106", "compatible", None),
            pick("#103", "recommended", None),
            pick("#104", "recommended", None),
        ],
    );
    propose(db, w, Mode::Chat, "add_members_to_catalog", input)
        .await
        .unwrap()
}

async fn status_of(db: &PgPool, id: i64) -> String {
    sqlx::query_scalar("SELECT status FROM ai_pending_approvals WHERE id = $1")
        .bind(id)
        .fetch_one(db)
        .await
        .unwrap()
}

// ------------------------------------------------------------------ proposals

#[sqlx::test(migrations = "../migrations")]
async fn a_catalogue_proposal_resolves_the_venues_and_describes_them(db: PgPool) {
    let w = plant(&db).await;
    let before = written(&db).await;
    let p = six_picks(&db, &w).await;
    assert_eq!(
        p.title,
        format!("Ajouter 6 lieux au catalogue de la demande {REFERENCE}")
    );
    let picks = p.arguments["picks"].as_array().unwrap();
    let tiers: Vec<&str> = picks.iter().map(|p| p["tier"].as_str().unwrap()).collect();
    assert_eq!(
        tiers,
        [
            "recommended",
            "recommended",
            "recommended",
            "recommended",
            "compatible",
            "compatible"
        ],
        "tier order, the model's order within a tier"
    );
    let codes: Vec<&str> = picks
        .iter()
        .map(|p| p["member_code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["#101", "#102", "#103", "#104", "#105", "#106"]);
    let id_101: i64 = sqlx::query_scalar("SELECT id FROM members WHERE code = '#101'")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(picks[0]["member_id"], json!(id_101));
    let CardBody::Catalogue {
        request_id,
        request_reference,
        picks: cards,
    } = &p.body
    else {
        panic!("a catalogue card: {:?}", p.body)
    };
    assert_eq!(
        (*request_id, request_reference.as_str()),
        (w.request_id, REFERENCE)
    );
    assert_eq!(cards[0].member_name, "Maison #101");
    assert_eq!(cards[0].city, "Paris");
    assert_eq!(cards[0].room_name.as_deref(), Some("Grand salon #101"));
    assert_eq!(cards[0].capacity, Some(200));
    assert_eq!(cards[0].configuration.as_deref(), Some("cocktail"));
    assert_eq!(cards[1].room_name, None);
    assert!(cards[0].reason.starts_with("Le lieu #101"));
    assert_eq!(written(&db).await, before, "a proposal writes nothing");
    assert_eq!(
        count(&db, "SELECT count(*) FROM ai_pending_approvals").await,
        0
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn bad_catalogue_calls_are_refused_with_what_to_fix(db: PgPool) {
    let w = plant(&db).await;
    let before = written(&db).await;
    let grand_102 = room(&db, "Grand salon #102").await;
    let small = room(&db, "Petit salon").await;
    let five: Vec<Value> = (101..=105)
        .map(|n| pick(&format!("#{n}"), "recommended", None))
        .collect();
    let mut unknown_field = catalogue(&w, vec![pick("#101", "recommended", None)]);
    unknown_field["confirmed"] = json!(true);
    let mut two_sentences = pick("#101", "recommended", None);
    two_sentences["reason"] = json!("Très beau lieu. Mais loin.");
    let mut long_reason = pick("#101", "recommended", None);
    long_reason["reason"] = json!("a".repeat(301));
    let mut empty_reason = pick("#101", "recommended", None);
    empty_reason["reason"] = json!("  ");
    let cases: Vec<(Value, &str)> = vec![
        (unknown_field, "champ inconnu « confirmed »"),
        (catalogue(&w, five), "au plus 4 lieux recommandés"),
        (catalogue(&w, vec![]), "entre 1 et 16"),
        (
            catalogue(
                &w,
                vec![
                    pick("#101", "recommended", None),
                    pick("#101", "compatible", None),
                ],
            ),
            "apparaît deux fois",
        ),
        (
            catalogue(&w, vec![pick("#200", "recommended", None)]),
            "n'est pas actif",
        ),
        (
            catalogue(&w, vec![pick("#300", "recommended", None)]),
            "pool",
        ),
        (
            catalogue(&w, vec![pick("#999", "recommended", None)]),
            "introuvable : lieu #999",
        ),
        (
            catalogue(&w, vec![pick("#101", "recommended", Some(grand_102))]),
            "n'appartient pas au lieu #101",
        ),
        (
            catalogue(&w, vec![pick("#101", "recommended", Some(small))]),
            "ne peut pas recevoir 180 personnes en cocktail",
        ),
        (
            catalogue(&w, vec![pick("#101", "recommended", Some(987_654))]),
            "introuvable : salle",
        ),
        (catalogue(&w, vec![two_sentences]), "une seule phrase"),
        (catalogue(&w, vec![long_reason]), "dépasse 300"),
        (catalogue(&w, vec![empty_reason]), "ne peut pas être vide"),
        (
            json!({"request_id": 999_999, "picks": [pick("#101", "recommended", None)]}),
            "introuvable : demande 999999",
        ),
        (
            json!({"picks": []}),
            "champ obligatoire manquant : « request_id »",
        ),
    ];
    for (input, expected) in cases {
        let error = propose(&db, &w, Mode::Chat, "add_members_to_catalog", input.clone())
            .await
            .expect_err(&format!("refused: {input}"));
        assert!(
            error.to_string().contains(expected),
            "{input}\n→ {error}\n(expected « {expected} »)"
        );
    }
    let unknown = propose(&db, &w, Mode::Chat, "drop_database", json!({})).await;
    assert_eq!(unknown, Err(ToolError::UnknownTool("drop_database".into())));
    assert_eq!(written(&db).await, before, "refusals write nothing");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_training_workspace_takes_more_picks_than_the_chat(db: PgPool) {
    let w = plant(&db).await;
    let nine: Vec<Value> = (101..=109)
        .map(|n| pick(&format!("#{n}"), "recommended", None))
        .collect();
    let chat = propose(
        &db,
        &w,
        Mode::Chat,
        "add_members_to_catalog",
        catalogue(&w, nine.clone()),
    )
    .await;
    assert!(chat.is_err(), "9 recommended in chat");
    let training = propose(
        &db,
        &w,
        Mode::Training,
        "add_members_to_catalog",
        catalogue(&w, nine),
    )
    .await
    .unwrap();
    assert!(
        training.title.contains("catalogue d'entraînement"),
        "{}",
        training.title
    );
    let too_many: Vec<Value> = (0..26)
        .map(|n| pick(&format!("#{}", 101 + n), "compatible", None))
        .collect();
    let error = propose(
        &db,
        &w,
        Mode::Training,
        "add_members_to_catalog",
        catalogue(&w, too_many),
    )
    .await
    .unwrap_err();
    assert!(error.to_string().contains("entre 1 et 25"), "{error}");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_other_write_tools_validate_and_describe_without_writing(db: PgPool) {
    let w = plant(&db).await;
    let before = (written(&db).await, request_state(&db, w.request_id).await);
    let r = w.request_id;

    let update = propose(&db, &w, Mode::Chat, "update_request",
        json!({"request_id": r, "status": "qualifying", "postal_codes": ["75008", "75008", " 75001"], "team_memo": "Client fidèle"}))
        .await
        .unwrap();
    assert_eq!(
        update.arguments,
        json!({"request_id": r, "status": "qualifying",
        "postal_codes": ["75008", "75001"], "team_memo": "Client fidèle"})
    );
    let CardBody::Fields { rows } = &update.body else {
        panic!()
    };
    assert!(
        rows.iter()
            .any(|f| f.label == "Statut" && f.value == "en qualification"),
        "{rows:?}"
    );
    assert!(update.title.contains(REFERENCE));

    let check = propose(
        &db,
        &w,
        Mode::Chat,
        "request_availability_check",
        json!({"request_id": r, "member_code": "#102"}),
    )
    .await
    .unwrap();
    assert_eq!(check.arguments["member_code"], json!("#102"));
    assert!(check.title.contains("Maison #102"), "{}", check.title);

    let training = propose(&db, &w, Mode::Chat, "create_training_session", json!({
        "verdict": "guideline", "category": "ambiance", "reason": "Les soirées festives veulent de l'extérieur",
        "event_type": "Soiree", "directives": {"trigger": "festif", "prefer": ["jardin", "terrasse"], "avoid": ["sous-sol"]}}))
        .await
        .unwrap();
    assert_eq!(training.arguments["event_type"], json!("soiree"));
    assert_eq!(
        training.arguments["directives"]["prefer"],
        json!(["jardin", "terrasse"])
    );

    let knowledge = propose(
        &db,
        &w,
        Mode::Chat,
        "add_knowledge_entry",
        json!({"member_code": "#103", "title": "Parking", "content": "40 places en sous-sol."}),
    )
    .await
    .unwrap();
    assert!(knowledge.title.contains("Maison #103"));

    sqlx::query("INSERT INTO availability_checks (request_id, member_id, status, expires_at)
                 SELECT $1, id, 'pending', now() + interval '7 days' FROM members WHERE code = '#104'")
        .bind(r).execute(&db).await.unwrap();
    let after_plant = written(&db).await;

    let long = "x".repeat(5001);
    let bad: Vec<(&str, Value, &str)> = vec![
        (
            "update_request",
            json!({"request_id": r}),
            "aucun champ à modifier",
        ),
        (
            "update_request",
            json!({"request_id": r, "status": "done"}),
            "statut inconnu « done »",
        ),
        (
            "update_request",
            json!({"request_id": r, "postal_codes": ["750"]}),
            "code postal invalide « 750 »",
        ),
        (
            "update_request",
            json!({"request_id": r, "configurations": ["debout"]}),
            "configuration inconnue « debout »",
        ),
        (
            "update_request",
            json!({"request_id": r, "participants": 0}),
            "entre 1 et",
        ),
        (
            "update_request",
            json!({"request_id": 999_999, "status": "won"}),
            "introuvable : demande",
        ),
        (
            "update_request",
            json!({"request_id": r, "status": "won", "approved": true}),
            "champ inconnu « approved »",
        ),
        (
            "request_availability_check",
            json!({"request_id": r, "member_code": "#999"}),
            "introuvable : lieu #999",
        ),
        (
            "request_availability_check",
            json!({"request_id": 999_999, "member_code": "#101"}),
            "introuvable : demande",
        ),
        (
            "request_availability_check",
            json!({"request_id": r, "member_code": "#104"}),
            "attend déjà",
        ),
        (
            "create_training_session",
            json!({"verdict": "meh", "category": "geo", "reason": "x", "member_code": "#101"}),
            "Verdict inconnu : « meh »",
        ),
        (
            "create_training_session",
            json!({"verdict": "rejected", "category": "vibe", "reason": "x", "member_code": "#101"}),
            "Catégorie inconnue : « vibe »",
        ),
        (
            "create_training_session",
            json!({"verdict": "guideline", "category": "other", "reason": "x"}),
            "Une consigne générale a besoin d'une directive",
        ),
        (
            "create_training_session",
            json!({"verdict": "guideline", "category": "other", "reason": "x", "directives": {"trigger": " "}}),
            "Le déclencheur de la consigne est vide",
        ),
        (
            "create_training_session",
            json!({"verdict": "rejected", "category": "geo", "reason": "x"}),
            "porte sur un lieu",
        ),
        (
            "create_training_session",
            json!({"verdict": "rejected", "category": "geo", "reason": " ", "member_code": "#101"}),
            "la raison est obligatoire",
        ),
        (
            "add_knowledge_entry",
            json!({"member_code": "#103", "title": "", "content": " "}),
            "« content » ne peut pas être vide",
        ),
        (
            "add_knowledge_entry",
            json!({"member_code": "#103", "title": "", "content": long}),
            "dépasse 5000",
        ),
        (
            "add_knowledge_entry",
            json!({"member_code": "#998", "title": "", "content": "x"}),
            "introuvable : lieu #998",
        ),
    ];
    for (name, input, expected) in bad {
        let error = propose(&db, &w, Mode::Chat, name, input.clone())
            .await
            .expect_err(&format!("{name} refused: {input}"));
        assert!(
            error.to_string().contains(expected),
            "{name} {input}\n→ {error}\n(expected « {expected} »)"
        );
    }
    assert_eq!(
        written(&db).await,
        after_plant,
        "nothing written by proposals"
    );
    assert_eq!(request_state(&db, w.request_id).await, before.1);
}

// ------------------------------------------------------------------ approving

/// code, tier, position, room, added_by, added_by_user_id, catalogue kind.
type PickRow = (
    String,
    String,
    i32,
    Option<String>,
    String,
    Option<i64>,
    String,
);

#[sqlx::test(migrations = "../migrations")]
async fn approving_writes_the_draft_catalogue_with_its_pinned_room_once(db: PgPool) {
    let w = plant(&db).await;
    let p = six_picks(&db, &w).await;
    let card = pending(
        &db,
        w.conversation,
        w.message,
        "toolu_1",
        "add_members_to_catalog",
        &p,
    )
    .await;
    assert_eq!(card.arguments_hash.len(), 64);
    let done = approve(&db, w.user, card.id, &card.arguments_hash)
        .await
        .unwrap();
    assert_eq!(done.status, "executed");
    assert_eq!(done.tool_call_id, "toolu_1");
    assert!(done.detail.contains("6 lieux ajoutés"), "{}", done.detail);
    assert!(done.for_model.contains("exécuté"), "{}", done.for_model);
    let rows: Vec<PickRow> = sqlx::query_as(
        "SELECT m.code, p.tier, p.position, r.name, p.added_by, p.added_by_user_id, c.kind
           FROM catalogue_picks p JOIN members m ON m.id = p.member_id
           JOIN catalogues c ON c.id = p.catalogue_id LEFT JOIN rooms r ON r.id = p.room_id
          ORDER BY p.tier DESC, p.position",
    )
    .fetch_all(&db)
    .await
    .unwrap();
    let summary: Vec<(String, String, i32, Option<String>)> = rows
        .iter()
        .map(|r| (r.0.clone(), r.1.clone(), r.2, r.3.clone()))
        .collect();
    assert_eq!(
        summary,
        vec![
            (
                "#101".into(),
                "recommended".into(),
                0,
                Some("Grand salon #101".into())
            ),
            ("#102".into(), "recommended".into(), 1, None),
            ("#103".into(), "recommended".into(), 2, None),
            ("#104".into(), "recommended".into(), 3, None),
            ("#105".into(), "compatible".into(), 0, None),
            ("#106".into(), "compatible".into(), 1, None),
        ]
    );
    assert!(rows
        .iter()
        .all(|r| r.4 == "ai" && r.5 == Some(w.user) && r.6 == "standard"));
    assert_eq!(status_of(&db, card.id).await, "executed");
    let result: Value = sqlx::query_scalar("SELECT result FROM ai_pending_approvals WHERE id = $1")
        .bind(card.id)
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(result["added"], json!(6));

    // A second card proposes #106 again and #107: the draft (4 + 2) is
    // completed with #107 only; #106, already in it, is not proposed again
    // and the card says so (issue 25).
    let second = propose(
        &db,
        &w,
        Mode::Chat,
        "add_members_to_catalog",
        catalogue(
            &w,
            vec![
                pick("#106", "compatible", None),
                pick("#107", "compatible", None),
            ],
        ),
    )
    .await
    .unwrap();
    assert_eq!(
        second.title,
        "Complète le brouillon (2 places libres en compatibles) avec 1 lieu ; 1 lieu déjà au \
         brouillon n'est pas reproposé (catalogue de la demande D-2026-0042)"
    );
    let card2 = pending(
        &db,
        w.conversation,
        w.message,
        "toolu_2",
        "add_members_to_catalog",
        &second,
    )
    .await;
    let done2 = approve(&db, w.user, card2.id, &card2.arguments_hash)
        .await
        .unwrap();
    assert!(done2.detail.contains("1 lieu ajouté"), "{}", done2.detail);
    assert_eq!(count(&db, "SELECT count(*) FROM catalogues").await, 1);
    assert_eq!(count(&db, "SELECT count(*) FROM catalogue_picks").await, 7);

    // Two more compatible venues for one free place: the card completes
    // with the first; the draft then changes before the approval, which
    // fails saying what changed and what to do, in French, writing nothing.
    let third = propose(
        &db,
        &w,
        Mode::Chat,
        "add_members_to_catalog",
        catalogue(
            &w,
            vec![
                pick("#108", "compatible", None),
                pick("#109", "compatible", None),
            ],
        ),
    )
    .await
    .unwrap();
    assert!(
        third
            .title
            .starts_with("Complète le brouillon (1 place libre en compatibles) avec 1 lieu"),
        "{}",
        third.title
    );
    let card3 = pending(
        &db,
        w.conversation,
        w.message,
        "toolu_3",
        "add_members_to_catalog",
        &third,
    )
    .await;
    sqlx::query(
        "INSERT INTO catalogue_picks (catalogue_id, member_id, tier, position, added_by)
         SELECT c.id, m.id, 'compatible', 3, 'team' FROM catalogues c, members m
          WHERE m.code = '#109'",
    )
    .execute(&db)
    .await
    .unwrap();
    let failed = approve(&db, w.user, card3.id, &card3.arguments_hash)
        .await
        .unwrap();
    assert_eq!(failed.status, "failed");
    assert!(
        failed.detail.contains("a changé depuis la carte")
            && failed.detail.contains("4 recommandés + 4 compatibles")
            && failed.detail.contains("Demandez à Maxy")
            && !failed.detail.contains("recommended")
            && !failed.detail.starts_with("Échec"),
        "{}",
        failed.detail
    );
    assert_eq!(
        count(&db, "SELECT count(*) FROM catalogue_picks").await,
        8,
        "nothing of a failed write stays"
    );
    assert_eq!(status_of(&db, card3.id).await, "failed");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_training_conversation_fills_the_training_catalogue(db: PgPool) {
    let w = plant(&db).await;
    let nine: Vec<Value> = (101..=109)
        .map(|n| pick(&format!("#{n}"), "recommended", None))
        .collect();
    let p = propose(
        &db,
        &w,
        Mode::Training,
        "add_members_to_catalog",
        catalogue(&w, nine),
    )
    .await
    .unwrap();
    let card = pending(
        &db,
        w.training_conversation,
        w.training_message,
        "toolu_t",
        "add_members_to_catalog",
        &p,
    )
    .await;
    let done = approve(&db, w.user, card.id, &card.arguments_hash)
        .await
        .unwrap();
    assert_eq!(done.status, "executed", "{}", done.detail);
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM catalogues WHERE kind = 'training' AND status = 'draft'"
        )
        .await,
        1
    );
    assert_eq!(count(&db, "SELECT count(*) FROM catalogue_picks").await, 9);
}

#[sqlx::test(migrations = "../migrations")]
async fn each_other_write_runs_once_approved(db: PgPool) {
    let w = plant(&db).await;
    let r = w.request_id;
    let run = |name: &'static str, input: Value, call: &'static str| {
        let (db, w) = (db.clone(), &w);
        async move {
            let p = propose(&db, w, Mode::Chat, name, input).await.unwrap();
            let card = pending(&db, w.conversation, w.message, call, name, &p).await;
            approve(&db, w.user, card.id, &card.arguments_hash)
                .await
                .unwrap()
        }
    };
    let done = run("update_request", json!({"request_id": r, "status": "qualifying", "configurations": ["cocktail", "banquet"], "team_memo": ""}), "c1").await;
    assert_eq!(done.status, "executed", "{}", done.detail);
    assert_eq!(
        request_state(&db, r).await,
        "qualifying|180|soiree|{cocktail,banquet}|{}"
    );

    let done = run(
        "request_availability_check",
        json!({"request_id": r, "member_code": "#102"}),
        "c2",
    )
    .await;
    assert_eq!(done.status, "executed", "{}", done.detail);
    assert!(
        done.detail.contains("/v/"),
        "the team gets the venue's link: {}",
        done.detail
    );
    assert!(
        !done.for_model.contains("/v/"),
        "the model never sees the link: {}",
        done.for_model
    );
    let (check_id, created_by): (i64, Option<i64>) =
        sqlx::query_as("SELECT id, created_by FROM availability_checks WHERE status = 'pending'")
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(created_by, Some(w.user));
    assert_eq!(count(&db, &format!(
        "SELECT count(*) FROM magic_links WHERE purpose = 'availability' AND subject_id = {check_id}")).await, 1);
    let path = done.detail.split("/v/").nth(1).unwrap().trim();
    let link = server::auth::magic_links::verify(
        &db,
        &key(),
        server::auth::magic_links::Purpose::Availability,
        path,
    )
    .await
    .unwrap()
    .expect("the link opens the check");
    assert_eq!(link.subject_id, check_id);

    let done = run("create_training_session", json!({"verdict": "rejected", "category": "ambiance",
        "reason": "Pas d'extérieur pour une soirée festive", "member_code": "#103", "request_id": r}), "c3").await;
    assert_eq!(done.status, "executed");
    let (source, user, verdict): (String, Option<i64>, String) =
        sqlx::query_as("SELECT source, user_id, verdict FROM training_sessions")
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(
        (source.as_str(), user, verdict.as_str()),
        ("chat", Some(w.user), "rejected")
    );

    let done = run(
        "add_knowledge_entry",
        json!({"member_code": "#103", "title": "Parking", "content": "40 places."}),
        "c4",
    )
    .await;
    assert_eq!(done.status, "executed");
    let (source, by): (String, Option<i64>) =
        sqlx::query_as("SELECT source, created_by FROM knowledge_entries")
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!((source.as_str(), by), ("ai", Some(w.user)));
}

// ------------------------------------------------------------------ attacks

#[sqlx::test(migrations = "../migrations")]
async fn a_replayed_approval_is_refused_and_runs_nothing_again(db: PgPool) {
    let w = plant(&db).await;
    let p = six_picks(&db, &w).await;
    let card = pending(
        &db,
        w.conversation,
        w.message,
        "toolu_1",
        "add_members_to_catalog",
        &p,
    )
    .await;
    approve(&db, w.user, card.id, &card.arguments_hash)
        .await
        .unwrap();
    let after = written(&db).await;
    let replay = approve(&db, w.user, card.id, &card.arguments_hash).await;
    assert!(
        matches!(replay, Err(ApprovalError::AlreadyDecided)),
        "{replay:?}"
    );
    assert!(
        matches!(AppError::from(replay.unwrap_err()), AppError::Conflict(m) if m.contains("déjà été traitée"))
    );
    let late_reject = reject(&db, w.user, card.id, "trop tard").await;
    assert!(
        matches!(late_reject, Err(ApprovalError::AlreadyDecided)),
        "{late_reject:?}"
    );
    assert_eq!(written(&db).await, after);
}

#[sqlx::test(migrations = "../migrations")]
async fn an_expired_card_cannot_be_approved(db: PgPool) {
    let w = plant(&db).await;
    let p = six_picks(&db, &w).await;
    let card = pending(
        &db,
        w.conversation,
        w.message,
        "toolu_1",
        "add_members_to_catalog",
        &p,
    )
    .await;
    sqlx::query(
        "UPDATE ai_pending_approvals SET expires_at = now() - interval '1 second' WHERE id = $1",
    )
    .bind(card.id)
    .execute(&db)
    .await
    .unwrap();
    let before = written(&db).await;
    let refused = approve(&db, w.user, card.id, &card.arguments_hash).await;
    assert!(
        matches!(refused, Err(ApprovalError::Expired)),
        "{refused:?}"
    );
    assert!(
        matches!(AppError::from(refused.unwrap_err()), AppError::Invalid(m) if m.contains("expiré"))
    );
    assert_eq!(status_of(&db, card.id).await, "expired");
    let again = approve(&db, w.user, card.id, &card.arguments_hash).await;
    assert!(matches!(again, Err(ApprovalError::Expired)), "{again:?}");
    assert_eq!(written(&db).await, before);
}

#[sqlx::test(migrations = "../migrations")]
async fn another_users_card_looks_like_an_unknown_one(db: PgPool) {
    let w = plant(&db).await;
    let p = six_picks(&db, &w).await;
    let card = pending(
        &db,
        w.conversation,
        w.message,
        "toolu_1",
        "add_members_to_catalog",
        &p,
    )
    .await;
    let before = written(&db).await;
    let theirs = approve(&db, w.other_user, card.id, &card.arguments_hash).await;
    let unknown = approve(&db, w.user, card.id + 1000, &card.arguments_hash).await;
    assert!(matches!(theirs, Err(ApprovalError::NotFound)), "{theirs:?}");
    assert!(
        matches!(unknown, Err(ApprovalError::NotFound)),
        "{unknown:?}"
    );
    assert_eq!(
        theirs.unwrap_err().to_string(),
        unknown.unwrap_err().to_string()
    );
    let theirs = reject(&db, w.other_user, card.id, "je n'aime pas").await;
    assert!(matches!(theirs, Err(ApprovalError::NotFound)), "{theirs:?}");
    assert!(matches!(
        AppError::from(theirs.unwrap_err()),
        AppError::NotFound
    ));
    assert_eq!(status_of(&db, card.id).await, "pending");
    assert_eq!(written(&db).await, before);
    // The owner still can.
    assert_eq!(
        approve(&db, w.user, card.id, &card.arguments_hash)
            .await
            .unwrap()
            .status,
        "executed"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn altered_arguments_are_refused(db: PgPool) {
    let w = plant(&db).await;
    let p = six_picks(&db, &w).await;
    let card = pending(
        &db,
        w.conversation,
        w.message,
        "toolu_1",
        "add_members_to_catalog",
        &p,
    )
    .await;
    let before = written(&db).await;
    // A hash that is not the card's (another card's, garbage).
    let other = "0".repeat(64);
    for hash in [other.as_str(), "not hex", ""] {
        let refused = approve(&db, w.user, card.id, hash).await;
        assert!(
            matches!(refused, Err(ApprovalError::Altered)),
            "{hash}: {refused:?}"
        );
    }
    // The stored arguments edited behind the hash: #102 swapped for #110.
    let id_110: i64 = sqlx::query_scalar("SELECT id FROM members WHERE code = '#110'")
        .fetch_one(&db)
        .await
        .unwrap();
    sqlx::query("UPDATE ai_pending_approvals
                    SET arguments = jsonb_set(jsonb_set(arguments, '{picks,1,member_id}', to_jsonb($2::bigint)),
                                              '{picks,1,member_code}', '\"#110\"')
                  WHERE id = $1")
        .bind(card.id).bind(id_110).execute(&db).await.unwrap();
    let refused = approve(&db, w.user, card.id, &card.arguments_hash).await;
    assert!(
        matches!(refused, Err(ApprovalError::Altered)),
        "{refused:?}"
    );
    assert!(
        matches!(AppError::from(refused.unwrap_err()), AppError::Invalid(m) if m.contains("modifiés"))
    );
    assert_eq!(status_of(&db, card.id).await, "pending");
    assert_eq!(written(&db).await, before);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_double_click_executes_once(db: PgPool) {
    let w = plant(&db).await;
    for round in 0..4 {
        sqlx::query("DELETE FROM catalogues")
            .execute(&db)
            .await
            .unwrap();
        let p = six_picks(&db, &w).await;
        let call = format!("toolu_{round}");
        let card = pending(
            &db,
            w.conversation,
            w.message,
            &call,
            "add_members_to_catalog",
            &p,
        )
        .await;
        let (a, b) = tokio::join!(
            approve(&db, w.user, card.id, &card.arguments_hash),
            approve(&db, w.user, card.id, &card.arguments_hash)
        );
        let oks = [&a, &b].iter().filter(|r| r.is_ok()).count();
        let conflicts = [&a, &b]
            .iter()
            .filter(|r| matches!(r, Err(ApprovalError::AlreadyDecided)))
            .count();
        assert_eq!((oks, conflicts), (1, 1), "round {round}: {a:?} / {b:?}");
        assert_eq!(count(&db, "SELECT count(*) FROM catalogue_picks").await, 6);
        assert_eq!(status_of(&db, card.id).await, "executed");
    }
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM audit_log WHERE action = 'approval.executed'"
        )
        .await,
        4
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn approve_and_reject_racing_have_one_winner(db: PgPool) {
    let w = plant(&db).await;
    for round in 0..4 {
        sqlx::query("DELETE FROM catalogues")
            .execute(&db)
            .await
            .unwrap();
        let p = six_picks(&db, &w).await;
        let call = format!("toolu_{round}");
        let card = pending(
            &db,
            w.conversation,
            w.message,
            &call,
            "add_members_to_catalog",
            &p,
        )
        .await;
        let (a, r) = tokio::join!(
            approve(&db, w.user, card.id, &card.arguments_hash),
            reject(&db, w.user, card.id, "Pas ces lieux-là")
        );
        assert!(
            a.is_ok() != r.is_ok(),
            "round {round}: exactly one wins: {a:?} / {r:?}"
        );
        let loser = if a.is_ok() {
            r.unwrap_err()
        } else {
            a.unwrap_err()
        };
        assert!(matches!(loser, ApprovalError::AlreadyDecided), "{loser:?}");
        let picks = count(&db, "SELECT count(*) FROM catalogue_picks").await;
        match status_of(&db, card.id).await.as_str() {
            "executed" => assert_eq!(picks, 6),
            "rejected" => assert_eq!(picks, 0),
            other => panic!("status {other}"),
        }
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_rejection_needs_a_reason_and_tells_the_model_not_to_retry(db: PgPool) {
    let w = plant(&db).await;
    let p = six_picks(&db, &w).await;
    let card = pending(
        &db,
        w.conversation,
        w.message,
        "toolu_1",
        "add_members_to_catalog",
        &p,
    )
    .await;
    for reason in ["", "   ", &"x".repeat(1001)] {
        let refused = reject(&db, w.user, card.id, reason).await;
        assert!(
            matches!(refused, Err(ApprovalError::InvalidReason(_))),
            "{refused:?}"
        );
    }
    let done = reject(&db, w.user, card.id, "  Trop loin du 8e  ")
        .await
        .unwrap();
    assert_eq!(done.status, "rejected");
    assert!(
        done.for_model.contains("« Trop loin du 8e »"),
        "{}",
        done.for_model
    );
    assert!(
        done.for_model.ends_with("Ne refais pas cet appel."),
        "{}",
        done.for_model
    );
    let stored: (String, Option<String>, Option<i64>) = sqlx::query_as(
        "SELECT status, reject_reason, decided_by FROM ai_pending_approvals WHERE id = $1",
    )
    .bind(card.id)
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(
        stored,
        (
            "rejected".into(),
            Some("Trop loin du 8e".into()),
            Some(w.user)
        )
    );
    let after = approve(&db, w.user, card.id, &card.arguments_hash).await;
    assert!(
        matches!(after, Err(ApprovalError::AlreadyDecided)),
        "{after:?}"
    );
    assert_eq!(count(&db, "SELECT count(*) FROM catalogue_picks").await, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_write_that_no_longer_holds_fails_without_writing_and_can_be_approved_again(db: PgPool) {
    let w = plant(&db).await;
    let p = six_picks(&db, &w).await;
    let card = pending(
        &db,
        w.conversation,
        w.message,
        "toolu_1",
        "add_members_to_catalog",
        &p,
    )
    .await;
    sqlx::query("UPDATE members SET status = 'inactive' WHERE code = '#103'")
        .execute(&db)
        .await
        .unwrap();
    let done = approve(&db, w.user, card.id, &card.arguments_hash)
        .await
        .unwrap();
    assert_eq!(done.status, "failed");
    assert!(
        done.detail.contains("#103") && done.detail.contains("pas actif"),
        "{}",
        done.detail
    );
    assert_eq!(
        count(&db, "SELECT count(*) FROM catalogues").await,
        0,
        "not even the draft"
    );
    let error: Option<String> =
        sqlx::query_scalar("SELECT error FROM ai_pending_approvals WHERE id = $1")
            .bind(card.id)
            .fetch_one(&db)
            .await
            .unwrap();
    assert!(error.unwrap().contains("#103"));
    // A failed card stays open: approved again while the venue is still
    // inactive, it fails again and writes nothing…
    let again = approve(&db, w.user, card.id, &card.arguments_hash)
        .await
        .unwrap();
    assert_eq!(again.status, "failed", "{}", again.detail);
    assert!(
        again.detail.contains("Rien n'a été enregistré") && again.detail.contains("Réessayer"),
        "{}",
        again.detail
    );
    assert_eq!(count(&db, "SELECT count(*) FROM catalogues").await, 0);
    // …and once the venue is back, it runs, once.
    sqlx::query("UPDATE members SET status = 'active' WHERE code = '#103'")
        .execute(&db)
        .await
        .unwrap();
    let done = approve(&db, w.user, card.id, &card.arguments_hash)
        .await
        .unwrap();
    assert_eq!(done.status, "executed", "{}", done.detail);
    assert_eq!(count(&db, "SELECT count(*) FROM catalogue_picks").await, 6);
    let error: Option<String> =
        sqlx::query_scalar("SELECT error FROM ai_pending_approvals WHERE id = $1")
            .bind(card.id)
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(
        error, None,
        "the old failure is not kept beside the success"
    );
    let third = approve(&db, w.user, card.id, &card.arguments_hash).await;
    assert!(
        matches!(third, Err(ApprovalError::AlreadyDecided)),
        "{third:?}"
    );
    assert_eq!(count(&db, "SELECT count(*) FROM catalogue_picks").await, 6);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_failed_card_can_be_refused_instead(db: PgPool) {
    let w = plant(&db).await;
    let p = six_picks(&db, &w).await;
    let card = pending(
        &db,
        w.conversation,
        w.message,
        "toolu_1",
        "add_members_to_catalog",
        &p,
    )
    .await;
    sqlx::query("UPDATE members SET status = 'inactive' WHERE code = '#103'")
        .execute(&db)
        .await
        .unwrap();
    let failed = approve(&db, w.user, card.id, &card.arguments_hash)
        .await
        .unwrap();
    assert_eq!(failed.status, "failed");
    let refused = reject(&db, w.user, card.id, "On garde le brouillon tel quel")
        .await
        .unwrap();
    assert_eq!(refused.status, "rejected");
    assert_eq!(status_of(&db, card.id).await, "rejected");
    let late = approve(&db, w.user, card.id, &card.arguments_hash).await;
    assert!(
        matches!(late, Err(ApprovalError::AlreadyDecided)),
        "{late:?}"
    );
    assert_eq!(count(&db, "SELECT count(*) FROM catalogues").await, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn pending_cards_come_back_and_expired_ones_are_swept(db: PgPool) {
    let w = plant(&db).await;
    let p = six_picks(&db, &w).await;
    let kept = pending(
        &db,
        w.conversation,
        w.message,
        "toolu_1",
        "add_members_to_catalog",
        &p,
    )
    .await;
    let old = pending(
        &db,
        w.conversation,
        w.message,
        "toolu_2",
        "add_members_to_catalog",
        &p,
    )
    .await;
    let theirs = pending(
        &db,
        w.other_conversation,
        w.other_message,
        "toolu_3",
        "add_members_to_catalog",
        &p,
    )
    .await;
    sqlx::query(
        "UPDATE ai_pending_approvals SET expires_at = now() - interval '1 minute' WHERE id = $1",
    )
    .bind(old.id)
    .execute(&db)
    .await
    .unwrap();
    let swept = approvals::expire_due(&db).await.unwrap();
    assert_eq!(swept.len(), 1);
    assert_eq!(
        (swept[0].approval_id, swept[0].conversation_id),
        (old.id, w.conversation)
    );
    assert!(
        approvals::expire_due(&db).await.unwrap().is_empty(),
        "a sweep is idempotent"
    );
    let cards = approvals::pending_for_conversation(&db, w.conversation)
        .await
        .unwrap();
    assert_eq!(cards.len(), 1);
    let card = &cards[0];
    assert_eq!(
        card,
        &approvals::card(&kept, "add_members_to_catalog", &p),
        "the same card as first shown"
    );
    assert_ne!(theirs.id, kept.id);
    // The rebuilt card's hash approves it.
    assert_eq!(
        approve(&db, w.user, card.approval_id, &card.arguments_hash)
            .await
            .unwrap()
            .status,
        "executed"
    );
    assert!(approvals::pending_for_conversation(&db, w.conversation)
        .await
        .unwrap()
        .is_empty());
    // A tool call gets one card, and only write tools get one.
    let twice = approvals::create(
        &db,
        w.conversation,
        w.message,
        "toolu_1",
        "add_members_to_catalog",
        &p.arguments,
        approvals::DEFAULT_TTL,
    )
    .await;
    assert!(matches!(twice, Err(ApprovalError::Duplicate)), "{twice:?}");
    let read = approvals::create(
        &db,
        w.conversation,
        w.message,
        "toolu_9",
        "get_request",
        &json!({}),
        approvals::DEFAULT_TTL,
    )
    .await;
    assert!(
        matches!(read, Err(ApprovalError::UnknownTool(_))),
        "{read:?}"
    );
}

// ------------------------------------------------------------------ boundaries

#[test]
fn every_write_tool_has_exactly_one_executor() {
    assert_eq!(executors::NAMES, write::NAMES);
    for name in write::NAMES {
        let found: Vec<_> = executors::all().filter(|e| e.name() == *name).collect();
        assert_eq!(found.len(), 1, "{name}");
        assert_eq!(executors::find(name).map(|e| e.name()), Some(*name));
    }
    assert_eq!(executors::all().count(), write::NAMES.len());
    assert!(
        executors::find("get_request").is_none(),
        "read tools have no executor"
    );
    let _ = ctx; // the fixture's context is used by the DB tests
}

/// The model's side (tools, agent loop, providers) never names the
/// executors: an approval is the only way to a write.
#[test]
fn the_models_side_never_names_the_executors() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut stack: Vec<std::path::PathBuf> = ["tools", "agent", "llm"]
        .iter()
        .flat_map(|m| [src.join(m), src.join(format!("{m}.rs"))])
        .filter(|p| p.exists())
        .collect();
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).unwrap() {
                stack.push(entry.unwrap().path());
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    assert!(files.len() >= 10, "the sources were read: {files:?}");
    let naming: Vec<_> = files
        .iter()
        .filter(|f| std::fs::read_to_string(f).unwrap().contains("executors"))
        .collect();
    assert!(
        naming.is_empty(),
        "these files name the executors: {naming:?}"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn two_cards_filling_one_draft_at_once_respect_four_per_tier(db: PgPool) {
    let w = plant(&db).await;
    let three = |from: u32| {
        (from..from + 3)
            .map(|n| pick(&format!("#{n}"), "compatible", None))
            .collect::<Vec<_>>()
    };
    let a = propose(
        &db,
        &w,
        Mode::Chat,
        "add_members_to_catalog",
        catalogue(&w, three(101)),
    )
    .await
    .unwrap();
    let b = propose(
        &db,
        &w,
        Mode::Chat,
        "add_members_to_catalog",
        catalogue(&w, three(104)),
    )
    .await
    .unwrap();
    let card_a = pending(
        &db,
        w.conversation,
        w.message,
        "a",
        "add_members_to_catalog",
        &a,
    )
    .await;
    let card_b = pending(
        &db,
        w.conversation,
        w.message,
        "b",
        "add_members_to_catalog",
        &b,
    )
    .await;
    let (ra, rb) = tokio::join!(
        approve(&db, w.user, card_a.id, &card_a.arguments_hash),
        approve(&db, w.user, card_b.id, &card_b.arguments_hash)
    );
    let mut statuses = [ra.unwrap().status, rb.unwrap().status];
    statuses.sort();
    assert_eq!(
        statuses,
        ["executed", "failed"],
        "the second sees the first's picks"
    );
    assert_eq!(count(&db, "SELECT count(*) FROM catalogues").await, 1);
    assert_eq!(count(&db, "SELECT count(*) FROM catalogue_picks").await, 3);
}
