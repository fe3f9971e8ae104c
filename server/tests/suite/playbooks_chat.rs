//! Playbooks in a real chat turn: a scripted model (a local server speaking
//! Anthropic's streamed wire) calls tools; the real agent loop, playbook
//! runtime and PostgreSQL decide. Scores are capped (the chat station in
//! `suggest`), so what opens here opens by a rule: `start_playbook` or a
//! deterministic trigger, never by the fake embeddings' scores.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use serde_json::{json, Value};
use server::bench::fake_model::{Answer, FakeModel};
use server::playbooks::decide::{Band, Guidance};
use server::playbooks::store::{self, Status};
use sqlx::PgPool;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use support::app::{seed_demo, TestApp, PASSWORD};

const JULIEN: &str = "julien.bernard@reciprok.fr"; // profiles: sales

/// A playbook of the test's own: anyone opens it, it reserves nothing.
const FOLLOW_UP: &str = r#"
name: suivi-disponibilite
goal: "les disponibilités des lieux retenus sont demandées"
activation:
  intent: "demander à des lieux s'ils sont libres"
steps:
  - skill: get_member
  - skill: request_availability_check
"#;

async fn prepare(db: &PgPool) {
    seed_demo(db).await;
    store::import_shipped(db, None).await.unwrap();
    store::save(db, FOLLOW_UP, Status::Active, None)
        .await
        .unwrap();
    // Scores may suggest, never open: what opens below opens by a rule.
    let guidance = Guidance {
        enforce: 0.85,
        suggest: 0.5,
        margin: 0.05,
        max_mode: Band::Suggest,
    };
    server::playbooks::stations::update(db, "chat", guidance, None)
        .await
        .unwrap();
}

