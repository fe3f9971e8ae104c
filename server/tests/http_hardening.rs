//! Attacks on the HTTP layer, each refused with its status and nothing
//! written: open redirects after sign-in, paths that dodge the guard, and
//! cross-origin posts when the public URL is known.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use sqlx::PgPool;
use support::app::{catalogue_link, seed_demo, TestApp, ADMIN, PASSWORD, TEAM};
use support::logs::Captured;

const SESSIONS: &str = "SELECT count(*) FROM user_sessions";

#[sqlx::test(migrations = "../migrations")]
async fn sign_in_never_sends_the_user_off_site(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    // (next as the form sends it, account): at most 5 sign-ins per account
    // and 10 per address fit in the rate limits.
    let attacks = [
        ("/\t/evil.example/phish", TEAM),
        ("/lieux\r\nSet-Cookie: x=1", TEAM),
        ("/\\evil.example", TEAM),
        ("//evil.example/x", TEAM),
        ("https://evil.example/", ADMIN),
        ("/./console", ADMIN),
        ("/nulle-part", ADMIN),
    ];
    for (n, (next, email)) in attacks.iter().enumerate() {
        let reply = app
            .post_form(
                "/connexion",
                &[("email", email), ("password", PASSWORD), ("suivant", next)],
                None,
            )
            .await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER, "{next:?}");
        assert_eq!(reply.location(), "/", "{next:?} is not followed");
        assert!(reply.session_cookie().is_some(), "{next:?}");
        assert_eq!(app.count(SESSIONS).await, n as i64 + 1);
    }
    let fine = app
        .post_form(
            "/connexion",
            &[
                ("email", ADMIN),
                ("password", PASSWORD),
                ("suivant", "/lieux?pool=hotels"),
            ],
            None,
        )
        .await;
    assert_eq!(fine.location(), "/lieux?pool=hotels", "our own pages are");

    // The form never even carries such a path.
    let page = app
        .get("/connexion?suivant=%2F%09%2Fevil.example%2Fphish", None)
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(!page.body.contains("evil.example"), "{}", page.body);
}

async fn send(app: &axum::Router, request: Request<Body>) -> (StatusCode, String) {
    let (status, _, body) = support::send(app, request).await;
    (status, body)
}

#[sqlx::test(migrations = "../migrations")]
async fn paths_that_dodge_the_guard_are_refused_and_tokens_stay_out_of_the_logs(db: PgPool) {
    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    let uses = "SELECT coalesce(sum(use_count), 0)::bigint FROM magic_links";
    let used_before: i64 = sqlx::query_scalar(uses).fetch_one(&db).await.unwrap();
    let app = server::http::router(support::app_state(
        db.clone(),
        support::fake_embedding_server().await,
    ));
    let logs = Captured::default();
    let _guard = logs.start(tracing::Level::TRACE);

    for path in [
        "/./console".to_string(),
        "/%2e/console".to_string(),
        "/%2E%2E/console".to_string(),
        "/x/../console".to_string(),
        "/lieux/..".to_string(),
        format!("/./c/{}", link.token),
        format!("/x/../c/{}", link.token),
    ] {
        let (status, body) = send(&app, Request::get(&path).body(Body::empty()).unwrap()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}");
        assert!(body.contains("Adresse invalide."), "{path}: {body}");
    }
    // Server functions too, whatever the method.
    let (status, _) = send(
        &app,
        Request::post("/api/./admin/audit")
            .header("sec-fetch-site", "same-origin")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    let used_after: i64 = sqlx::query_scalar(uses).fetch_one(&db).await.unwrap();
    assert_eq!(used_before, used_after, "the link was never read");
    let logs = logs.text();
    assert!(
        logs.contains("/./c/…"),
        "the path is logged, redacted: {logs}"
    );
    assert!(!logs.contains(&link.token), "the token never is: {logs}");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_csrf_refusal_log_line_redacts_link_tokens(db: PgPool) {
    let app = server::http::router(support::app_state(db, support::closed_port().await));
    let logs = Captured::default();
    let _guard = logs.start(tracing::Level::TRACE);
    let token = "Zk3v0pS9yQ2x8Lw1aB4cD5eF6gH7iJ8kL9mN0oP1qR2.c2lnbmF0dXJl";
    let (status, _) = send(
        &app,
        Request::post(format!("/v/{token}"))
            .header("origin", "https://evil.example")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let logs = logs.text();
    assert!(logs.contains("cross-site"), "{logs}");
    assert!(!logs.contains(token), "{logs}");
}

#[sqlx::test(migrations = "../migrations")]
async fn with_a_public_url_only_its_exact_origin_may_post(db: PgPool) {
    seed_demo(&db).await;
    let public = "https://maxy.example.org";
    let app = TestApp::start_with(db, &[("MAXY_PUBLIC_URL", public)]).await;
    let fields = [("email", TEAM), ("password", PASSWORD)];
    let own_host = app.url("");
    for origin in [
        own_host.trim_end_matches('/'),
        "http://maxy.example.org",
        "https://maxy.example.org:8443",
        "https://maxy.example.org.evil.example",
    ] {
        let reply = app
            .post_raw("/connexion", &fields, &[("origin", origin)])
            .await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{origin}");
        assert!(reply.session_cookie().is_none(), "{origin}");
    }
    assert_eq!(app.count(SESSIONS).await, 0, "nothing was written");
    let reply = app
        .post_raw("/connexion", &fields, &[("origin", public)])
        .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "the public origin may");
    assert_eq!(app.count(SESSIONS).await, 1);
}
