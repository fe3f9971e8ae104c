//! Accounts and access, end to end on a real server and database: sign-in
//! and its refusals, sessions, sign-out, CSRF, roles, and the guarantee that
//! every protected page and server function refuses anonymous callers.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use sqlx::PgPool;
use support::app::{seed_demo, TestApp, ADMIN, PASSWORD, TEAM};

const SESSIONS: &str = "SELECT count(*) FROM user_sessions";

#[sqlx::test(migrations = "../migrations")]
async fn a_wrong_password_or_an_unknown_email_get_the_same_refusal(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let origin = app.url("");
    let headers = [("accept", "application/json"), ("origin", origin.as_str())];
    let wrong = app
        .post_raw(
            "/connexion",
            &[("email", ADMIN), ("password", "not-the-password")],
            &headers,
        )
        .await;
    let unknown = app
        .post_raw(
            "/connexion",
            &[("email", "nobody@reciprok.fr"), ("password", PASSWORD)],
            &headers,
        )
        .await;
    for reply in [&wrong, &unknown] {
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
        assert_eq!(reply.json()["error"], "wrong_credentials");
        assert_eq!(reply.json()["message"], "E-mail ou mot de passe incorrect.");
        assert!(reply.session_cookie().is_none());
    }
    assert_eq!(app.count(SESSIONS).await, 0, "no session was written");
    assert_eq!(
        app.count("SELECT count(*) FROM audit_log WHERE action = 'auth.sign_in_failed'")
            .await,
        2
    );

    // A browser gets the form back with a generic error.
    let form = app
        .post_form(
            "/connexion",
            &[("email", ADMIN), ("password", "nope-nope-nope")],
            None,
        )
        .await;
    assert_eq!(form.status, StatusCode::SEE_OTHER);
    assert_eq!(form.location(), "/connexion?erreur=identifiants");
}

#[sqlx::test(migrations = "../migrations")]
async fn sign_in_sets_a_safe_cookie_and_follows_only_local_paths(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let reply = app
        .post_form(
            "/connexion",
            &[
                ("email", "Camille.Martin@Reciprok.fr "),
                ("password", PASSWORD),
                ("suivant", "/lieux"),
            ],
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert_eq!(reply.location(), "/lieux");
    let cookie = reply
        .headers
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"),
        "{cookie}"
    );
    assert!(
        !cookie.contains("Secure"),
        "plain http on loopback: {cookie}"
    );
    let token = reply.session_cookie().unwrap();
    let stored: Vec<u8> = sqlx::query_scalar("SELECT token_hash FROM user_sessions")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_ne!(
        stored,
        token.as_bytes(),
        "only a hash of the token is stored"
    );
    assert_eq!(
        app.count("SELECT count(*) FROM audit_log WHERE action = 'auth.sign_in'")
            .await,
        1
    );

    let page = app.get("/lieux", Some(&token)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("Camille Martin"));

    let evil = app
        .post_form(
            "/connexion",
            &[
                ("email", TEAM),
                ("password", PASSWORD),
                ("suivant", "//evil.example/x"),
            ],
            None,
        )
        .await;
    assert_eq!(evil.location(), "/", "an open redirect is ignored");
}

