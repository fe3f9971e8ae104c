//! The HTTP surface on a real database: health probes, server-rendered pages,
//! request ids.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use sqlx::PgPool;

async fn get(app: axum::Router, uri: &str) -> (StatusCode, axum::http::HeaderMap, String) {
    get_with(app, Request::get(uri).body(Body::empty()).expect("request")).await
}

async fn get_with(
    app: axum::Router,
    request: Request<Body>,
) -> (StatusCode, axum::http::HeaderMap, String) {
    support::send(&app, request).await
}

#[sqlx::test(migrations = "../migrations")]
async fn healthz_answers_ok(db: PgPool) {
    let app = server::http::router(support::app_state(db, support::closed_port().await));
    let (status, _, body) = get(app, "/healthz").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, "ok");
}

#[sqlx::test(migrations = "../migrations")]
async fn readyz_is_ready_when_database_and_embeddings_answer(db: PgPool) {
    let app = server::http::router(support::app_state(
        db,
        support::fake_embedding_server().await,
    ));
    let (status, _, body) = get(app, "/readyz").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let json: serde_json::Value = serde_json::from_str(&body).expect("json");
    assert_eq!(json["ready"], true);
    assert_eq!(json["database"], "ok");
    assert_eq!(json["embeddings"], "ok");
}

#[sqlx::test(migrations = "../migrations")]
async fn readyz_stays_ready_without_embeddings_and_shows_no_address(db: PgPool) {
    // Searches fall back to keywords: an embedding outage is not a reason to
    // take the instance out of the load balancer.
    let down = support::closed_port().await;
    let app = server::http::router(support::app_state(db, down));
    let (status, _, body) = get(app, "/readyz").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let json: serde_json::Value = serde_json::from_str(&body).expect("json");
    assert_eq!(json["ready"], true);
    assert_eq!(json["database"], "ok");
    assert_eq!(json["embeddings"], "unavailable");
    for internal in [down.to_string(), "127.0.0.1".into(), "http".into()] {
        assert!(!body.contains(&internal), "{body} reveals {internal}");
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn readyz_stays_ready_while_the_embedder_is_busy(db: PgPool) {
    async fn busy() -> &'static str {
        tokio::time::sleep(std::time::Duration::from_secs(30)).await;
        "never"
    }
    let app = axum::Router::new().route("/v1/embeddings", axum::routing::post(busy));
    let addr = support::serve_in_background(app).await;
    let (status, _, body) = get(
        server::http::router(support::app_state(db, addr)),
        "/readyz",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body.contains(r#""embeddings":"busy""#), "{body}");
}

#[sqlx::test(migrations = "../migrations")]
async fn readyz_reports_a_closed_database(db: PgPool) {
    let state = support::app_state(db.clone(), support::fake_embedding_server().await);
    db.close().await;
    let (status, _, body) = get(server::http::router(state), "/readyz").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(body.contains(r#""database":"unreachable""#), "{body}");
}

#[sqlx::test(migrations = "../migrations")]
async fn every_section_renders_server_side_in_french(db: PgPool) {
    support::app::seed_demo(&db).await;
    let app = support::app::TestApp::start(db).await;
    let session = app
        .sign_in(support::app::ADMIN, support::app::PASSWORD)
        .await;
    for (path, title) in [
        ("/", "À faire"),
        ("/chat", "Chat"),
        ("/demandes", "Demandes"),
        ("/lieux", "Lieux"),
        ("/memoire", "Mémoire"),
        ("/console", "Console"),
    ] {
        let reply = app.get(path, Some(&session)).await;
        let html = &reply.body;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        assert!(html.contains(r#"<html lang="fr""#), "{path}");
        assert!(
            html.contains(r#"aria-label="Navigation principale""#),
            "{path}"
        );
        assert!(
            html.contains(&format!(">{title}</h1>")),
            "{path} lacks its h1: {html}"
        );
        assert!(
            html.contains("/pkg/maxy.js"),
            "{path} lacks the hydration script"
        );
        assert!(
            html.contains("/pkg/maxy.css"),
            "{path} lacks the stylesheet"
        );
        assert!(
            html.contains("Admin Reciprok"),
            "{path} names the signed-in user"
        );
    }
    // The home page is the member's queue: its title says so, and the server
    // sends the queue (or its empty state), not a loading placeholder only.
    let home = app.get("/", Some(&session)).await.body;
    assert!(home.contains("<title>À faire · Maxy</title>"), "{home}");
    assert!(
        home.contains(r#"data-testid="work-queue""#)
            || home.contains(r#"data-testid="queue-empty""#),
        "the home page renders its queue server-side: {home}"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn unknown_pages_are_a_french_404(db: PgPool) {
    let app = server::http::router(support::app_state(db, support::closed_port().await));
    let (status, _, html) = get(app, "/nulle-part").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(html.contains("Page introuvable"), "{html}");
}

#[sqlx::test(migrations = "../migrations")]
async fn request_ids_are_generated_kept_or_replaced(db: PgPool) {
    let state = support::app_state(db, support::closed_port().await);
    let (_, headers, _) = get(server::http::router(state.clone()), "/healthz").await;
    let generated = headers
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    assert_eq!(generated.len(), 36, "a UUID is generated: {generated:?}");

    let kept = Request::get("/healthz")
        .header("x-request-id", "abc-123")
        .body(Body::empty())
        .expect("request");
    let (_, headers, _) = get_with(server::http::router(state.clone()), kept).await;
    assert_eq!(
        headers.get("x-request-id").and_then(|v| v.to_str().ok()),
        Some("abc-123")
    );

    let forged = Request::get("/healthz")
        .header("x-request-id", "a b\tfake=1")
        .body(Body::empty())
        .expect("request");
    let (_, headers, _) = get_with(server::http::router(state), forged).await;
    let replaced = headers
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    assert_eq!(replaced.len(), 36, "an unsafe id is replaced: {replaced:?}");
}
