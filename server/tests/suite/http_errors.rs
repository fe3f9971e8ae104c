//! Failures as callers see them: one JSON or page shape per error, the
//! mapped status, a user-safe French message, and the cause logged exactly
//! once with the request id.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use sqlx::PgPool;
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};
use support::logs::Captured;

const SESSIONS: &str = "SELECT count(*) FROM user_sessions";

async fn send(app: &axum::Router, request: Request<Body>) -> (StatusCode, String) {
    let (status, _, body) = support::send(app, request).await;
    (status, body)
}

#[sqlx::test(migrations = "../migrations")]
async fn a_database_outage_is_a_503_logged_once_never_signed_out(db: PgPool) {
    let state = support::app_state(db.clone(), support::closed_port().await);
    let app = server::http::router(state);
    db.close().await;

    let logs = Captured::default();
    let _guard = logs.start(tracing::Level::INFO);

    // A page: a French error page, not a redirect to the sign-in form.
    let (status, body) = send(
        &app,
        Request::get("/chat")
            .header("cookie", "maxy_session=some-session-token")
            .header("x-request-id", "outage-1")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(body.contains("momentanément indisponible"), "{body}");
    assert!(
        !body.contains("closed pool"),
        "the cause stays on the server"
    );

    // A server function: its JSON error shape, which its client decodes.
    let (status, body) = send(
        &app,
        Request::post("/api/venues/pools")
            .header("cookie", "maxy_session=some-session-token")
            .header("sec-fetch-site", "same-origin")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    let json: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(json["error"], "unavailable");
    assert_eq!(
        json["message"],
        "Le service est momentanément indisponible. Réessayez dans un instant."
    );

    let logs = logs.text();
    let failures: Vec<&str> = logs
        .lines()
        .filter(|l| l.contains("request failed"))
        .collect();
    assert_eq!(failures.len(), 2, "one line per request: {logs}");
    assert!(failures[0].contains("request.id=outage-1"), "{logs}");
    assert!(
        failures[0].contains("closed pool"),
        "with its cause: {logs}"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn oversized_bodies_are_a_413_and_malformed_ones_a_400(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let session = app.sign_in(TEAM, PASSWORD).await;
    let sessions = app.count(SESSIONS).await;

    // Server functions: above their 64 KiB limit, a 413 in their JSON shape.
    let huge = "x".repeat(server::http::BODY_LIMIT + 1);
    let reply = app
        .post_form(
            "/api/venues/search",
            &[("form[pool]", "hotels"), ("form[text]", &huge)],
            Some(&session),
        )
        .await;
    assert_eq!(
        reply.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "{}",
        reply.body
    );
    assert_eq!(reply.json()["error"], "payload_too_large");
    assert_eq!(reply.json()["message"], "La requête est trop volumineuse.");

    // Arguments that do not decode: a 400, never "500 Deserialization…".
    for fields in [
        vec![("form[pool]", "hotels"), ("form[participants]", "beaucoup")],
        vec![("form[near_lat]", "nord")],
    ] {
        let reply = app
            .post_form("/api/venues/search", &fields, Some(&session))
            .await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{fields:?}: {}",
            reply.body
        );
        assert_eq!(reply.json()["error"], "bad_request");
        assert_eq!(reply.json()["message"], "La requête est mal formée.");
    }
    let reply = app
        .post_form("/api/links/availability/answer", &[("token", "x")], None)
        .await;
    assert_eq!(
        reply.status,
        StatusCode::BAD_REQUEST,
        "missing arguments: {}",
        reply.body
    );

    // The sign-in form has its own, smaller limit; nothing is written.
    let long = "x".repeat(server::http::auth_routes::BODY_LIMIT);
    let reply = app
        .post_form(
            "/connexion",
            &[("email", TEAM), ("password", PASSWORD), ("suivant", &long)],
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(reply.session_cookie().is_none());
    let reply = app.post_form("/connexion", &[("email", TEAM)], None).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "no password field");
    assert!(
        reply.body.contains("La requête est mal formée."),
        "{}",
        reply.body
    );
    assert_eq!(
        app.count(SESSIONS).await,
        sessions,
        "no session was written"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn refusals_carry_their_status_and_french_message(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;

    let admin_only = app.post_form("/api/admin/audit", &[], Some(&team)).await;
    assert_eq!(admin_only.status, StatusCode::FORBIDDEN);
    assert_eq!(admin_only.json()["error"], "forbidden");
    assert_eq!(
        admin_only.json()["message"],
        "Cette action est réservée aux administrateurs."
    );

    let link = app
        .post_form("/api/links/catalogue", &[("token", "not-a-token")], None)
        .await;
    assert_eq!(link.status, StatusCode::NOT_FOUND);
    assert_eq!(link.json()["error"], "invalid_link");

    let anonymous = app.post_form("/api/venues/pools", &[], None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        anonymous.json()["message"],
        "Connectez-vous pour continuer."
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_server_function_failure_is_a_generic_500_with_its_cause_logged_once(db: PgPool) {
    seed_demo(&db).await;
    let state = support::app_state(db.clone(), support::closed_port().await);
    let user_id: i64 = sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(TEAM)
        .fetch_one(&db)
        .await
        .unwrap();
    let session = server::auth::sessions::start(&db, user_id, &state.config.auth, None)
        .await
        .unwrap();
    let app = server::http::router(state);
    // The session still resolves; the service's own query fails.
    sqlx::query("ALTER TABLE pools RENAME TO pools_gone")
        .execute(&db)
        .await
        .unwrap();

    let logs = Captured::default();
    let _guard = logs.start(tracing::Level::INFO);

    let (status, body) = send(
        &app,
        Request::post("/api/venues/pools")
            .header("cookie", format!("maxy_session={session}"))
            .header("sec-fetch-site", "same-origin")
            .header("x-request-id", "broken-1")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(
        body,
        r#"{"error":"internal","message":"Une erreur est survenue. Réessayez dans un instant."}"#
    );

    let logs = logs.text();
    let failures: Vec<&str> = logs
        .lines()
        .filter(|l| l.contains("request failed"))
        .collect();
    assert_eq!(failures.len(), 1, "logged exactly once: {logs}");
    assert!(failures[0].contains("request.id=broken-1"), "{logs}");
    assert!(failures[0].contains("pools"), "with its cause: {logs}");
    assert!(
        failures[0].contains("error.code=\"internal\"")
            || failures[0].contains("error.code=internal"),
        "{logs}"
    );
}
