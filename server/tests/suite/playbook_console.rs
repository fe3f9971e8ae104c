//! The admin playbook console over HTTP: every page and server function is
//! refused to a team member (403, no data); an admin's changes are checked
//! (thresholds out of order, an invalid YAML: refused with the message,
//! nothing changed) and audited; the miner run from the console finds a
//! planted week's pattern, and accepting its suggestion makes a playbook in
//! observe mode. Forms posted without JavaScript come back as 303s.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use sqlx::PgPool;
use support::app::{seed_demo, TestApp, ADMIN, PASSWORD, TEAM};

const PAGES: &[&str] = &[
    "/console/playbooks",
    "/console/stations",
    "/console/decisions",
    "/console/motifs",
    "/console/simulateur",
];

const FUNCTIONS: &[&str] = &[
    "/api/console/playbooks",
    "/api/console/playbook",
    "/api/console/playbook/save",
    "/api/console/playbook/status",
    "/api/console/stations",
    "/api/console/station/save",
    "/api/console/decisions",
    "/api/console/motifs",
    "/api/console/motifs/mine",
    "/api/console/suggestion/review",
    "/api/console/suggestion/dismiss",
    "/api/console/simulate",
];

#[sqlx::test(migrations = "../migrations")]
async fn a_team_member_gets_403_from_every_page_and_function(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    for page in PAGES {
        let reply = app.get(page, Some(&team)).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{page}");
    }
    let audit_rows = app.count("SELECT count(*) FROM audit_log").await;
    for function in FUNCTIONS {
        let reply = app
            .post_form(
                function,
                &[
                    ("name", "chat"),
                    ("enforce", "0.1"),
                    ("suggest", "0"),
                    ("margin", "0"),
                    ("max_mode", "enforce"),
                    ("yaml", "name: x"),
                    ("id", "1"),
                    ("status", "active"),
                    ("decision", "accepter"),
                ],
                Some(&team),
            )
            .await;
        assert_eq!(
            reply.status,
            StatusCode::FORBIDDEN,
            "{function}: {}",
            reply.body
        );
        assert!(
            !reply.body.contains("Chat de l"),
            "no data leaks: {}",
            reply.body
        );
    }
    assert_eq!(
        app.count("SELECT count(*) FROM stations WHERE enforce_threshold = 0.1")
            .await,
        0
    );
    // Sign-ins aside, nothing was written.
    assert_eq!(
        app.count("SELECT count(*) FROM audit_log WHERE action LIKE 'playbook%'")
            .await,
        0
    );
    assert!(app.count("SELECT count(*) FROM audit_log").await >= audit_rows);
}

#[sqlx::test(migrations = "../migrations")]
async fn every_console_page_opens_for_an_admin(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    for page in PAGES {
        let reply = app.get(page, Some(&admin)).await;
        assert_eq!(reply.status, StatusCode::OK, "{page}: {}", reply.body);
        assert!(reply.body.contains("Sections de la console"), "{page}");
    }
    let stations = app.get("/console/stations", Some(&admin)).await.body;
    assert!(stations.contains("Chat de l&#x27;équipe") || stations.contains("Chat de l'équipe"));
    let motifs = app.get("/console/motifs", Some(&admin)).await.body;
    assert!(
        motifs.contains("<svg role=\"img\""),
        "the trend chart is drawn"
    );
    let unknown = app
        .get("/console/decisions?mode=partout", Some(&admin))
        .await;
    assert!(unknown.body.contains("Ce filtre n"), "{}", unknown.body);
}

