//! A NUL character (`%00`) in a text field, as the second security review
//! reproduced it on each: the anonymous sign-in e-mail (a 500, neither
//! throttled nor audited), the link holder's comment, a memory, a training
//! guideline and a search (500s), and the chat (a misleading 503). Each is
//! now a 400 with a French message, nothing is written, and a refused
//! sign-in counts as a failed one.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use reqwest::StatusCode;
use sqlx::PgPool;
use support::app::{catalogue_link, seed_demo, Reply, TestApp, PASSWORD, TEAM};

const BEHIND_PROXY: &[(&str, &str)] = &[("MAXY_TRUSTED_PROXIES", "127.0.0.1")];
const FAILED: &str = "SELECT count(*) FROM audit_log WHERE action = 'auth.sign_in_failed'";

fn assert_refused(reply: &Reply, what: &str) {
    assert_eq!(
        reply.status,
        StatusCode::BAD_REQUEST,
        "{what}: {}",
        reply.body
    );
    assert!(
        reply.body.contains("caractère nul"),
        "{what}: {}",
        reply.body
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_nul_in_the_sign_in_form_is_a_counted_failure(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start_with(db, BEHIND_PROXY).await;
    let origin = app.url("");
    let attempt = |email: String, accept: &'static str| {
        let origin = origin.clone();
        let app = &app;
        async move {
            app.post_raw(
                "/connexion",
                &[("email", email.as_str()), ("password", PASSWORD)],
                &[
                    ("accept", accept),
                    ("origin", origin.as_str()),
                    ("x-forwarded-for", "203.0.113.9"),
                ],
            )
            .await
        }
    };
    let json = attempt(format!("{TEAM}\0"), "application/json").await;
    assert_refused(&json, "sign-in (JSON)");
    let page = attempt(format!("\0{TEAM}"), "text/html").await;
    assert_eq!(page.status, StatusCode::SEE_OTHER);
    assert_eq!(page.location(), "/connexion?erreur=caractere");
    assert!(page.session_cookie().is_none());
    assert_eq!(app.count(FAILED).await, 2, "both attempts are audited");
    let reason: String = sqlx::query_scalar(
        "SELECT details->>'reason' FROM audit_log WHERE action = 'auth.sign_in_failed' LIMIT 1",
    )
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert_eq!(reason, "nul_character");
    // Counted against the address like any failure: the limit still bites,
    // however the NULs are placed.
    let mut throttled = false;
    for n in 0..12 {
        let email = format!("{}\0{}", &TEAM[..n % 5], &TEAM[n % 5..]);
        if attempt(email, "application/json").await.status == StatusCode::TOO_MANY_REQUESTS {
            throttled = true;
            break;
        }
    }
    assert!(throttled, "NUL attempts are counted by the rate limit");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_nul_in_any_text_field_is_refused_before_it_is_stored(db: PgPool) {
    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    let app = TestApp::start(db).await;
    let session = app.sign_in(TEAM, PASSWORD).await;
    let comment = app
        .post_form(
            "/api/links/catalogue/comment",
            &[("token", &link.token), ("comment", "Merci\0")],
            None,
        )
        .await;
    assert_refused(&comment, "link comment");
    let memories = app.count("SELECT count(*) FROM ai_memories").await;
    let memory = app
        .post_form(
            "/api/memory/save",
            &[("title", "Note"), ("content", "Pavillon\0")],
            Some(&session),
        )
        .await;
    assert_refused(&memory, "memory");
    assert_eq!(
        app.count("SELECT count(*) FROM ai_memories").await,
        memories
    );
    let guideline = app
        .post_form(
            "/api/training/guideline",
            &[
                ("reason", "x\0"),
                ("category", "ambiance"),
                ("event_type", ""),
                ("trigger", "rooftop"),
                ("prefer", "terrasse"),
                ("avoid", ""),
            ],
            Some(&session),
        )
        .await;
    assert_refused(&guideline, "training guideline");
    let search = app
        .post_form(
            "/api/venues/search",
            &[("form[pool]", "hotels"), ("form[text]", "rooftop\0")],
            Some(&session),
        )
        .await;
    assert_refused(&search, "venue search");
    let messages = app.count("SELECT count(*) FROM ai_messages").await;
    let chat = app
        .post_form("/api/chat/send", &[("text", "Bonjour\0")], Some(&session))
        .await;
    assert_refused(&chat, "chat");
    assert_eq!(
        app.count("SELECT count(*) FROM ai_messages").await,
        messages
    );
    // The venue search page reads its text from the query string.
    let page = app
        .get("/lieux?pool=hotels&q=rooftop%00", Some(&session))
        .await;
    assert_refused(&page, "search page");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_nul_in_json_or_a_plain_form_post_gets_the_answer_its_client_reads(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let session = app.sign_in(TEAM, PASSWORD).await;
    let origin = app.url("");
    let cookie = app.cookie(&session);
    let client = reqwest::Client::new();
    let json = client
        .post(app.url("/api/chat/send"))
        .header("origin", &origin)
        .header("cookie", &cookie)
        .header("content-type", "application/json")
        .body(r#"{"text":"Bonjour\u0000"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(json.status(), StatusCode::BAD_REQUEST);
    let body: serde_json::Value = json.json().await.unwrap();
    assert_eq!(body["error"], "bad_request");
    // A form posted without JavaScript gets a page a person can read.
    let plain = app
        .post_raw(
            "/api/memory/save",
            &[("title", "Note"), ("content", "x\0")],
            &[
                ("origin", origin.as_str()),
                ("cookie", cookie.as_str()),
                ("accept", "text/html,application/xhtml+xml"),
            ],
        )
        .await;
    assert_refused(&plain, "plain form post");
    assert!(plain.header("content-type").starts_with("text/html"));
}
