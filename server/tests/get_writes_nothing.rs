//! GET never writes, as the finding reproduced it: a link on another site
//! opened `/memoire?q=…` (the memory search ran, called the embedder and
//! wrote a `memory_searches` row) and `/demandes/:id/catalogue` (a draft
//! catalogue was created, a training one with `?atelier=1`) in a signed-in
//! member's browser. Now the memory page holds a search opened from
//! elsewhere until the member runs it, a page rendered for a GET never
//! records one, and a draft is created only by the builder's posted button.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use axum::routing::post;
use axum::{Json, Router};
use sqlx::PgPool;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use support::app::{seed_demo, Reply, TestApp, PASSWORD, TEAM};

/// The embedding server's wire (constant 384-d vectors), counting its calls.
async fn counting_embedder() -> (String, Arc<AtomicUsize>) {
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    let embed = move |Json(body): Json<serde_json::Value>| {
        let counter = counter.clone();
        async move {
            counter.fetch_add(1, Ordering::SeqCst);
            let n = body["input"].as_array().map_or(1, Vec::len);
            let data: Vec<_> = (0..n)
                .map(|i| serde_json::json!({"object": "embedding", "index": i, "embedding": vec![0.05_f32; 384]}))
                .collect();
            Json(serde_json::json!({"object": "list", "data": data, "model": body["model"]}))
        }
    };
    let addr =
        support::serve_in_background(Router::new().route("/v1/embeddings", post(embed))).await;
    (format!("http://{addr}/v1"), calls)
}

