//! The console's audit journal over HTTP, on a real database: rows in French
//! (labels, names, Paris time), objects named in words and linked to their
//! pages, filters by who, what, when and words carried by the address, 50
//! rows a page, and unknown filter values refused in French. Team members
//! get nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use sqlx::PgPool;
use support::app::{seed_demo, TestApp, ADMIN, PASSWORD, TEAM};

async fn user_id(db: &PgPool, email: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(email)
        .fetch_one(db)
        .await
        .unwrap()
}

/// Writes one row by hand, at a chosen instant.
async fn row(db: &PgPool, at: &str, actor: Option<i64>, action: &str, object: Option<(&str, i64)>) {
    sqlx::query(
        "INSERT INTO audit_log (at, actor_id, actor_kind, action, object_type, object_id)
         VALUES ($1::timestamptz, $2, CASE WHEN $2 IS NULL THEN 'system' ELSE 'user' END, $3, $4, $5)",
    )
    .bind(at)
    .bind(actor)
    .bind(action)
    .bind(object.map(|o| o.0))
    .bind(object.map(|o| o.1))
    .execute(db)
    .await
    .unwrap();
}

/// The journal as JSON, read by `session` with `filters` (the form's fields).
async fn journal(app: &TestApp, session: &str, filters: &[(&str, &str)]) -> serde_json::Value {
    let fields: Vec<(String, &str)> = filters
        .iter()
        .map(|(k, v)| (format!("filters[{k}]"), *v))
        .collect();
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let reply = app
        .post_form("/api/admin/journal", &fields, Some(session))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.json()
}

