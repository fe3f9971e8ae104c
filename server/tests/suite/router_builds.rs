//! Building a router while another one renders pages: listing the Leptos
//! routes suppresses resource loading process-wide, and a resource first
//! polled meanwhile used to wait forever (a page that never answered, seen
//! in CI as a rare hang of one test among the others of its binary, in
//! `link_uses` and `access_map`, whose own route listing raced its pages).
//! The list is now made once per process (`http::route_list`).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use sqlx::PgPool;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use support::app::TestApp;

#[sqlx::test(migrations = "../migrations")]
async fn building_routers_never_stalls_a_page_being_rendered(db: PgPool) {
    // Each refused link renders the link page (its resource reads the link
    // and answers 404); each from its own address, below the guess limit.
    let app = TestApp::start_with(db.clone(), &[("MAXY_TRUSTED_PROXIES", "127.0.0.1")]).await;
    let embeddings = support::fake_embedding_server().await;
    let state = support::app_state_with(db, embeddings, &[]);
    let building = Arc::new(AtomicBool::new(true));
    // Stops the builder when the test ends, failed or not: the runtime
    // waits for its blocking threads before the test can report.
    let _stop = StopOnDrop(building.clone());
    let builder = {
        let building = building.clone();
        tokio::task::spawn_blocking(move || {
            let mut built = 0u32;
            while building.load(Ordering::Relaxed) {
                drop(server::http::router(state.clone()));
                built += 1;
            }
            built
        })
    };
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    for n in 0..60 {
        let reply = client
            .get(app.url(&format!("/c/guess{n}.x")))
            .header("x-forwarded-for", format!("198.51.100.{n}"))
            .send()
            .await
            .unwrap_or_else(|e| panic!("page {n} never answered: {e}"));
        assert_eq!(reply.status(), StatusCode::NOT_FOUND, "page {n}");
    }
    building.store(false, Ordering::Relaxed);
    assert!(builder.await.unwrap() > 0, "routers were built meanwhile");
}

struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

/// The list is made in one place: a test (or any code) listing the routes
/// again, while other tests of its binary render pages, would bring the
/// stall back.
#[test]
fn the_routes_are_listed_in_one_place_only() {
    let needle = concat!("generate_route", "_list(");
    let root = env!("CARGO_MANIFEST_DIR");
    let mut listing = Vec::new();
    let mut dirs: Vec<std::path::PathBuf> = ["src", "tests", "../app/src"]
        .iter()
        .map(|d| std::path::Path::new(root).join(d))
        .collect();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if std::fs::read_to_string(&path)
                .unwrap_or_default()
                .contains(needle)
            {
                listing.push(path.strip_prefix(root).unwrap().display().to_string());
            }
        }
    }
    assert_eq!(listing, ["src/http.rs"]);
}