#[sqlx::test(migrations = "../migrations")]
async fn signing_in_again_rotates_the_session(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let first = app.sign_in(TEAM, PASSWORD).await;
    let again = app
        .post_form(
            "/connexion",
            &[("email", TEAM), ("password", PASSWORD)],
            Some(&first),
        )
        .await;
    let second = again.session_cookie().unwrap();
    assert_ne!(first, second);
    assert_eq!(
        app.get("/chat", Some(&first)).await.status,
        StatusCode::SEE_OTHER,
        "the old token is dead"
    );
    assert_eq!(app.get("/chat", Some(&second)).await.status, StatusCode::OK);
    assert_eq!(app.count(SESSIONS).await, 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn sign_out_ends_the_session_and_sign_out_everywhere_ends_them_all(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let laptop = app.sign_in(TEAM, PASSWORD).await;
    let phone = app.sign_in(TEAM, PASSWORD).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;

    let out = app.post_form("/deconnexion", &[], Some(&laptop)).await;
    assert_eq!(out.status, StatusCode::SEE_OTHER);
    assert_eq!(out.location(), "/connexion?deconnecte=1");
    assert!(out
        .headers
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .contains("Max-Age=0"));
    let back = app.get("/chat", Some(&laptop)).await;
    assert_eq!(back.status, StatusCode::SEE_OTHER);
    assert_eq!(back.location(), "/connexion?suivant=/chat");
    assert_eq!(app.get("/chat", Some(&phone)).await.status, StatusCode::OK);

    let everywhere = app
        .post_form("/deconnexion/partout", &[], Some(&phone))
        .await;
    assert_eq!(everywhere.status, StatusCode::SEE_OTHER);
    assert_eq!(
        app.get("/chat", Some(&phone)).await.status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(
        app.get("/chat", Some(&admin)).await.status,
        StatusCode::OK,
        "other users keep theirs"
    );
    assert_eq!(
        app.count("SELECT count(*) FROM audit_log WHERE action LIKE 'auth.sign_out%'")
            .await,
        2
    );

    let anonymous = app.post_form("/deconnexion/partout", &[], None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[sqlx::test(migrations = "../migrations")]
async fn cross_site_posts_are_refused_and_write_nothing(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let fields = [("email", ADMIN), ("password", PASSWORD)];
    for headers in [
        vec![],
        vec![("origin", "https://evil.example")],
        vec![
            ("sec-fetch-site", "cross-site"),
            ("origin", "https://evil.example"),
        ],
        vec![("origin", "null")],
    ] {
        let reply = app.post_raw("/connexion", &fields, &headers).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{headers:?}");
        assert!(reply.body.contains("Requête refusée"));
    }
    assert_eq!(app.count(SESSIONS).await, 0);
    let fetch = app
        .post_raw("/connexion", &fields, &[("sec-fetch-site", "same-origin")])
        .await;
    assert_eq!(
        fetch.status,
        StatusCode::SEE_OTHER,
        "a same-origin fetch passes"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_team_member_cannot_reach_admin_pages_or_functions(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let page = app.get("/console", Some(&team)).await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    assert!(page.body.contains("réservée aux administrateurs"));
    let call = app.post_form("/api/admin/audit", &[], Some(&team)).await;
    assert_eq!(call.status, StatusCode::FORBIDDEN);
    assert!(
        !call.body.contains("auth.sign_in"),
        "no audit data leaks: {}",
        call.body
    );

    let admin = app.sign_in(ADMIN, PASSWORD).await;
    let call = app.post_form("/api/admin/audit", &[], Some(&admin)).await;
    assert_eq!(call.status, StatusCode::OK);
    assert!(call.body.contains("auth.sign_in"), "{}", call.body);
    assert!(
        !app.get("/chat", Some(&team))
            .await
            .body
            .contains(">Console<"),
        "the nav hides the console"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn sign_in_is_rate_limited_per_account(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    for _ in 0..5 {
        let reply = app
            .post_form(
                "/connexion",
                &[("email", TEAM), ("password", "wrong-password!")],
                None,
            )
            .await;
        assert_eq!(reply.location(), "/connexion?erreur=identifiants");
    }
    let sixth = app
        .post_form(
            "/connexion",
            &[("email", TEAM), ("password", PASSWORD)],
            None,
        )
        .await;
    assert_eq!(
        sixth.location(),
        "/connexion?erreur=trop",
        "even the right password waits"
    );
    assert!(sixth.session_cookie().is_none());
}

#[sqlx::test(migrations = "../migrations")]
async fn disabled_users_cannot_sign_in_and_lose_their_sessions(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let session = app.sign_in(TEAM, PASSWORD).await;
    sqlx::query("UPDATE users SET disabled_at = now() WHERE email = $1")
        .bind(TEAM)
        .execute(&app.db)
        .await
        .unwrap();
    assert_eq!(
        app.get("/chat", Some(&session)).await.status,
        StatusCode::SEE_OTHER
    );
    let again = app
        .post_form(
            "/connexion",
            &[("email", TEAM), ("password", PASSWORD)],
            None,
        )
        .await;
    assert_eq!(again.location(), "/connexion?erreur=identifiants");
}
