//! `/entrainement` and the training server functions over HTTP, as a
//! browser without JavaScript uses them: the page renders server side, the
//! guideline form posts and comes back to the page with the new lesson
//! listed, a refused lesson comes back with its message on the page, and
//! only its author (or an admin) deletes a lesson.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use sqlx::PgPool;
use support::app::{TestApp, ADMIN, PASSWORD, TEAM};

/// A form post as a browser sends it without JavaScript.
async fn post(
    app: &TestApp,
    path: &str,
    fields: &[(&str, &str)],
    session: &str,
) -> support::app::Reply {
    let origin = app.url("");
    let referer = app.url("/entrainement");
    let cookie = app.cookie(session);
    app.post_raw(
        path,
        fields,
        &[
            ("origin", origin.as_str()),
            ("referer", referer.as_str()),
            ("accept", "text/html,application/xhtml+xml"),
            ("cookie", cookie.as_str()),
        ],
    )
    .await
}

const GUIDELINE: &[(&str, &str)] = &[
    ("event_type", "Cocktail"),
    ("trigger", "festif"),
    ("prefer", "jardin, terrasse"),
    ("avoid", "sous-sol"),
    ("reason", "Les soirées festives se passent dehors."),
    ("category", "ambiance"),
];

#[sqlx::test(migrations = "../migrations")]
async fn a_guideline_posts_without_javascript_and_is_listed(db: PgPool) {
    support::app::seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let before = app.count("SELECT count(*) FROM training_sessions").await;

    let page = app.get("/entrainement", Some(&team)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains(">Entraînement</h1>"), "{}", page.body);
    assert!(page.body.contains(r#"data-testid="guideline-form""#));
    assert!(
        page.body.contains(r#"href="/entrainement""#),
        "in the navigation"
    );

    let reply = post(&app, "/api/training/guideline", GUIDELINE, &team).await;
    assert_eq!(reply.status, StatusCode::FOUND, "{}", reply.body);
    // Back to the page (server_fn strips its error parameters: a bare `?`).
    assert!(
        reply.location().starts_with(&app.url("/entrainement")),
        "{}",
        reply.location()
    );
    assert_eq!(
        app.count("SELECT count(*) FROM training_sessions").await,
        before + 1
    );
    assert_eq!(
        app.count(
            "SELECT count(*) FROM training_sessions
              WHERE verdict = 'guideline' AND event_type = 'cocktail' AND source = 'learn_button'
                AND directives = '{\"trigger\": \"festif\", \"prefer\": [\"jardin\", \"terrasse\"], \"avoid\": [\"sous-sol\"]}'"
        )
        .await,
        1
    );
    let page = app.get("/entrainement?type=COCKTAIL", Some(&team)).await;
    assert!(
        page.body
            .contains("Quand « festif » : préférer jardin, terrasse ; éviter sous-sol"),
        "{}",
        page.body
    );

    // Refused: back on the page, with the reason, and nothing written.
    let mut bad = GUIDELINE.to_vec();
    bad[1] = ("trigger", " ");
    let reply = post(&app, "/api/training/guideline", &bad, &team).await;
    assert_eq!(reply.status, StatusCode::FOUND);
    assert!(reply.location().contains("__err="), "{}", reply.location());
    let location = reply
        .location()
        .trim_start_matches(&app.url(""))
        .to_string();
    let vouch = reply.form_error_cookie();
    let page = app
        .get_with(&location, Some(&team), &[("cookie", &vouch)])
        .await;
    assert!(
        page.body.contains("Le déclencheur de la consigne est vide"),
        "the message is on the page: {}",
        page.body
    );
    assert_eq!(
        app.count("SELECT count(*) FROM training_sessions").await,
        before + 1
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn only_the_author_or_an_admin_deletes_a_lesson(db: PgPool) {
    support::app::seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    post(&app, "/api/training/guideline", GUIDELINE, &admin).await;
    let id: i64 = sqlx::query_scalar("SELECT max(id) FROM training_sessions")
        .fetch_one(&app.db)
        .await
        .unwrap();
    let id_text = id.to_string();

    // Someone else's lesson: refused, kept.
    let reply = app
        .post_raw(
            "/api/training/delete",
            &[("id", id_text.as_str())],
            &[
                ("origin", app.url("").as_str()),
                ("cookie", app.cookie(&team).as_str()),
            ],
        )
        .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{}", reply.body);
    let kept = format!("SELECT count(*) FROM training_sessions WHERE id = {id}");
    assert_eq!(app.count(&kept).await, 1);
    // Anonymous: refused before anything is read.
    let reply = app
        .post_raw(
            "/api/training/delete",
            &[("id", id_text.as_str())],
            &[("origin", app.url("").as_str())],
        )
        .await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    // The author's own lesson (here an admin's): deleted.
    let reply = post(
        &app,
        "/api/training/delete",
        &[("id", id_text.as_str())],
        &admin,
    )
    .await;
    assert_eq!(reply.status, StatusCode::FOUND);
    assert_eq!(app.count(&kept).await, 0);
    // Already gone: a clear 404.
    let reply = app
        .post_raw(
            "/api/training/delete",
            &[("id", id_text.as_str())],
            &[
                ("origin", app.url("").as_str()),
                ("cookie", app.cookie(&admin).as_str()),
            ],
        )
        .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
}
