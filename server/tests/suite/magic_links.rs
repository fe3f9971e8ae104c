//! Magic links: an organizer link opens exactly one catalogue, a venue link
//! exactly one availability check; expired, tampered, revoked and
//! wrong-purpose links are all refused the same way, and refusals write nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use server::auth::magic_links::{issue, Purpose};
use server::auth::tokens::SigningKey;
use sqlx::PgPool;
use std::time::Duration;
use support::app::{seed_demo, TestApp};

const REFUSED: &str = "Ce lien n'est pas valide ou a expiré.";

fn key() -> SigningKey {
    SigningKey::new(support::SECRET_KEY.as_bytes().to_vec())
}

async fn sent_catalogue(db: &PgPool) -> i64 {
    sqlx::query_scalar(
        "SELECT id FROM catalogues WHERE status = 'sent' AND kind = 'standard' ORDER BY id LIMIT 1",
    )
    .fetch_one(db)
    .await
    .unwrap()
}

/// A fresh pending availability check (the seed's may all be answered).
async fn pending_check(db: &PgPool) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO availability_checks (request_id, member_id, status, expires_at)
         SELECT c.request_id, p.member_id, 'pending', now() + interval '7 days'
           FROM catalogue_picks p JOIN catalogues c ON c.id = p.catalogue_id
          WHERE NOT EXISTS (SELECT 1 FROM availability_checks a
                             WHERE a.request_id = c.request_id AND a.member_id = p.member_id AND a.status = 'pending')
          ORDER BY p.id LIMIT 1
         RETURNING id",
    )
    .fetch_one(db)
    .await
    .unwrap()
}

const WEEK: Duration = Duration::from_secs(7 * 86_400);

