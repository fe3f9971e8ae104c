//! What the browser is told and what it may do: security headers with a CSP
//! nonce that the page's own scripts carry, `no-store` on team and link
//! pages, the `__Host-` cookie and HSTS over https, the absolute session
//! lifetime, and a search opened from another site that is held, not run.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use sqlx::PgPool;
use support::app::{seed_demo, Reply, TestApp, ADMIN, PASSWORD, TEAM};

/// The nonce a CSP header allows (`'nonce-…'`).
fn nonce_of(reply: &Reply) -> String {
    let csp = reply.header("content-security-policy");
    let start = csp.find("'nonce-").expect("a nonce") + "'nonce-".len();
    csp[start..].split('\'').next().unwrap().to_string()
}

/// Every `<script …>` opening tag of the page.
fn script_tags(html: &str) -> Vec<&str> {
    html.match_indices("<script")
        .map(|(i, _)| &html[i..i + html[i..].find('>').unwrap()])
        .collect()
}

#[sqlx::test(migrations = "../migrations")]
async fn pages_carry_the_security_headers_and_their_scripts_the_nonce(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let session = app.sign_in(ADMIN, PASSWORD).await;
    let mut nonces = Vec::new();
    for (path, session) in [
        ("/lieux", Some(session.as_str())),
        ("/console", Some(&session)),
        ("/connexion", None),
        ("/nulle-part", None),
    ] {
        let reply = app.get(path, session).await;
        let csp = reply.header("content-security-policy");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(
            csp.contains("object-src 'none'") && !csp.contains("unsafe-inline"),
            "{csp}"
        );
        assert_eq!(reply.header("x-content-type-options"), "nosniff", "{path}");
        assert_eq!(reply.header("x-frame-options"), "DENY", "{path}");
        assert_eq!(reply.header("referrer-policy"), "same-origin", "{path}");
        assert_eq!(reply.header("cache-control"), "no-store", "{path}");
        assert_eq!(
            reply.header("strict-transport-security"),
            "",
            "plain http: {path}"
        );

        let nonce = nonce_of(&reply);
        let scripts = script_tags(&reply.body);
        assert!(
            scripts.iter().any(|s| s.contains(r#"type="module""#)),
            "{path}: the hydration script"
        );
        for tag in scripts {
            assert!(
                tag.contains(&format!(r#"nonce="{nonce}""#)),
                "{path}: {tag}"
            );
        }
        nonces.push(nonce);
    }
    nonces.sort();
    nonces.dedup();
    assert_eq!(nonces.len(), 4, "one nonce per response");

    let asset = app.get("/favicon.svg", None).await;
    assert_ne!(
        asset.header("cache-control"),
        "no-store",
        "static assets stay cacheable"
    );
    assert_eq!(asset.header("x-content-type-options"), "nosniff");
}

#[sqlx::test(migrations = "../migrations")]
async fn over_https_the_cookie_is_host_prefixed_and_hsts_is_sent(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start_with(db, &[("MAXY_PUBLIC_URL", "https://maxy.example.org")]).await;
    // The browser is on the public URL: that is the Origin it sends.
    let reply = app
        .post_raw(
            "/connexion",
            &[("email", TEAM), ("password", PASSWORD)],
            &[("origin", "https://maxy.example.org")],
        )
        .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    let cookie = reply.header("set-cookie");
    assert!(cookie.starts_with("__Host-maxy_session="), "{cookie}");
    assert!(
        cookie.contains("Secure") && cookie.contains("Path=/"),
        "{cookie}"
    );
    assert!(!cookie.contains("Domain"), "{cookie}");
    assert_eq!(
        reply.header("strict-transport-security"),
        "max-age=31536000"
    );

    let token = reply.session_cookie().unwrap();
    assert_eq!(app.get("/chat", Some(&token)).await.status, StatusCode::OK);
    // The same token under the plain name (planted by a sibling sub-domain or
    // over plain http) is not a session.
    let planted = app
        .get_with(
            "/chat",
            None,
            &[("cookie", &format!("maxy_session={token}"))],
        )
        .await;
    assert_eq!(planted.status, StatusCode::SEE_OTHER);
    assert!(planted.location().starts_with("/connexion"));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_session_ends_at_its_absolute_lifetime_even_in_use(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let old = app.sign_in(TEAM, PASSWORD).await;
    let young = app.sign_in(ADMIN, PASSWORD).await;
    sqlx::query(
        "UPDATE user_sessions s SET created_at = now() - interval '31 days',
                last_seen_at = now() - interval '1 minute', expires_at = now() + interval '6 days'
           FROM users u WHERE u.id = s.user_id AND u.email = $1",
    )
    .bind(TEAM)
    .execute(&app.db)
    .await
    .unwrap();
    let reply = app.get("/chat", Some(&old)).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "31 days old: over");
    assert_eq!(reply.location(), "/connexion?suivant=/chat");

    // Sliding never carries a session past its absolute end.
    sqlx::query(
        "UPDATE user_sessions s SET created_at = now() - interval '29 days 23 hours',
                last_seen_at = now() - interval '2 hours', expires_at = now() + interval '1 hour'
           FROM users u WHERE u.id = s.user_id AND u.email = $1",
    )
    .bind(ADMIN)
    .execute(&app.db)
    .await
    .unwrap();
    assert_eq!(app.get("/chat", Some(&young)).await.status, StatusCode::OK);
    let capped: bool = sqlx::query_scalar(
        "SELECT s.expires_at <= s.created_at + interval '30 days' AND s.expires_at > now() + interval '30 minutes'
           FROM user_sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1",
    )
    .bind(ADMIN)
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert!(capped);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_search_opened_from_another_site_is_held_not_run(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let session = app.sign_in(TEAM, PASSWORD).await;
    let pool: String = sqlx::query_scalar("SELECT slug FROM pools ORDER BY id LIMIT 1")
        .fetch_one(&app.db)
        .await
        .unwrap();
    let url = format!("/lieux?pool={pool}&q=rooftop+festif&participants=80");
    const RUNS: &str = "SELECT count(*) FROM search_runs";
    let before = app.count(RUNS).await;

    for headers in [
        &[("sec-fetch-site", "cross-site")][..],
        &[("sec-fetch-site", "same-site")],
        &[("referer", "https://evil.example/page")],
    ] {
        let reply = app.get_with(&url, Some(&session), headers).await;
        assert_eq!(reply.status, StatusCode::OK, "{headers:?}");
        assert!(
            reply.body.contains(r#"data-testid="search-held""#),
            "{headers:?}"
        );
        assert!(reply.body.contains("Lancer la recherche"));
        // Without JavaScript, its link reloads the same URL.
        let again = format!(r#"href="/lieux?pool={pool}"#);
        assert!(reply.body.contains(&again), "{}", reply.body);
        assert!(
            reply.body.contains("rooftop festif</textarea>"),
            "the form is filled in"
        );
        assert!(
            !reply.body.contains(r#"data-testid="venue-results""#),
            "{headers:?}"
        );
    }
    assert_eq!(
        app.count(RUNS).await,
        before,
        "nothing ran, nothing written"
    );

    // With JavaScript, « Lancer la recherche » calls the server function: a
    // same-origin POST, which runs.
    let run = app
        .post_form(
            "/api/venues/search",
            &[("form[pool]", &pool), ("form[text]", "rooftop festif")],
            Some(&session),
        )
        .await;
    assert_eq!(run.status, StatusCode::OK, "{}", run.body);
    assert_eq!(run.json()["held"], false);
    assert_eq!(app.count(RUNS).await, before + 1);

    for headers in [
        &[("sec-fetch-site", "same-origin")][..],
        &[("sec-fetch-site", "none")],
        &[],
    ] {
        let reply = app.get_with(&url, Some(&session), headers).await;
        assert!(
            reply.body.contains(r#"data-testid="venue-results""#),
            "{headers:?}"
        );
        assert!(!reply.body.contains("search-held"));
    }
    assert_eq!(app.count(RUNS).await, before + 4);
}
