//! GET never writes, as the finding reproduced it: a link on another site
//! opened `/memoire?q=…` (the memory search ran, called the embedder and
//! wrote a `memory_searches` row) in a signed-in member's browser. Now the
//! memory page holds a search opened from elsewhere until the member runs
//! it, and a page rendered for a GET never records one.
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
    assert!(!has(&page, "memory-results"));
    // The query is shown, to be checked before it runs.
    assert!(page.body.contains(r#"value="médicaments""#));
    assert_eq!(calls.load(Ordering::SeqCst), before, "no embedding");
    assert_eq!(app.count(searches).await, 0, "no search recorded");

    // From our own page (the held search's link without JavaScript, a
    // reload, the form without JavaScript): it runs, still writing nothing.
    let page = app
        .get_with(path, Some(&team), &[("sec-fetch-site", "same-origin")])
        .await;
    assert_eq!(page.status.as_u16(), 200);
    assert!(has(&page, "memory-results"), "{}", page.body);
    assert!(!has(&page, "memory-search-held"));
    assert!(calls.load(Ordering::SeqCst) > before, "the search ran");
    assert_eq!(app.count(searches).await, 0, "a GET records nothing");

    // The page's search posted (with JavaScript): recorded.
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
