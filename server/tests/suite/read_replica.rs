//! `MAXY_DATABASE_READ_URL` (issue #30): the venue search and the requests
//! list read from the replica, and so does the organizer's page but for a
//! visitor who has just written through their link; the search's log, the
//! caller's preferences, a request's own page and every write stay on the
//! primary. The « replica »
//! here is a second database holding the same demo with every venue and
//! organizer renamed, so a page shows where it read from. Streaming
//! replication itself is PostgreSQL's (`scripts/replica.sh` sets one up).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use sqlx::{Connection, PgConnection, PgPool};
use support::app::{catalogue_link, seed_demo, TestApp, PASSWORD, TEAM};

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

#[sqlx::test(migrations = "../migrations")]
async fn the_organizer_page_reads_the_replica_but_shows_its_visitor_their_own_writes(db: PgPool) {
    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    let name = format!("maxy_replica_organizer_{}", std::process::id());
    let replica_url = marked_copy(&name).await;
    // The link reaches the replica, as streaming replication would bring it.
    let replica = PgPool::connect(&replica_url).await.unwrap();
    let (subject, hash, expires): (i64, Vec<u8>, chrono::DateTime<chrono::Utc>) =
        sqlx::query_as("SELECT subject_id, token_hash, expires_at FROM magic_links WHERE id = $1")
            .bind(link.id)
            .fetch_one(&db)
            .await
            .unwrap();
    sqlx::query(
        "INSERT INTO magic_links (id, purpose, subject_id, token_hash, expires_at)
         VALUES ($1, 'catalogue', $2, $3, $4)",
    )
    .bind(link.id)
    .bind(subject)
    .bind(&hash)
    .bind(expires)
    .execute(&replica)
    .await
    .unwrap();
    replica.close().await;
    let app = TestApp::start_with(db.clone(), &[("MAXY_DATABASE_READ_URL", &replica_url)]).await;

    let page = app.get(&link.path, None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body.contains("(réplica)"),
        "an opening reads the replica"
    );

    // The organizer marks a venue, with a form posted without JavaScript.
    let pick: i64 = sqlx::query_scalar(
        "SELECT id FROM catalogue_picks WHERE catalogue_id = $1 ORDER BY id LIMIT 1",
    )
    .bind(subject)
    .fetch_one(&db)
    .await
    .unwrap();
    let origin = app.url("");
    let pick_id = pick.to_string();
    let reply = app
        .post_raw(
            "/api/links/catalogue/favorite",
            &[
                ("token", link.token.as_str()),
                ("pick_id", pick_id.as_str()),
                ("favorite", "true"),
            ],
            &[("origin", origin.as_str()), ("accept", "text/html")],
        )
        .await;
    assert!(reply.status.is_redirection(), "{}", reply.body);
    let wrote = reply
        .headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("maxy_link_wrote="))
        .expect("the write is marked")
        .split(';')
        .next()
        .unwrap()
        .to_string();

    // Sent back to the page, they read the primary: their favourite shows.
    let back = app.get_with(&link.path, None, &[("cookie", &wrote)]).await;
    assert_eq!(back.status, StatusCode::OK);
    assert!(
        !back.body.contains("(réplica)"),
        "their page reads the primary"
    );
    let favorite: bool =
        sqlx::query_scalar("SELECT organizer_favorite FROM catalogue_picks WHERE id = $1")
            .bind(pick)
            .fetch_one(&db)
            .await
            .unwrap();
    assert!(favorite, "written on the primary");
    // Anyone else still reads the replica.
    let other = app.get(&link.path, None).await;
    assert!(other.body.contains("(réplica)"));
    drop_copy(&name).await;
}