fn actions(page: &serde_json::Value) -> Vec<String> {
    page["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["action"].as_str().unwrap().to_string())
        .collect()
}

#[sqlx::test(migrations = "../migrations")]
async fn rows_read_in_french_with_paris_times_and_linked_objects(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db.clone()).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    let camille = user_id(&db, TEAM).await;
    let (request, reference): (i64, String) =
        sqlx::query_as("SELECT id, reference FROM requests ORDER BY id LIMIT 1")
            .fetch_one(&db)
            .await
            .unwrap();
    let conversation: i64 = sqlx::query_scalar(
        "INSERT INTO ai_conversations (user_id, title) VALUES ($1, 'Séminaire à Lyon') RETURNING id",
    )
    .bind(camille)
    .fetch_one(&db)
    .await
    .unwrap();
    // Summer: Paris is two hours ahead of UTC.
    row(
        &db,
        "2026-07-01T12:05:00Z",
        Some(camille),
        "request.updated",
        Some(("request", request)),
    )
    .await;
    row(
        &db,
        "2026-07-01T12:06:00Z",
        Some(camille),
        "memory.summarised",
        Some(("ai_conversation", conversation)),
    )
    .await;
    row(
        &db,
        "2026-07-01T12:07:00Z",
        None,
        "user.created",
        Some(("user", camille)),
    )
    .await;
    row(
        &db,
        "2026-07-01T12:08:00Z",
        None,
        "playbook.saved",
        Some(("ai_pending_approval", 999_999)),
    )
    .await;

    let page = journal(
        &app,
        &admin,
        &[("from", "2026-07-01"), ("to", "2026-07-01")],
    )
    .await;
    let rows = page["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4, "{page}");
    let by_action = |a: &str| rows.iter().find(|r| r["action"] == a).unwrap().clone();
    let updated = by_action("request.updated");
    assert_eq!(updated["at"], "01/07/2026 14:05");
    assert_eq!(updated["actor"], "Camille Martin");
    assert_eq!(updated["action_label"], "Demande modifiée");
    assert_eq!(updated["object"]["label"], format!("demande {reference}"));
    assert_eq!(updated["object"]["href"], format!("/demandes/{request}"));
    let summarised = by_action("memory.summarised");
    assert_eq!(
        summarised["object"]["label"],
        "conversation « Séminaire à Lyon »"
    );
    assert_eq!(
        summarised["object"]["href"],
        format!("/chat/{conversation}")
    );
    let created = by_action("user.created");
    assert_eq!(created["actor"], "Système");
    assert_eq!(created["object"]["label"], "compte de Camille Martin");
    // An object since deleted: its noun, never its number.
    let gone = by_action("playbook.saved");
    assert_eq!(gone["object"]["label"], "proposition");
    assert!(gone["object"]["href"].is_null());

    // The page, without JavaScript: the same words, the link, no key shown.
    let html = app
        .get("/console?du=2026-07-01&au=2026-07-01", Some(&admin))
        .await;
    assert_eq!(html.status, StatusCode::OK);
    assert!(html.body.contains("01/07/2026 14:05"), "{}", html.body);
    assert!(html
        .body
        .contains(&format!(r#"href="/demandes/{request}""#)));
    assert!(html.body.contains("Séminaire à Lyon"));
    assert!(!html.body.contains(">request.updated<"));
    assert!(!html.body.contains("n° 999999"));
}

#[sqlx::test(migrations = "../migrations")]
async fn filters_by_who_what_when_and_words_and_pages_by_fifty(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db.clone()).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    let camille = user_id(&db, TEAM).await;
    sqlx::query("DELETE FROM audit_log")
        .execute(&db)
        .await
        .unwrap();
    // 120 sign-ins of Camille's over the last days, and other actions.
    sqlx::query(
        "INSERT INTO audit_log (at, actor_id, actor_kind, action, object_type, object_id)
         SELECT now() - n * interval '1 hour', $1, 'user', 'auth.sign_in', 'user', $1
           FROM generate_series(1, 120) n",
    )
    .bind(camille)
    .execute(&db)
    .await
    .unwrap();
    row(&db, "2026-01-15T10:00:00Z", None, "playbooks.mine", None).await;
    row(&db, "2026-01-15T11:00:00Z", None, "playbook.saved", None).await;

    // What: the family « Playbooks » covers both areas.
    let playbooks = journal(&app, &admin, &[("family", "playbooks")]).await;
    let mut found = actions(&playbooks);
    found.sort();
    assert_eq!(found, ["playbook.saved", "playbooks.mine"]);

    // Who: Camille's rows only; pages of 50 then the rest.
    let who = camille.to_string();
    let first = journal(&app, &admin, &[("member", who.as_str())]).await;
    assert_eq!(first["rows"].as_array().unwrap().len(), 50);
    assert_eq!(first["has_next"], true);
    assert!(actions(&first).iter().all(|a| a == "auth.sign_in"));
    let third = journal(&app, &admin, &[("member", who.as_str()), ("page", "3")]).await;
    assert_eq!(third["rows"].as_array().unwrap().len(), 20);
    assert_eq!(third["has_next"], false);
    let members = first["members"].as_array().unwrap();
    assert!(members.iter().any(|m| m[1] == "Camille Martin"));

    // When: the last 7 days hold Camille's rows, not January's.
    let week = journal(&app, &admin, &[("period", "7j")]).await;
    assert_eq!(week["rows"].as_array().unwrap().len(), 50);
    assert!(!actions(&week).contains(&"playbooks.mine".to_string()));
    let january = journal(
        &app,
        &admin,
        &[("from", "2026-01-15"), ("to", "2026-01-15")],
    )
    .await;
    assert_eq!(actions(&january).len(), 2);

    // Words: a French label (without its accents), a name.
    let words = journal(&app, &admin, &[("text", "motifs observes")]).await;
    assert_eq!(actions(&words), ["playbooks.mine"]);
    let name = journal(
        &app,
        &admin,
        &[("text", "camille"), ("period", "aujourdhui")],
    )
    .await;
    assert!(actions(&name).iter().all(|a| a == "auth.sign_in"));

    // The page's links keep the filters: the next page of a filtered view.
    let html = app
        .get(
            &format!("/console?membre={camille}&quoi=connexions"),
            Some(&admin),
        )
        .await;
    assert!(
        html.body.contains(&format!(
            "/console?membre={camille}&amp;quoi=connexions&amp;page=2"
        )),
        "{}",
        html.body
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn unknown_filters_are_refused_and_team_members_get_nothing(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    let refused = app
        .post_form(
            "/api/admin/journal",
            &[("filters[family]", "tout")],
            Some(&admin),
        )
        .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        refused.json()["message"],
        "Ce type d'action n'existe pas : choisissez dans la liste."
    );
    let page = app.get("/console?du=hier", Some(&admin)).await;
    assert_eq!(page.status, StatusCode::BAD_REQUEST);
    assert!(page.body.contains("pas une date valide"), "{}", page.body);

    let team = app.sign_in(TEAM, PASSWORD).await;
    for function in [
        "/api/admin/journal",
        "/api/admin/assistant-status",
        "/api/admin/accounts",
    ] {
        let reply = app.post_form(function, &[], Some(&team)).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{function}");
        assert!(
            !reply.body.contains("Camille"),
            "{function}: {}",
            reply.body
        );
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn the_assistant_card_says_offline_and_why_and_the_spend(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    let status = app
        .post_form("/api/admin/assistant-status", &[], Some(&admin))
        .await;
    assert_eq!(status.status, StatusCode::OK, "{}", status.body);
    let s = status.json();
    assert_eq!(s["provider"], "Aucun (hors ligne)");
    assert_eq!(s["offline"], true);
    assert!(s["offline_reason"]
        .as_str()
        .unwrap()
        .contains("planificateur hors ligne"));
    assert_eq!(s["budget"]["cap_eur"], 200.0);
    let page = app.get("/console", Some(&admin)).await;
    assert!(
        page.body.contains("Planificateur hors ligne"),
        "{}",
        page.body
    );
    assert!(page.body.contains("sur 200\u{a0}€"), "{}", page.body);
}
