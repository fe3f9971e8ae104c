//! The organizer's page sent again without reading the database (issue #30,
//! ADR 0043): while the server listens for changes (migration 0032), an
//! opened page is sent from memory, its use still counted; any write to what
//! the page shows, a revocation, the link's expiry or the loss of the
//! listening connection makes the next opening read again.
//!
//! A write « without notifying » is made with the triggers off
//! (`session_replication_role = replica`): what the server then sends shows
//! whether it read the database.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use reqwest::StatusCode;
use sqlx::PgPool;
use std::time::{Duration, Instant};
use support::app::{catalogue_link, seed_demo, TestApp};

/// Runs `sql` with the triggers off: no server hears of it.
async fn write_unannounced(db: &PgPool, sql: &str) {
    let mut tx = db.begin().await.unwrap();
    sqlx::query("SET LOCAL session_replication_role = replica")
        .execute(&mut *tx)
        .await
        .unwrap();
    sqlx::query(sql).execute(&mut *tx).await.unwrap();
    tx.commit().await.unwrap();
}

/// The venue of the link's catalogue's first pick.
async fn first_venue(db: &PgPool, link_id: i64) -> (i64, String) {
    sqlx::query_as(
        "SELECT m.id, m.name FROM magic_links l
           JOIN catalogue_picks p ON p.catalogue_id = l.subject_id
           JOIN members m ON m.id = p.member_id
          WHERE l.id = $1 ORDER BY p.id LIMIT 1",
    )
    .bind(link_id)
    .fetch_one(db)
    .await
    .unwrap()
}