/// A model that makes `calls` in order (one per round), then answers.
/// Scoring calls (no tools offered) get an answer that is not JSON, so the
/// scorer falls back to the embeddings.
fn scripted(calls: Vec<(&'static str, Value)>) -> server::bench::fake_model::Script {
    let n = Arc::new(AtomicUsize::new(0));
    Arc::new(move |body: &Value| {
        if body["tools"].as_array().is_none_or(|t| t.is_empty()) {
            return Answer::Text("pas du JSON".into());
        }
        let i = n.fetch_add(1, Ordering::SeqCst);
        match calls.get(i) {
            Some((name, input)) => Answer::ToolUse {
                text: String::new(),
                name: name.to_string(),
                input: input.clone(),
            },
            None => Answer::Text("C'est noté.".into()),
        }
    })
}

/// Sends `text` about `request` and waits for the turn's end; the events.
async fn turn(app: &TestApp, session: &str, request: i64, text: &str) -> (i64, Vec<Value>) {
    let rid = request.to_string();
    let (conversation, body) = app
        .send_and_wait(session, &[("text", text), ("request_id", &rid)])
        .await;
    let events = body
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
        .map(|v| v["event"].clone())
        .collect();
    (conversation, events)
}

/// The tool lines of a turn: (tool, summary, is_error), in order.
fn finished(events: &[Value]) -> Vec<(String, String, bool)> {
    events
        .iter()
        .filter(|e| e["type"] == "tool_finished")
        .map(|e| {
            (
                e["name"].as_str().unwrap().to_string(),
                e["summary"].as_str().unwrap().to_string(),
                e["is_error"].as_bool().unwrap(),
            )
        })
        .collect()
}

async fn decisions(db: &PgPool, conversation: i64) -> Vec<(String, Option<String>, String)> {
    sqlx::query_as(
        "SELECT origin, chosen, coalesce(outcome, '') FROM guidance_decisions
          WHERE conversation_id = $1 ORDER BY id",
    )
    .bind(conversation)
    .fetch_all(db)
    .await
    .unwrap()
}

async fn small_request(db: &PgPool) -> i64 {
    sqlx::query_scalar(
        "SELECT r.id FROM requests r
          WHERE r.participants <= 200 AND NOT r.workspace_scenario
            AND NOT EXISTS (SELECT 1 FROM catalogues c WHERE c.request_id = r.id)
          ORDER BY r.id LIMIT 1",
    )
    .fetch_one(db)
    .await
    .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn an_open_playbook_rules_the_turn_and_every_ruling_is_logged(db: PgPool) {
    prepare(&db).await;
    let request = small_request(&db).await;
    let member: String = sqlx::query_scalar(
        "SELECT m.code FROM members m JOIN requests r ON r.pool_id = m.pool_id
          WHERE r.id = $1 AND m.status = 'active' ORDER BY m.id LIMIT 1",
    )
    .bind(request)
    .fetch_one(&db)
    .await
    .unwrap();
    let update = json!({"request_id": request, "team_memo": "qualifiée"});
    let script = scripted(vec![
        // 1. A skill reserved to a playbook that is not open.
        ("update_request", update.clone()),
        // 2. Open it by name.
        ("start_playbook", json!({"name": "qualification-demande"})),
        // 3. Its write before the steps it needs.
        ("update_request", update.clone()),
        // 4. Its first step.
        ("get_request", json!({"request_id": request})),
        // 5. Abandon by a profile that may not.
        ("abandon_playbook", json!({"reason": "on change d'avis"})),
        // 6. Replace it by another playbook…
        ("start_playbook", json!({"name": "suivi-disponibilite"})),
        // 7. …which loses the first one's reserved skill.
        ("update_request", update),
    ]);
    let fake = FakeModel::start(script, Duration::ZERO, 64).await.unwrap();
    let app = TestApp::on_model(db.clone(), &fake.base_url(), &[]).await;
    let julien = app.sign_in(JULIEN, PASSWORD).await;
    let (conversation, events) = turn(&app, &julien, request, "Qualifie cette demande").await;
    let lines = finished(&events);
    let names: Vec<&str> = lines.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "update_request",
            "start_playbook",
            "update_request",
            "get_request",
            "abandon_playbook",
            "start_playbook",
            "update_request"
        ],
        "{lines:#?}"
    );
    let (_, reserved, error) = &lines[0];
    assert!(*error && reserved.contains("ouvrez d'abord"), "{reserved}");
    assert!(!lines[1].2, "{:?}", lines[1]);
    let (_, order, error) = &lines[2];
    assert!(*error && order.contains("Étape hors ordre"), "{order}");
    assert!(order.contains("Lecture de la demande"), "{order}");
    assert!(!lines[3].2, "{:?}", lines[3]);
    let (_, abandon, error) = &lines[4];
    assert!(
        *error && abandon.contains("ne permet pas d'abandonner"),
        "{abandon}"
    );
    assert!(
        !lines[5].2 && lines[5].1.contains("à la place de"),
        "{:?}",
        lines[5]
    );
    let (_, lost, error) = &lines[6];
    assert!(*error && lost.contains("réservé au parcours"), "{lost}");
    // Nothing was proposed, let alone written.
    let cards: i64 = sqlx::query_scalar("SELECT count(*) FROM ai_pending_approvals")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(cards, 0);
    // The runs: the first replaced by the second, which is still open.
    let runs: Vec<(String, String, Option<i64>, Vec<String>)> = sqlx::query_as(
        "SELECT p.name, r.status, r.replaced_by, r.steps_done FROM playbook_runs r
           JOIN playbooks p ON p.id = r.playbook_id
          WHERE r.conversation_id = $1 ORDER BY r.id",
    )
    .bind(conversation)
    .fetch_all(&db)
    .await
    .unwrap();
    assert_eq!(runs.len(), 2, "{runs:?}");
    let opened_by: Vec<String> = sqlx::query_scalar(
        "SELECT opened_by FROM playbook_runs WHERE conversation_id = $1 ORDER BY id",
    )
    .bind(conversation)
    .fetch_all(&db)
    .await
    .unwrap();
    assert_eq!(opened_by, ["explicit", "explicit"]);
    assert_eq!(runs[0].0, "qualification-demande");
    assert_eq!(runs[0].1, "replaced");
    assert!(runs[0].2.is_some());
    assert_eq!(runs[0].3, ["get_request"]);
    assert_eq!(
        (runs[1].0.as_str(), runs[1].1.as_str()),
        ("suivi-disponibilite", "open")
    );
    // The chat showed the playbook's progress.
    let shown: Vec<&Value> = events.iter().filter(|e| e["type"] == "playbook").collect();
    assert!(
        shown
            .iter()
            .any(|e| e["status"] == "open" && e["done"] == 1),
        "{shown:?}"
    );
    // Every ruling is in the decision log, in order.
    let log = decisions(&db, conversation).await;
    let origins: Vec<&str> = log.iter().map(|(o, _, _)| o.as_str()).collect();
    assert_eq!(
        origins,
        [
            "implicit_gate",
            "start_playbook",
            "step",
            "abandon",
            "start_playbook",
            "step"
        ],
        "{log:#?}"
    );
    assert!(log[0].2.contains("refusé"), "{:?}", log[0]);
    assert_eq!(log[1].1.as_deref(), Some("qualification-demande"));
    assert!(log[3].2.contains("abandon refusé"), "{:?}", log[3]);
    assert!(
        log[4].2.contains("perd ses actions réservées"),
        "{:?}",
        log[4]
    );
    let _ = member;
}

