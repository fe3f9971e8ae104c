//! Building a router while another one renders pages: listing the Leptos
//! routes suppresses resource loading process-wide, and a resource first
//! polled meanwhile used to wait forever (a page that never answered, seen
//! in CI as a rare hang of one test among the others of its binary). The
//! list is now made once per process (`http::route_list`).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

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