fn has(page: &Reply, testid: &str) -> bool {
    page.body.contains(&format!(r#"data-testid="{testid}""#))
}

#[sqlx::test(migrations = "../migrations")]
async fn a_memory_search_opened_from_another_site_runs_nothing_and_writes_nothing(db: PgPool) {
    seed_demo(&db).await;
    let (embedder, calls) = counting_embedder().await;
    let app = TestApp::start_with(db, &[("MAXY_EMBEDDING_URL", embedder.as_str())]).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let path = "/memoire?q=m%C3%A9dicaments";
    let searches = "SELECT count(*) FROM memory_searches";

    // The reproduction: a link on another site.
    let before = calls.load(Ordering::SeqCst);
    let page = app
        .get_with(path, Some(&team), &[("sec-fetch-site", "cross-site")])
        .await;
    assert_eq!(page.status.as_u16(), 200);
    assert!(has(&page, "memory-search-held"), "{}", page.body);
    assert!(has(&page, "memory-run-search"));
    // Its button posts the search (recorded, like any search run from the page).
    let held = &page.body[page.body.find("memory-search-held").unwrap()..];
    assert!(held.contains(r#"action="/api/memory/search""#), "{held}");
    assert!(!has(&page, "memory-results"));
    // The query is shown, to be checked before it runs.
    assert!(page.body.contains(r#"value="médicaments""#));
    assert_eq!(calls.load(Ordering::SeqCst), before, "no embedding");
    assert_eq!(app.count(searches).await, 0, "no search recorded");

    // From our own page (a reload, or the results page a posted search
    // lands on): it runs, still writing nothing.
    let page = app
        .get_with(path, Some(&team), &[("sec-fetch-site", "same-origin")])
        .await;
    assert_eq!(page.status.as_u16(), 200);
    assert!(has(&page, "memory-results"), "{}", page.body);
    assert!(!has(&page, "memory-search-held"));
    assert!(calls.load(Ordering::SeqCst) > before, "the search ran");
    assert_eq!(app.count(searches).await, 0, "a GET records nothing");

    // The page's search posted: recorded.
    let posted = app
        .post_form(
            "/api/memory/search",
            &[("query", "médicaments")],
            Some(&team),
        )
        .await;
    assert_eq!(posted.status.as_u16(), 200, "{}", posted.body);
    assert_eq!(posted.json()["held"], false);
    assert_eq!(app.count(searches).await, 1);
}

/// A fresh request without any catalogue.
async fn request(db: &PgPool) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO requests (reference, pool_id, description, event_type, participants, configurations)
         SELECT 'T-' || gen_random_uuid(), id, 'Cocktail festif avec terrasse', 'cocktail', 20, '{cocktail}'
           FROM pools ORDER BY id LIMIT 1
         RETURNING id",
    )
    .fetch_one(db)
    .await
    .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn opening_the_builder_creates_no_draft_the_posted_button_does(db: PgPool) {
    seed_demo(&db).await;
    let id = request(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let drafts = format!("SELECT count(*) FROM catalogues WHERE request_id = {id}");
    let builder = format!("/demandes/{id}/catalogue");
    let training = format!("{builder}?atelier=1");

    // The reproduction: both pages opened from another site, then from ours.
    for site in ["cross-site", "same-origin"] {
        for path in [&builder, &training] {
            let page = app
                .get_with(path, Some(&team), &[("sec-fetch-site", site)])
                .await;
            assert_eq!(page.status.as_u16(), 200, "{site} {path}");
            assert!(has(&page, "request-summary"), "{site} {path}");
            assert!(has(&page, "prepare-catalogue"), "{site} {path}");
            assert!(!has(&page, "fill-from-search"), "{site} {path}");
        }
    }
    assert_eq!(app.count(&drafts).await, 0, "no draft on GET");
    let page = app.get(&builder, Some(&team)).await;
    assert!(page.body.contains("Préparer le catalogue"));
    let page = app.get(&training, Some(&team)).await;
    assert!(page.body.contains("Commencer l"), "{}", page.body);

    // « Préparer le catalogue » without JavaScript: the browser posts the
    // form and follows the redirect back to the builder, now on its draft.
    let cookie = app.cookie(&team);
    let origin = app.url("");
    let referer = app.url(&builder);
    let posted = app
        .post_raw(
            "/api/catalogues/open",
            &[
                ("request_id", id.to_string().as_str()),
                ("training", "false"),
            ],
            &[
                ("cookie", cookie.as_str()),
                ("origin", origin.as_str()),
                ("referer", referer.as_str()),
                ("accept", "text/html"),
            ],
        )
        .await;
    assert!(
        posted.status.is_redirection(),
        "{}: {}",
        posted.status,
        posted.body
    );
    // Back to the page that posted (a trailing `?` is the same URL).
    assert_eq!(posted.location().trim_end_matches('?'), referer);
    let drafts_of = |kind: &str| {
        format!("SELECT count(*) FROM catalogues WHERE request_id = {id} AND kind = '{kind}'")
    };
    assert_eq!(app.count(&drafts_of("standard")).await, 1);
    let page = app.get(&builder, Some(&team)).await;
    assert!(has(&page, "fill-from-search"), "the builder on its draft");
    assert!(!has(&page, "prepare-catalogue"));

    // « Commencer l'entraînement » with JavaScript: the server function's
    // answer is the training draft.
    let posted = app
        .post_form(
            "/api/catalogues/open",
            &[
                ("request_id", id.to_string().as_str()),
                ("training", "true"),
            ],
            Some(&team),
        )
        .await;
    assert_eq!(posted.status.as_u16(), 200, "{}", posted.body);
    assert_eq!(posted.json()["kind"], "training");
    assert_eq!(app.count(&drafts_of("training")).await, 1);
    // Posting again opens the same draft.
    let again = app
        .post_form(
            "/api/catalogues/open",
            &[
                ("request_id", id.to_string().as_str()),
                ("training", "true"),
            ],
            Some(&team),
        )
        .await;
    assert_eq!(again.json()["catalogue_id"], posted.json()["catalogue_id"]);
    assert_eq!(app.count(&drafts).await, 2);
    let page = app.get(&training, Some(&team)).await;
    assert!(has(&page, "fill-from-search"));

    // From another site, the post is refused before anything is read.
    let other = request(&app.db).await;
    let refused = app
        .post_raw(
            "/api/catalogues/open",
            &[
                ("request_id", other.to_string().as_str()),
                ("training", "false"),
            ],
            &[
                ("cookie", cookie.as_str()),
                ("origin", "https://evil.example"),
            ],
        )
        .await;
    assert_eq!(refused.status.as_u16(), 403, "{}", refused.body);
    let theirs = format!("SELECT count(*) FROM catalogues WHERE request_id = {other}");
    assert_eq!(app.count(&theirs).await, 0);
}
