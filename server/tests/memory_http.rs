//! `/memoire` and the memory server functions over HTTP, as a browser
//! without JavaScript uses them: the page renders server side with its
//! forms, every endpoint refuses an anonymous caller, and a member never
//! reaches another member's memory (once the store has its bodies; on the
//! skeleton's branch the endpoints fail cleanly and write nothing).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use reqwest::StatusCode;
use sqlx::PgPool;
use support::app::{TestApp, ADMIN, PASSWORD, TEAM};

async fn post(
    app: &TestApp,
    path: &str,
    fields: &[(&str, &str)],
    session: &str,
) -> support::app::Reply {
    app.post_form(path, fields, Some(session)).await
}

#[sqlx::test(migrations = "../migrations")]
async fn the_page_renders_its_forms_for_a_team_member(db: PgPool) {
    support::app::seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let anonymous = app.get("/memoire", None).await;
    assert_ne!(anonymous.status, StatusCode::OK);
    let team = app.sign_in(TEAM, PASSWORD).await;
    let page = app.get("/memoire?q=m%C3%A9dicaments", Some(&team)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains(">Mémoire</h1>"), "{}", page.body);
    for testid in ["memory-search", "memory-search-input"] {
        assert!(
            page.body.contains(&format!(r#"data-testid="{testid}""#)),
            "{testid}"
        );
    }
    // The query is kept in the box (a GET form: bookmarkable, no script).
    assert!(
        page.body.contains(r#"value="médicaments""#),
        "{}",
        page.body
    );
    let real = !page.body.contains(r#"data-testid="memory-error""#);
    if real {
        for testid in [
            "memory-add-form",
            "reminder-form",
            "memory-chart",
            "memory-results",
        ] {
            assert!(
                page.body.contains(&format!(r#"data-testid="{testid}""#)),
                "{testid}"
            );
        }
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn every_endpoint_refuses_an_anonymous_caller(db: PgPool) {
    support::app::seed_demo(&db).await;
    let app = TestApp::start(db).await;
    for (path, fields) in [
        ("/api/memory/search", vec![("query", "x")]),
        ("/api/memory/overview", vec![]),
        ("/api/memory/save", vec![("title", ""), ("content", "x")]),
        (
            "/api/memory/update",
            vec![("id", "1"), ("title", ""), ("content", "x")],
        ),
        ("/api/memory/delete", vec![("id", "1")]),
        ("/api/memory/reminder/done", vec![("id", "1")]),
        (
            "/api/memory/reminder/snooze",
            vec![("id", "1"), ("until", "monday")],
        ),
    ] {
        let reply = app.post_form(path, &fields, None).await;
        assert_eq!(
            reply.status,
            StatusCode::UNAUTHORIZED,
            "{path}: {}",
            reply.body
        );
    }
    assert_eq!(app.count("SELECT count(*) FROM ai_memories").await, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn bad_input_and_other_members_ids_are_refused(db: PgPool) {
    support::app::seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    // Checked before the store: a reminder with a bad date or recurrence.
    for fields in [
        [
            ("title", "Relancer"),
            ("description", ""),
            ("due_on", "demain"),
            ("due_time", ""),
            ("recurrence", "none"),
        ],
        [
            ("title", "Relancer"),
            ("description", ""),
            ("due_on", "2026-12-03"),
            ("due_time", "25:00"),
            ("recurrence", "none"),
        ],
        [
            ("title", "Relancer"),
            ("description", ""),
            ("due_on", "2026-12-03"),
            ("due_time", ""),
            ("recurrence", "hourly"),
        ],
    ] {
        let reply = post(&app, "/api/memory/reminder", &fields, &team).await;
        assert_eq!(reply.status.as_u16(), 422, "{fields:?}: {}", reply.body);
    }
    let snooze = post(
        &app,
        "/api/memory/reminder/snooze",
        &[("id", "1"), ("until", "never")],
        &team,
    )
    .await;
    assert!(snooze.status.is_client_error() || snooze.status.is_server_error());
    assert_eq!(app.count("SELECT count(*) FROM tasks").await, 0);

    let saved = post(
        &app,
        "/api/memory/save",
        &[("title", ""), ("content", "Le Pavillon ferme le dimanche")],
        &team,
    )
    .await;
    if saved.status != StatusCode::OK {
        eprintln!(
            "the memory store is the skeleton on this branch: {}",
            saved.status
        );
        assert_eq!(app.count("SELECT count(*) FROM ai_memories").await, 0);
        return;
    }
    let id = saved.body.trim().to_string();
    let long = "x".repeat(5_000);
    for (path, fields) in [
        ("/api/memory/save", vec![("title", ""), ("content", "  ")]),
        (
            "/api/memory/save",
            vec![("title", ""), ("content", long.as_str())],
        ),
        ("/api/memory/search", vec![("query", " ")]),
    ] {
        let reply = post(&app, path, &fields, &team).await;
        assert_eq!(reply.status.as_u16(), 422, "{path}: {}", reply.body);
    }
    // 100 KB: the body limit refuses it before the store (413), clearly.
    let huge = "x".repeat(100_000);
    let reply = post(
        &app,
        "/api/memory/save",
        &[("title", ""), ("content", huge.as_str())],
        &team,
    )
    .await;
    assert!(
        [413, 422].contains(&reply.status.as_u16()),
        "{}: {}",
        reply.status,
        reply.body
    );
    // Another member (even an admin) cannot edit or delete it.
    for (path, fields) in [
        (
            "/api/memory/update",
            vec![("id", id.as_str()), ("title", ""), ("content", "volé")],
        ),
        ("/api/memory/delete", vec![("id", id.as_str())]),
        ("/api/memory/delete", vec![("id", "999999")]),
    ] {
        let reply = post(&app, path, &fields, &admin).await;
        assert_eq!(
            reply.status,
            StatusCode::NOT_FOUND,
            "{path}: {}",
            reply.body
        );
    }
    assert_eq!(
        app.count(
            "SELECT count(*) FROM ai_memories WHERE content = 'Le Pavillon ferme le dimanche'"
        )
        .await,
        1
    );
}
