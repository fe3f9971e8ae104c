//! The organizer's page is rendered once per content and sent again with a
//! fresh CSP nonce (`server::http::organizer_page`): the page reopened is the
//! same HTML with its own nonce, any change in what it shows appears at the
//! next opening, every opening is still counted, a revoked link is refused
//! at once, and two links to one catalogue never share a rendering.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use sqlx::PgPool;
use std::time::{Duration, Instant};
use support::app::{catalogue_link, seed_demo, Reply, TestApp};

/// The nonce the response's CSP header allows.
fn nonce(reply: &Reply) -> String {
    let csp = reply.header("content-security-policy");
    let start = csp.find("'nonce-").expect("a nonce in the CSP") + "'nonce-".len();
    let end = start + csp[start..].find('\'').expect("a closing quote");
    csp[start..end].to_string()
}

async fn catalogue_of(db: &PgPool, link_id: i64) -> i64 {
    sqlx::query_scalar("SELECT subject_id FROM magic_links WHERE id = $1")
        .bind(link_id)
        .fetch_one(db)
        .await
        .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn a_reopened_page_is_the_same_html_with_its_own_nonce(db: PgPool) {
    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    let app = TestApp::start(db.clone()).await;

    let first = app.get(&link.path, None).await;
    let second = app.get(&link.path, None).await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(second.status, 200, "{}", second.body);
    let (n1, n2) = (nonce(&first), nonce(&second));
    assert_ne!(n1, n2, "a nonce is never sent twice");
    assert!(
        second.body.contains(&format!("nonce=\"{n2}\"")),
        "the inline scripts carry this response's nonce"
    );
    assert!(
        !second.body.contains(&n1),
        "nothing of the first nonce is left"
    );
    assert_eq!(
        first.body.replace(&n1, "NONCE"),
        second.body.replace(&n2, "NONCE"),
        "the same page otherwise"
    );
    assert_eq!(second.header("cache-control"), "no-store");
    assert!(second.header("content-type").starts_with("text/html"));

    // Every opening is a use of the link (written within about a second).
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let uses: i32 = sqlx::query_scalar("SELECT use_count FROM magic_links WHERE id = $1")
            .bind(link.id)
            .fetch_one(&db)
            .await
            .unwrap();
        if uses == 2 {
            break;
        }
        assert!(uses < 2, "{uses} uses counted for two openings");
        assert!(
            Instant::now() < deadline,
            "the second opening was not counted"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn what_changes_in_the_database_shows_at_the_next_opening(db: PgPool) {
    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    let catalogue = catalogue_of(&db, link.id).await;
    let app = TestApp::start(db.clone()).await;
    assert_eq!(app.get(&link.path, None).await.status, 200);

    // A change made by another server (or straight in the database): this
    // process was told nothing.
    sqlx::query(
        "UPDATE catalogue_picks SET explanation = 'Raison revue par notre équipe 4217' \
         WHERE id = (SELECT min(id) FROM catalogue_picks WHERE catalogue_id = $1)",
    )
    .bind(catalogue)
    .execute(&db)
    .await
    .unwrap();
    let page = app.get(&link.path, None).await;
    assert!(
        page.body.contains("Raison revue par notre équipe 4217"),
        "the new reason is shown"
    );

    sqlx::query(
        "UPDATE requests SET description = 'Séminaire de printemps 9931' \
         WHERE id = (SELECT request_id FROM catalogues WHERE id = $1)",
    )
    .bind(catalogue)
    .execute(&db)
    .await
    .unwrap();
    let page = app.get(&link.path, None).await;
    assert!(
        page.body.contains("Séminaire de printemps 9931"),
        "the new summary is shown"
    );
    assert!(
        page.body.contains("4217"),
        "and the reason is still the new one"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_revoked_link_is_refused_though_its_page_was_rendered(db: PgPool) {
    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    let app = TestApp::start(db.clone()).await;
    assert_eq!(app.get(&link.path, None).await.status, 200);
    assert_eq!(app.get(&link.path, None).await.status, 200);

    sqlx::query("UPDATE magic_links SET revoked_at = now() WHERE id = $1")
        .bind(link.id)
        .execute(&db)
        .await
        .unwrap();
    let refused = app.get(&link.path, None).await;
    assert_eq!(refused.status, 404);
    assert!(
        !refused.body.contains("Fortement recommandés"),
        "nothing of the catalogue is shown"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn two_links_to_one_catalogue_each_get_their_own_page(db: PgPool) {
    seed_demo(&db).await;
    let first = catalogue_link(&db).await;
    let second = catalogue_link(&db).await;
    assert_eq!(
        catalogue_of(&db, first.id).await,
        catalogue_of(&db, second.id).await
    );
    let app = TestApp::start(db.clone()).await;
    let one = app.get(&first.path, None).await;
    let two = app.get(&second.path, None).await;
    assert_eq!((one.status.as_u16(), two.status.as_u16()), (200, 200));
    assert!(one.body.contains(&first.token));
    assert!(
        two.body.contains(&second.token),
        "the forms post through this page's own link"
    );
    assert!(
        !two.body.contains(&first.token),
        "nothing of the other link"
    );
}