async fn uses(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT coalesce(sum(use_count), 0)::bigint FROM magic_links")
        .fetch_one(db)
        .await
        .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn an_organizer_link_opens_its_catalogue_and_nothing_else(db: PgPool) {
    seed_demo(&db).await;
    let catalogue = sent_catalogue(&db).await;
    let link = issue(&db, &key(), Purpose::Catalogue, catalogue, WEEK, None)
        .await
        .unwrap();
    let app = TestApp::start(db.clone()).await;

    let page = app.get(&link.path, None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body.contains("Votre sélection de lieux"),
        "{}",
        page.body
    );
    assert!(page.body.contains("catalogue-pick"));
    assert!(
        page.body.contains(r#"content="same-origin""#),
        "the token never leaks through Referer"
    );
    assert!(
        !page.body.contains("Navigation principale"),
        "no team navigation for organizers"
    );

    let data = app
        .post_form("/api/links/catalogue", &[("token", &link.token)], None)
        .await;
    assert_eq!(data.status, StatusCode::OK);
    let picks = data.json()["picks"]
        .as_array()
        .map(Vec::len)
        .unwrap_or_default();
    let expected: i64 =
        sqlx::query_scalar("SELECT count(*) FROM catalogue_picks WHERE catalogue_id = $1")
            .bind(catalogue)
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(picks as i64, expected);

    // The same token grants nothing else: not the team pages, not a venue check.
    assert_eq!(app.get("/chat", None).await.status, StatusCode::SEE_OTHER);
    let as_venue = app
        .post_form("/api/links/availability", &[("token", &link.token)], None)
        .await;
    assert_eq!(as_venue.status, StatusCode::NOT_FOUND, "wrong purpose");
    assert_eq!(
        app.get(&format!("/v/{}", link.token), None).await.status,
        StatusCode::NOT_FOUND
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn expired_tampered_revoked_and_unknown_links_are_refused_alike(db: PgPool) {
    seed_demo(&db).await;
    let catalogue = sent_catalogue(&db).await;
    let expired = issue(&db, &key(), Purpose::Catalogue, catalogue, WEEK, None)
        .await
        .unwrap();
    sqlx::query("UPDATE magic_links SET created_at = now() - interval '9 days', expires_at = now() - interval '1 day' WHERE id = $1")
        .bind(expired.id)
        .execute(&db)
        .await
        .unwrap();
    let revoked = issue(&db, &key(), Purpose::Catalogue, catalogue, WEEK, None)
        .await
        .unwrap();
    assert!(server::db::magic_links::revoke(&db, revoked.id, None)
        .await
        .unwrap());
    let valid = issue(&db, &key(), Purpose::Catalogue, catalogue, WEEK, None)
        .await
        .unwrap();
    let mut tampered = valid.token.clone().into_bytes();
    tampered[3] = if tampered[3] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    let other_key =
        SigningKey::new(b"another-key-another-key-another-key!".to_vec()).sign("catalogue", "abc");
    let app = TestApp::start(db.clone()).await;
    let before = uses(&db).await;

    for token in [
        &expired.token,
        &revoked.token,
        &tampered,
        &other_key,
        &"garbage".to_string(),
        &"x".repeat(5000),
    ] {
        let data = app
            .post_form("/api/links/catalogue", &[("token", token)], None)
            .await;
        assert_eq!(data.status, StatusCode::NOT_FOUND, "{token}");
        assert!(data.body.contains(REFUSED), "{}", data.body);
        let page = app.get(&format!("/c/{token}"), None).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND);
        assert!(page.body.contains(REFUSED));
    }
    assert_eq!(
        uses(&db).await,
        before,
        "refused links are not counted as used"
    );
    let ok = app
        .post_form("/api/links/catalogue", &[("token", &valid.token)], None)
        .await;
    assert_eq!(ok.status, StatusCode::OK, "the valid link still works");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_venue_link_answers_its_check_once(db: PgPool) {
    seed_demo(&db).await;
    let check = pending_check(&db).await;
    let link = issue(&db, &key(), Purpose::Availability, check, WEEK, None)
        .await
        .unwrap();
    let app = TestApp::start(db.clone()).await;

    let view = app
        .post_form("/api/links/availability", &[("token", &link.token)], None)
        .await;
    assert_eq!(view.status, StatusCode::OK);
    assert_eq!(view.json()["status"], "pending");

    let too_long = "x".repeat(2001);
    let refused = app
        .post_form(
            "/api/links/availability/answer",
            &[
                ("token", &link.token),
                ("available", "true"),
                ("comment", &too_long),
            ],
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    let status: String = sqlx::query_scalar("SELECT status FROM availability_checks WHERE id = $1")
        .bind(check)
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(status, "pending", "a refused answer writes nothing");

    let answer = app
        .post_form(
            "/api/links/availability/answer",
            &[
                ("token", &link.token),
                ("available", "true"),
                ("comment", "Option posée pour vous."),
            ],
            None,
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.json()["status"], "available");
    assert_eq!(answer.json()["answer"], "Option posée pour vous.");

    let again = app
        .post_form(
            "/api/links/availability/answer",
            &[
                ("token", &link.token),
                ("available", "false"),
                ("comment", ""),
            ],
            None,
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "an answer is final");
    assert_eq!(again.json()["error"], "conflict");
    let audit: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM audit_log WHERE action = 'availability.answered' AND object_id = $1",
    )
    .bind(check)
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(audit, 1);

    // A catalogue link cannot answer a check, even with the check's id as subject.
    let wrong = issue(&db, &key(), Purpose::Catalogue, check, WEEK, None)
        .await
        .unwrap();
    let reply = app
        .post_form(
            "/api/links/availability/answer",
            &[
                ("token", &wrong.token),
                ("available", "true"),
                ("comment", ""),
            ],
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
}

#[sqlx::test(migrations = "../migrations")]
async fn cross_site_answers_are_refused(db: PgPool) {
    seed_demo(&db).await;
    let check = pending_check(&db).await;
    let link = issue(&db, &key(), Purpose::Availability, check, WEEK, None)
        .await
        .unwrap();
    let app = TestApp::start(db.clone()).await;
    let reply = app
        .post_raw(
            "/api/links/availability/answer",
            &[
                ("token", &link.token),
                ("available", "false"),
                ("comment", ""),
            ],
            &[("origin", "https://evil.example")],
        )
        .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);
    let status: String = sqlx::query_scalar("SELECT status FROM availability_checks WHERE id = $1")
        .bind(check)
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(status, "pending");
}