/// Opens `path` until `done` says yes about the page, for at most `within`.
async fn opens_until(
    app: &TestApp,
    path: &str,
    within: Duration,
    done: impl Fn(StatusCode, &str) -> bool,
) -> bool {
    let deadline = Instant::now() + within;
    loop {
        let page = app.get(path, None).await;
        if done(page.status, &page.body) {
            return true;
        }
        if Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn an_opened_page_is_sent_from_memory_until_a_change_is_heard(db: PgPool) {
    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    let (venue, name) = first_venue(&db, link.id).await;
    let app = TestApp::start_following_pages(db.clone()).await;

    let first = app.get(&link.path, None).await;
    assert_eq!(first.status, StatusCode::OK);
    assert!(first.body.contains(&name), "the venue is on the page");

    // Renamed without a notification: the server does not read again.
    write_unannounced(
        &db,
        &format!("UPDATE members SET name = 'Salle renommée en silence' WHERE id = {venue}"),
    )
    .await;
    for _ in 0..3 {
        let again = app.get(&link.path, None).await;
        assert_eq!(again.status, StatusCode::OK);
        assert!(again.body.contains(&name), "sent from memory");
        assert!(!again.body.contains("Salle renommée en silence"));
    }
    // Each opening sent from memory is still counted (written once a second).
    let counted = async {
        loop {
            let uses: i32 = sqlx::query_scalar("SELECT use_count FROM magic_links WHERE id = $1")
                .bind(link.id)
                .fetch_one(&db)
                .await
                .unwrap();
            if uses >= 4 {
                return uses;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    let uses = tokio::time::timeout(Duration::from_secs(5), counted)
        .await
        .expect("every opening counted");
    assert_eq!(uses, 4);

    // A write the server hears of: the next openings read again.
    sqlx::query("UPDATE members SET name = 'Salle renommée' WHERE id = $1")
        .bind(venue)
        .execute(&db)
        .await
        .unwrap();
    assert!(
        opens_until(&app, &link.path, Duration::from_secs(3), |status, body| {
            status == StatusCode::OK && body.contains("Salle renommée")
        })
        .await,
        "the change shows within moments (not after the 10 s bound)"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_revoked_link_is_refused_as_soon_as_the_revocation_is_heard(db: PgPool) {
    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    let app = TestApp::start_following_pages(db.clone()).await;
    assert_eq!(app.get(&link.path, None).await.status, StatusCode::OK);
    assert_eq!(app.get(&link.path, None).await.status, StatusCode::OK);

    let revoked = Instant::now();
    sqlx::query("UPDATE magic_links SET revoked_at = now() WHERE id = $1")
        .bind(link.id)
        .execute(&db)
        .await
        .unwrap();
    assert!(
        opens_until(&app, &link.path, Duration::from_secs(3), |status, _| {
            status == StatusCode::NOT_FOUND
        })
        .await,
        "refused within moments of the revocation"
    );
    assert!(revoked.elapsed() < Duration::from_secs(3));
    // And for good.
    assert_eq!(
        app.get(&link.path, None).await.status,
        StatusCode::NOT_FOUND
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_link_past_its_expiry_is_refused_without_any_write(db: PgPool) {
    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    write_unannounced(
        &db,
        &format!(
            "UPDATE magic_links SET expires_at = now() + interval '2 seconds' WHERE id = {}",
            link.id
        ),
    )
    .await;
    let app = TestApp::start_following_pages(db.clone()).await;
    assert_eq!(app.get(&link.path, None).await.status, StatusCode::OK);
    assert_eq!(app.get(&link.path, None).await.status, StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(2_200)).await;
    assert_eq!(
        app.get(&link.path, None).await.status,
        StatusCode::NOT_FOUND,
        "an expired link is not sent from memory"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_lost_listening_connection_makes_every_page_read_again(db: PgPool) {
    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    let (venue, name) = first_venue(&db, link.id).await;
    let app = TestApp::start_following_pages(db.clone()).await;
    assert!(app.get(&link.path, None).await.body.contains(&name));
    write_unannounced(
        &db,
        &format!("UPDATE members SET name = 'Salle changée pendant la coupure' WHERE id = {venue}"),
    )
    .await;
    assert!(
        app.get(&link.path, None).await.body.contains(&name),
        "sent from memory"
    );

    // The listening connection dies: what it would have heard is lost, so
    // nothing read before counts any more.
    let ended: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND query ILIKE 'LISTEN%organizer_pages%') t",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(ended, 1, "one connection listens");
    assert!(
        opens_until(&app, &link.path, Duration::from_secs(3), |status, body| {
            status == StatusCode::OK && body.contains("Salle changée pendant la coupure")
        })
        .await,
        "read again once the connection is lost"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn the_listening_connections_are_not_taken_from_the_requests_pool(db: PgPool) {
    // The requests' pool at one connection: were a LISTEN to hold it, no
    // request would get one.
    let url = std::env::var("DATABASE_URL").unwrap();
    let test_database = db.connect_options().get_database().unwrap().to_string();
    let test_url = format!("{}/{test_database}", url.rsplit_once('/').unwrap().0);
    let config = server::config::Config::from_source(&server::config::Env::from_pairs([
        ("DATABASE_URL", test_url.as_str()),
        ("MAXY_DB_MAX_CONNECTIONS", "1"),
        ("MAXY_DB_CONNECT_TIMEOUT_SECS", "1"),
    ]))
    .unwrap();
    let requests = server::db::connect(&config.database).await.unwrap();
    let direct = server::db::direct_pool(&config.database).unwrap();
    let changes = std::sync::Arc::new(server::link_views::page_changes::PageChanges::default());
    let (_stop, shutdown) = tokio::sync::watch::channel(false);
    tokio::spawn(server::link_views::page_changes::follow(
        changes.clone(),
        direct,
        shutdown,
    ));
    let deadline = Instant::now() + Duration::from_secs(10);
    while changes.current().is_none() {
        assert!(Instant::now() < deadline, "LISTEN never started");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let answered: i32 = sqlx::query_scalar("SELECT 1")
        .fetch_one(&requests)
        .await
        .expect("the requests' one connection is free");
    assert_eq!(answered, 1);
}
