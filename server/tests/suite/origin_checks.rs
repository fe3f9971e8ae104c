//! The second security review's informational findings on the same-origin
//! check, through the real router: without `MAXY_PUBLIC_URL` an `Origin`
//! with another scheme, a foreign `Origin` beside `Sec-Fetch-Site:
//! same-origin`, a repeated `Origin` and an `Origin` with a path were all
//! accepted; a form posted without JavaScript was redirected to whatever its
//! `Referer` named.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use sqlx::PgPool;
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

const MEMORIES: &str = "SELECT count(*) FROM ai_memories";

/// A memory posted with exactly these headers (and the member's cookie).
async fn save_memory(
    app: &TestApp,
    session: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, String) {
    let cookie = app.cookie(session);
    let mut request = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .post(app.url("/api/memory/save"))
        .header("cookie", cookie)
        .form(&[("title", "Note"), ("content", "Le Pavillon ferme en août")]);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let reply = request.send().await.unwrap();
    let location = reply
        .headers()
        .get("location")
        .and_then(|l| l.to_str().ok())
        .unwrap_or_default()
        .to_string();
    (reply.status(), location)
}

#[sqlx::test(migrations = "../migrations")]
async fn origins_no_browser_sends_are_refused(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let session = app.sign_in(TEAM, PASSWORD).await;
    let ours = app.url("");
    let https = ours.replace("http://", "https://");
    let with_path = format!("{ours}/memoire");
    for headers in [
        vec![("origin", https.as_str())],
        vec![
            ("sec-fetch-site", "same-origin"),
            ("origin", "https://evil.example"),
        ],
        vec![
            ("origin", ours.as_str()),
            ("origin", "https://evil.example"),
        ],
        vec![
            ("origin", "https://evil.example"),
            ("origin", ours.as_str()),
        ],
        vec![("origin", with_path.as_str())],
    ] {
        let before = app.count(MEMORIES).await;
        let (status, _) = save_memory(&app, &session, &headers).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{headers:?}");
        assert_eq!(app.count(MEMORIES).await, before, "{headers:?} wrote");
    }
    let (status, _) = save_memory(&app, &session, &[("origin", ours.as_str())]).await;
    assert_eq!(status, StatusCode::OK, "our own origin still may");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_plain_form_post_is_redirected_only_within_this_site(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let session = app.sign_in(TEAM, PASSWORD).await;
    let ours = app.url("");
    let html = ("accept", "text/html,application/xhtml+xml");
    let own_page = format!("{ours}/memoire");
    let (status, location) = save_memory(
        &app,
        &session,
        &[
            ("origin", ours.as_str()),
            html,
            ("referer", own_page.as_str()),
        ],
    )
    .await;
    assert!(status.is_redirection(), "{status}");
    // (Leptos leaves an empty query behind: `/memoire?`.)
    assert_eq!(
        location.trim_end_matches('?'),
        own_page,
        "back to the page that posted"
    );
    for foreign in [
        "https://evil.example/phishing",
        "//evil.example/x",
        "http://evil.example@127.0.0.1/",
    ] {
        let (status, location) = save_memory(
            &app,
            &session,
            &[("origin", ours.as_str()), html, ("referer", foreign)],
        )
        .await;
        assert!(
            location.is_empty() || location.starts_with(&format!("{ours}/")) || location == "/",
            "{foreign}: {status} → {location}"
        );
        assert!(!location.contains("evil.example"), "{foreign} → {location}");
    }
}