#[sqlx::test(migrations = "../migrations")]
async fn the_first_write_opens_a_triggered_playbook_and_its_order_holds(db: PgPool) {
    prepare(&db).await;
    let request = small_request(&db).await;
    sqlx::query("UPDATE requests SET participants = 350 WHERE id = $1")
        .bind(request)
        .execute(&db)
        .await
        .unwrap();
    let member: String = sqlx::query_scalar(
        "SELECT m.code FROM members m JOIN requests r ON r.pool_id = m.pool_id
          WHERE r.id = $1 AND m.status = 'active' ORDER BY m.id LIMIT 1",
    )
    .bind(request)
    .fetch_one(&db)
    .await
    .unwrap();
    let script = scripted(vec![
        // Reads outside any playbook are observations.
        ("get_member", json!({"code": member})),
        // The first write: the group playbook's trigger opens it, and the
        // write comes before its steps.
        (
            "request_availability_check",
            json!({"request_id": request, "member_code": member}),
        ),
        ("get_request", json!({"request_id": request})),
    ]);
    let fake = FakeModel::start(script, Duration::ZERO, 64).await.unwrap();
    let app = TestApp::on_model(db.clone(), &fake.base_url(), &[]).await;
    let julien = app.sign_in(JULIEN, PASSWORD).await;
    let (conversation, events) = turn(&app, &julien, request, "Vérifie les dispos").await;
    let lines = finished(&events);
    assert!(!lines[0].2, "{lines:?}");
    let (_, refused, error) = &lines[1];
    assert!(*error && refused.contains("vient de s'ouvrir"), "{refused}");
    assert!(refused.contains("Étape hors ordre"), "{refused}");
    assert!(!lines[2].2, "{lines:?}");
    let (opened_by, status, done): (String, String, Vec<String>) = sqlx::query_as(
        "SELECT opened_by, status, steps_done FROM playbook_runs WHERE conversation_id = $1",
    )
    .bind(conversation)
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!((opened_by.as_str(), status.as_str()), ("trigger", "open"));
    assert_eq!(done, ["get_request"]);
    let log = decisions(&db, conversation).await;
    assert_eq!(log[0].0, "implicit_gate", "{log:?}");
    assert_eq!(log[0].1.as_deref(), Some("groupe-plus-de-200"));
    // The read before any playbook is an observation; the rest are not.
    let observed: Vec<String> = sqlx::query_scalar(
        "SELECT pattern_key FROM observations WHERE conversation_id = $1 ORDER BY id",
    )
    .bind(conversation)
    .fetch_all(&db)
    .await
    .unwrap();
    assert_eq!(observed, ["call:get_member"]);
}
