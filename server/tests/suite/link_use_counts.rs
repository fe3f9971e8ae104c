//! Magic-link uses are counted in memory and written once a second (a view
//! only reads its link, so views of one link never queue on its row): the
//! counts reach the table, a failed write keeps them for the next one, and a
//! revoked or expired link is refused on the very next view whatever is
//! still unflushed.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use server::auth::magic_links::uses::LinkUses;
use sqlx::PgPool;
use std::time::Duration;
use support::app::{catalogue_link, seed_demo};

async fn use_count(db: &PgPool, link_id: i64) -> i32 {
    sqlx::query_scalar("SELECT use_count FROM magic_links WHERE id = $1")
        .bind(link_id)
        .fetch_one(db)
        .await
        .unwrap()
}

async fn view(app: &axum::Router, path: &str) -> StatusCode {
    let request = Request::get(path).body(Body::empty()).unwrap();
    support::send(app, request).await.0
}

#[sqlx::test(migrations = "../migrations")]
async fn counted_uses_are_written_in_one_flush(db: PgPool) {
    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    let other = catalogue_link(&db).await;
    // A loop that never ticks in this test: only the explicit flushes write.
    let uses = LinkUses::started(db.clone(), Duration::from_secs(3600));
    for _ in 0..5 {
        uses.record(link.id);
    }
    uses.record(other.id);
    assert_eq!(uses.unflushed(), 6);
    assert_eq!(use_count(&db, link.id).await, 0, "nothing written yet");

    assert_eq!(uses.flush().await.unwrap(), 2, "one row per link");
    assert_eq!(uses.unflushed(), 0);
    assert_eq!(use_count(&db, link.id).await, 5);
    assert_eq!(use_count(&db, other.id).await, 1);
    let last_used: bool = sqlx::query_scalar(
        "SELECT last_used_at > now() - interval '1 minute' FROM magic_links WHERE id = $1",
    )
    .bind(link.id)
    .fetch_one(&db)
    .await
    .unwrap();
    assert!(last_used, "the last use is dated");

    // Nothing new: a flush writes nothing and changes nothing.
    assert_eq!(uses.flush().await.unwrap(), 0);
    uses.record(link.id);
    uses.flush().await.unwrap();
    assert_eq!(
        use_count(&db, link.id).await,
        6,
        "counts add up across flushes"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_failed_flush_keeps_the_counts_for_the_next_one(db: PgPool) {
    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    let closed = PgPool::connect_with((*db.connect_options()).clone())
        .await
        .unwrap();
    closed.close().await;
    let uses = LinkUses::started(closed, Duration::from_secs(3600));
    uses.record(link.id);
    uses.record(link.id);
    assert!(uses.flush().await.is_err(), "the pool is closed");
    uses.record(link.id);
    assert_eq!(uses.unflushed(), 3, "kept and merged with the new use");
    assert_eq!(use_count(&db, link.id).await, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_server_writes_the_counts_within_a_second_or_two(db: PgPool) {
    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    let state = support::app_state(db.clone(), support::fake_embedding_server().await);
    let app = server::http::router(state);
    for _ in 0..4 {
        assert_eq!(view(&app, &link.path).await, StatusCode::OK);
    }
    let mut counted = 0;
    for _ in 0..40 {
        counted = use_count(&db, link.id).await;
        if counted == 4 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(counted, 4, "the flush loop wrote every view");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_revoked_or_expired_link_is_refused_at_once_with_unflushed_uses(db: PgPool) {
    seed_demo(&db).await;
    let revoked = catalogue_link(&db).await;
    let expired = catalogue_link(&db).await;
    let state = support::app_state(db.clone(), support::fake_embedding_server().await);
    let uses = state.link_uses.clone();
    let app = server::http::router(state);

    assert_eq!(view(&app, &revoked.path).await, StatusCode::OK);
    assert_eq!(view(&app, &expired.path).await, StatusCode::OK);
    assert!(server::db::magic_links::revoke(&db, revoked.id, None)
        .await
        .unwrap());
    sqlx::query(
        "UPDATE magic_links SET created_at = now() - interval '2 days',
                expires_at = now() - interval '1 second' WHERE id = $1",
    )
    .bind(expired.id)
    .execute(&db)
    .await
    .unwrap();
    assert_eq!(
        view(&app, &revoked.path).await,
        StatusCode::NOT_FOUND,
        "revoked: refused on the very next view"
    );
    assert_eq!(view(&app, &expired.path).await, StatusCode::NOT_FOUND);
    // The data call through the same links is refused too.
    let data = Request::post("/api/links/catalogue")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "same-origin")
        .body(Body::from(format!("token={}", revoked.token)))
        .unwrap();
    assert_eq!(support::send(&app, data).await.0, StatusCode::NOT_FOUND);

    // The views made before still count; the refused ones do not.
    uses.flush().await.unwrap();
    assert_eq!(use_count(&db, revoked.id).await, 1);
    assert_eq!(use_count(&db, expired.id).await, 1);
}
