//! Magic-link uses: every view is counted and audited (one row per link,
//! address and window, however often the page is reloaded), and only refused
//! links count towards the per-address limit, so organizers and venues behind
//! one proxy are never held back by each other.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use sqlx::PgPool;
use support::app::{catalogue_link, seed_demo, TestApp};

const USED: &str = "SELECT count(*) FROM audit_log WHERE action = 'magic_link.used'";

#[sqlx::test(migrations = "../migrations")]
async fn opening_a_link_is_audited_once_per_address_and_window(db: PgPool) {
    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    let app = TestApp::start_with(db, &[("MAXY_TRUSTED_PROXIES", "127.0.0.1")]).await;
    let from = |ip: &'static str| [("x-forwarded-for", ip)];

    let page = app.get_with(&link.path, None, &from("198.51.100.7")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(app.count(USED).await, 1, "a view is a use");
    let (object, ip, actor): (i64, String, String) = sqlx::query_as(
        "SELECT object_id, host(ip), actor_kind FROM audit_log WHERE action = 'magic_link.used'",
    )
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert_eq!(
        (object, ip.as_str(), actor.as_str()),
        (link.id, "198.51.100.7", "magic_link")
    );

    for _ in 0..30 {
        let again = app.get_with(&link.path, None, &from("198.51.100.7")).await;
        assert_eq!(again.status, StatusCode::OK);
    }
    assert_eq!(app.count(USED).await, 1, "reloads do not flood the log");
    // Uses are counted in memory and written once a second.
    let mut counted: i32 = 0;
    for _ in 0..40 {
        counted = sqlx::query_scalar("SELECT use_count FROM magic_links WHERE id = $1")
            .bind(link.id)
            .fetch_one(&app.db)
            .await
            .unwrap();
        if counted == 31 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(counted, 31, "but every use is counted");

    app.get_with(&link.path, None, &from("203.0.113.50")).await;
    assert_eq!(app.count(USED).await, 2, "another address is another row");

    // A refused link is no use of anything.
    app.get_with("/c/not.a-token", None, &from("198.51.100.8"))
        .await;
    assert_eq!(app.count(USED).await, 2);
}

#[sqlx::test(migrations = "../migrations")]
async fn only_refused_links_count_towards_the_limit(db: PgPool) {
    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    let app = TestApp::start_with(db, &[("MAXY_TRUSTED_PROXIES", "127.0.0.1")]).await;
    let office = [("x-forwarded-for", "198.51.100.7")];
    for _ in 0..80 {
        let page = app.get_with(&link.path, None, &office).await;
        assert_eq!(
            page.status,
            StatusCode::OK,
            "valid links are never held back"
        );
    }

    let guesser = [("x-forwarded-for", "203.0.113.66")];
    for n in 0..20 {
        let reply = app
            .get_with(&format!("/c/guess{n}.x"), None, &guesser)
            .await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND);
    }
    // The office's 80 views are written first (once a second), so the
    // count cannot move under the check below for another reason.
    let mut before: i32 = 0;
    for _ in 0..40 {
        before = sqlx::query_scalar("SELECT use_count FROM magic_links WHERE id = $1")
            .bind(link.id)
            .fetch_one(&app.db)
            .await
            .unwrap();
        if before == 80 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(before, 80);
    let held = app.get_with(&link.path, None, &guesser).await;
    assert_eq!(held.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(held.header("retry-after"), "60");
    // Past the next flush: a refused view was not counted in memory either.
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    let after: i32 = sqlx::query_scalar("SELECT use_count FROM magic_links WHERE id = $1")
        .bind(link.id)
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(before, after, "a refused request touches nothing");
    assert_eq!(
        app.get_with(&link.path, None, &office).await.status,
        StatusCode::OK,
        "the guesser's neighbours behind the proxy are not affected"
    );
}