#[sqlx::test(migrations = "../migrations")]
async fn thresholds_out_of_order_are_refused_and_change_nothing(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    let before: (f64, f64) = sqlx::query_as(
        "SELECT enforce_threshold, suggest_threshold FROM stations WHERE name = 'chat'",
    )
    .fetch_one(&app.db)
    .await
    .unwrap();
    let fields = [
        ("name", "chat"),
        ("enforce", "0.6"),
        ("suggest", "0.7"),
        ("margin", "0.05"),
        ("max_mode", "enforce"),
    ];
    let reply = app
        .post_form("/api/console/station/save", &fields, Some(&admin))
        .await;
    assert_eq!(
        reply.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        reply.body
    );
    assert!(reply.body.contains("Suggérer dès"), "{}", reply.body);
    let after: (f64, f64) = sqlx::query_as(
        "SELECT enforce_threshold, suggest_threshold FROM stations WHERE name = 'chat'",
    )
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert_eq!(before, after);

    let fields = [
        ("name", "training"),
        ("enforce", "0,9"),
        ("suggest", "0.4"),
        ("margin", "0.1"),
        ("max_mode", "suggest"),
    ];
    let reply = app
        .post_form("/api/console/station/save", &fields, Some(&admin))
        .await;
    assert!(
        reply.status.is_success() || reply.status.is_redirection(),
        "{}",
        reply.body
    );
    assert_eq!(
        app.count("SELECT count(*) FROM stations WHERE name = 'training' AND enforce_threshold = 0.9 AND max_mode = 'suggest'").await,
        1
    );
    assert_eq!(
        app.count("SELECT count(*) FROM audit_log WHERE action = 'playbook.station_settings'")
            .await,
        1
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn an_invalid_yaml_is_refused_with_its_line_and_nothing_is_saved(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    let playbooks = app.count("SELECT count(*) FROM playbooks").await;
    let yaml = "name: essai-console\ngoal: \"tester\"\nactivation:\n  when: \"participants >\"\nsteps:\n  - skill: get_request\n";
    let reply = app
        .post_form(
            "/api/console/playbook/save",
            &[("yaml", yaml)],
            Some(&admin),
        )
        .await;
    assert_eq!(
        reply.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        reply.body
    );
    assert!(reply.body.contains("ligne"), "located: {}", reply.body);
    assert_eq!(app.count("SELECT count(*) FROM playbooks").await, playbooks);

    // A plain form post (no JavaScript): the refusal comes back to the page.
    let reply = app
        .post_raw(
            "/api/console/playbook/save",
            &[("yaml", yaml)],
            &[
                ("Cookie", &app.cookie(&admin)),
                ("Origin", &app.url("")),
                ("Accept", "text/html"),
                ("Referer", &app.url("/console/playbooks")),
            ],
        )
        .await;
    assert!(reply.status.is_redirection(), "{}", reply.status);
    assert!(
        reply.location().contains("/console/playbooks"),
        "{}",
        reply.location()
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn the_week_is_mined_and_an_accepted_suggestion_is_observed(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    // A planted pattern: 7 calls of one tool right after another, this week.
    sqlx::query(
        "INSERT INTO observations (pattern_key, tool_name, after_tool, station, created_at)
         SELECT 'after:get_member_signals|call:request_availability_check',
                'request_availability_check', 'get_member_signals', 'chat', now() - interval '1 minute' * g
           FROM generate_series(1, 7) g",
    )
    .execute(&app.db)
    .await
    .unwrap();
    let reply = app
        .post_raw(
            "/api/console/motifs/mine",
            &[],
            &[
                ("Cookie", &app.cookie(&admin)),
                ("Origin", &app.url("")),
                ("Accept", "text/html"),
            ],
        )
        .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.body);
    assert!(
        reply
            .location()
            .starts_with("/console/motifs?fait=analyse-"),
        "{}",
        reply.location()
    );
    let page = app.get("/console/motifs", Some(&admin)).await.body;
    assert!(
        page.contains("7 fois cette semaine"),
        "the pattern and its count"
    );
    let id = app
        .count("SELECT id FROM suggested_playbooks WHERE status = 'new' ORDER BY id LIMIT 1")
        .await;
    let yaml: String =
        sqlx::query_scalar("SELECT draft ->> 'yaml' FROM suggested_playbooks WHERE id = $1")
            .bind(id)
            .fetch_one(&app.db)
            .await
            .unwrap();
    let reply = app
        .post_form(
            "/api/console/suggestion/review",
            &[
                ("id", &id.to_string()),
                ("yaml", &yaml),
                ("decision", "accepter"),
            ],
            Some(&admin),
        )
        .await;
    assert!(
        reply.status.is_success() || reply.status.is_redirection(),
        "{}",
        reply.body
    );
    assert_eq!(
        app.count("SELECT count(*) FROM playbooks p JOIN suggested_playbooks s ON s.accepted_playbook_id = p.id WHERE p.status = 'observe'").await,
        1
    );
    assert_eq!(
        app.count("SELECT count(*) FROM audit_log WHERE action IN ('playbooks.mine', 'playbook.suggestion_accepted')").await,
        2
    );
    let list = app.get("/console/playbooks", Some(&admin)).await.body;
    assert!(list.contains("En observation"));
}
