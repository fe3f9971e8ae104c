//! `MAXY_DATABASE_READ_URL` (issue #30): the venue search and the requests
//! list read from the replica; the search's log, the caller's preferences, a
//! request's own page and every write stay on the primary. The « replica »
//! here is a second database holding the same demo with every venue and
//! organizer renamed, so a page shows where it read from. Streaming
//! replication itself is PostgreSQL's (`scripts/replica.sh` sets one up).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use reqwest::StatusCode;
use sqlx::{Connection, PgConnection, PgPool};
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

/// A database beside the test's, migrated and seeded like it, then marked.
async fn marked_copy(name: &str) -> String {
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL");
    let server = base.rsplit_once('/').expect("a database in the URL").0;
    let mut admin = PgConnection::connect(&base).await.unwrap();
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&mut admin)
        .await
        .unwrap();
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .unwrap();
    let url = format!("{server}/{name}");
    let copy = PgPool::connect(&url).await.unwrap();
    server::db::MIGRATOR.run(&copy).await.unwrap();
    seed_demo(&copy).await;
    sqlx::query("UPDATE members SET name = name || ' (réplica)'")
        .execute(&copy)
        .await
        .unwrap();
    sqlx::query(
        "UPDATE requests SET organizer_name = 'Organisateur du réplica', organizer_company = NULL",
    )
    .execute(&copy)
    .await
    .unwrap();
    copy.close().await;
    url
}

async fn drop_copy(name: &str) {
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL");
    let mut admin = PgConnection::connect(&base).await.unwrap();
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&mut admin)
        .await
        .unwrap();
}

#[sqlx::test(migrations = "../migrations")]
async fn searches_and_the_list_read_the_replica_and_write_the_primary(db: PgPool) {
    seed_demo(&db).await;
    let name = format!("maxy_replica_{}", std::process::id());
    let replica_url = marked_copy(&name).await;
    let app = TestApp::start_with(db.clone(), &[("MAXY_DATABASE_READ_URL", &replica_url)]).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let runs = "SELECT count(*) FROM search_runs";
    let before = app.count(runs).await;

    let search = app
        .get(
            "/lieux?pool=&q=salle%20pour%2040%20personnes%20en%20r%C3%A9union",
            Some(&team),
        )
        .await;
    assert_eq!(search.status, StatusCode::OK);
    assert!(
        search.body.contains("(réplica)"),
        "venues read from the replica"
    );
    assert_eq!(
        app.count(runs).await,
        before + 1,
        "the run logged on the primary"
    );

    let list = app.get("/demandes", Some(&team)).await;
    assert!(
        list.body.contains("Organisateur du réplica"),
        "the list reads the replica"
    );
    let request = app.count("SELECT min(id) FROM requests").await;
    let page = app.get(&format!("/demandes/{request}"), Some(&team)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        !page.body.contains("Organisateur du réplica"),
        "a request's own page reads the primary (its edits show at once)"
    );

    // The replica's pool refuses writes: a mistake fails, it does not diverge.
    let settings = server::config::DatabaseSettings {
        url: std::env::var("DATABASE_URL").unwrap(),
        read_url: Some(replica_url.clone()),
        direct_url: None,
        max_connections: 2,
        connect_timeout: std::time::Duration::from_secs(5),
    };
    let read = server::db::read_pool(&settings, &db);
    let refused = sqlx::query("DELETE FROM search_runs").execute(&read).await;
    let message = refused.unwrap_err().to_string();
    assert!(message.contains("read-only"), "{message}");
    read.close().await;
    drop_copy(&name).await;
}
