//! Stored text shown in a `<textarea>` cannot close it (security review,
//! second pass): as reproduced, an organizer's comment holding
//! `</textarea><h1 id="injected">…<meta http-equiv="refresh" …>` became live
//! markup on the `/c/` page that team members open too; so did a request's
//! memo and search hints on `/demandes/:id` and a memory on `/memoire`. Each
//! payload is posted through the same server function the page's form uses,
//! then the page is read as served (no JavaScript runs here: what a browser
//! without it, and a hydrating one before it starts, parses).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use sqlx::PgPool;
use support::app::{catalogue_link, seed_demo, TestApp, PASSWORD, TEAM};

/// Each payload tries to leave the textarea and plant an element with an id
/// of its own; `<!--` and `</script>` try to swallow or end what follows.
const PAYLOADS: &[(&str, &str)] = &[
    (
        "injected",
        "Merci</textarea><h1 id=\"injected\">Lien expiré</h1>\
         <meta http-equiv=\"refresh\" content=\"5;url=https://evil.example/\"><textarea>",
    ),
    ("comment", "Avant <!-- </textarea><h1 id=\"comment\">x</h1>"),
    (
        "script",
        "</script></textarea><h1 id=\"script\">x</h1><script>",
    ),
    ("upper", "</TEXTAREA ><h1 id=\"upper\">x</h1>"),
];

/// No element the payload planted, and the text itself still there, escaped.
fn assert_inert(page: &str, id: &str, field: &str) {
    assert!(
        !page.contains(&format!("<h1 id=\"{id}\"")),
        "{field}: the payload `{id}` became markup"
    );
    assert!(
        !page.contains("<meta http-equiv=\"refresh\""),
        "{field}: a refresh tag became markup"
    );
    assert!(
        page.contains(&format!("&lt;h1 id=\"{id}\"&gt;")),
        "{field}: the text `{id}` is not shown as text"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn an_organizer_comment_stays_text_on_the_catalogue_page(db: PgPool) {
    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    let app = TestApp::start(db).await;
    for (id, payload) in PAYLOADS {
        let saved = app
            .post_form(
                "/api/links/catalogue/comment",
                &[("token", &link.token), ("comment", payload)],
                None,
            )
            .await;
        assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
        let page = app.get(&format!("/c/{}", link.token), None).await;
        assert_eq!(page.status, StatusCode::OK);
        assert_inert(&page.body, id, "organizer comment");
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_memo_and_search_hints_stay_text_on_the_request_page(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let session = app.sign_in(TEAM, PASSWORD).await;
    let request_id = app.count("SELECT min(id) FROM requests").await.to_string();
    for (id, payload) in PAYLOADS {
        for field in ["team_memo", "search_hints"] {
            let saved = app
                .post_form(
                    "/api/requests/edit",
                    &[("request_id", &request_id), (field, payload)],
                    Some(&session),
                )
                .await;
            assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
            let page = app
                .get(&format!("/demandes/{request_id}"), Some(&session))
                .await;
            assert_eq!(page.status, StatusCode::OK);
            assert_inert(&page.body, id, field);
        }
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_memory_stays_text_on_the_memory_page(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let session = app.sign_in(TEAM, PASSWORD).await;
    for (_, payload) in PAYLOADS {
        let saved = app
            .post_form(
                "/api/memory/save",
                &[("title", "Note"), ("content", payload)],
                Some(&session),
            )
            .await;
        assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    }
    let page = app.get("/memoire", Some(&session)).await;
    assert_eq!(page.status, StatusCode::OK);
    for (id, _) in PAYLOADS {
        assert_inert(&page.body, id, "memory content");
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn search_specialities_stay_text_wherever_they_are_edited(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let session = app.sign_in(TEAM, PASSWORD).await;
    let request_id = app.count("SELECT min(id) FROM requests").await.to_string();
    let (id, payload) = PAYLOADS[0];
    let mine = app
        .post_form(
            "/api/search-preferences/save-mine",
            &[("specialities", payload)],
            Some(&session),
        )
        .await;
    let theirs = app
        .post_form(
            "/api/search-preferences/save-request",
            &[("request_id", &request_id), ("specialities", payload)],
            Some(&session),
        )
        .await;
    for (reply, page) in [
        (mine, "/lieux".to_string()),
        (theirs, format!("/demandes/{request_id}")),
    ] {
        let page = app.get(&page, Some(&session)).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(!page.body.contains(&format!("<h1 id=\"{id}\"")));
        assert!(!page.body.contains("<meta http-equiv=\"refresh\""));
        // Saved, or refused with a reason (an unknown pool), never a failure.
        assert!(
            reply.status == StatusCode::OK || reply.status.is_client_error(),
            "{} {}",
            reply.status,
            reply.body
        );
    }
}
