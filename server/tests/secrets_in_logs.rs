//! Passwords, session tokens and magic-link tokens never reach the logs, even
//! at the most verbose level.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use sqlx::PgPool;
use support::app::{catalogue_link, seed_demo, TestApp, ADMIN, PASSWORD};
use support::logs::Captured;

#[sqlx::test(migrations = "../migrations")]
async fn no_secret_is_ever_logged(db: PgPool) {
    let captured = Captured::default();
    captured.start_globally(tracing::Level::TRACE);

    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    let app = TestApp::start(db).await;

    let wrong_password = "a-wrong-password-9f3k";
    app.post_form(
        "/connexion",
        &[("email", ADMIN), ("password", wrong_password)],
        None,
    )
    .await;
    let session = app.sign_in(ADMIN, PASSWORD).await;
    app.get("/chat", Some(&session)).await;
    app.get(&link.path, None).await;
    app.post_form("/api/links/catalogue", &[("token", &link.token)], None)
        .await;
    app.post_form("/deconnexion", &[], Some(&session)).await;

    let logs = captured.text();
    assert!(logs.contains("request"), "the capture works: {logs}");
    assert!(logs.contains("/c/…"), "link paths are logged, redacted");
    for secret in [
        PASSWORD,
        wrong_password,
        session.as_str(),
        link.token.as_str(),
        support::SECRET_KEY,
    ] {
        assert!(
            !logs.contains(secret),
            "a secret leaked into the logs: {secret}"
        );
    }
    let secret_part = link.token.split('.').next().unwrap();
    assert!(!logs.contains(secret_part));
}
