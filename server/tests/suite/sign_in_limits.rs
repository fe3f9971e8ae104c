//! Sign-in rate limits and their audit rows, end to end: nobody can lock the
//! team out, a refused attempt spends nothing, one normalisation of e-mails,
//! and refusals cannot flood the audit log.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use sqlx::PgPool;
use support::app::{seed_demo, Reply, TestApp, ADMIN, PASSWORD, TEAM};

const BEHIND_PROXY: &[(&str, &str)] = &[("MAXY_TRUSTED_PROXIES", "127.0.0.1")];
const WRONG: &str = "not-the-password";
const THROTTLED: &str = "SELECT count(*) FROM audit_log WHERE action = 'auth.sign_in_throttled'";
const FAILED: &str = "SELECT count(*) FROM audit_log WHERE action = 'auth.sign_in_failed'";
const SESSIONS: &str = "SELECT count(*) FROM user_sessions";

/// A same-origin JSON sign-in that the proxy says comes from `from`.
async fn attempt(app: &TestApp, from: &str, email: &str, password: &str) -> Reply {
    let origin = app.url("");
    app.post_raw(
        "/connexion",
        &[("email", email), ("password", password)],
        &[
            ("accept", "application/json"),
            ("origin", origin.as_str()),
            ("x-forwarded-for", from),
        ],
    )
    .await
}

fn assert_throttled(reply: &Reply) {
    assert_eq!(
        reply.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        reply.body
    );
    assert_eq!(reply.json()["error"], "too_many_requests");
    assert_eq!(
        reply.json()["message"],
        "Trop de tentatives. Réessayez dans une minute."
    );
    assert!(reply.session_cookie().is_none());
}

#[sqlx::test(migrations = "../migrations")]
async fn one_noisy_address_behind_the_proxy_does_not_lock_out_the_team(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start_with(db, BEHIND_PROXY).await;
    for n in 0..10 {
        let reply = attempt(&app, "203.0.113.7", &format!("guess{n}@reciprok.fr"), WRONG).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    }
    assert_throttled(&attempt(&app, "203.0.113.7", ADMIN, PASSWORD).await);
    assert_eq!(
        app.count(SESSIONS).await,
        0,
        "a refused attempt writes no session"
    );

    // Everyone else behind the same proxy signs in, as often as they like.
    for n in 1..=15 {
        let reply = attempt(&app, &format!("198.51.100.{n}"), TEAM, PASSWORD).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    for _ in 0..15 {
        let reply = attempt(&app, "198.51.100.200", ADMIN, PASSWORD).await;
        assert_eq!(reply.status, StatusCode::OK, "successes spend nothing");
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn an_untrusted_peer_cannot_dodge_its_limit_with_a_forwarded_header(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    for n in 0..10 {
        let reply = attempt(&app, &format!("192.0.2.{n}"), &format!("g{n}@x.fr"), WRONG).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    }
    assert_throttled(&attempt(&app, "192.0.2.99", ADMIN, PASSWORD).await);
}

#[sqlx::test(migrations = "../migrations")]
async fn an_ipv6_client_is_limited_by_its_64(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start_with(db, BEHIND_PROXY).await;
    for n in 1..=10 {
        let from = format!("2001:db8:1:2::{n:x}");
        let reply = attempt(&app, &from, &format!("g{n}@x.fr"), WRONG).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    }
    assert_throttled(&attempt(&app, "2001:db8:1:2:ffff:ffff:ffff:1", TEAM, PASSWORD).await);
    let neighbour = attempt(&app, "2001:db8:1:3::1", TEAM, PASSWORD).await;
    assert_eq!(
        neighbour.status,
        StatusCode::OK,
        "the next /64 is someone else"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_correct_password_from_a_fresh_address_gets_in_while_the_account_is_attacked(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start_with(db, BEHIND_PROXY).await;
    for _ in 0..5 {
        let reply = attempt(&app, "203.0.113.7", TEAM, WRONG).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    }
    // The attacker's address is refused on this account, even with the password.
    assert_throttled(&attempt(&app, "203.0.113.7", TEAM, PASSWORD).await);
    assert_eq!(app.count(SESSIONS).await, 0);

    let victim = attempt(&app, "198.51.100.20", TEAM, PASSWORD).await;
    assert_eq!(victim.status, StatusCode::OK, "{}", victim.body);
    assert!(victim.session_cookie().is_some());

    // Another attacking address gets one checked guess, then is refused too.
    let second = attempt(&app, "203.0.113.99", TEAM, WRONG).await;
    assert_eq!(second.status, StatusCode::UNAUTHORIZED);
    assert_throttled(&attempt(&app, "203.0.113.99", TEAM, WRONG).await);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_refused_attempt_does_not_spend_the_accounts_allowance(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start_with(db, BEHIND_PROXY).await;
    for n in 0..10 {
        attempt(&app, "203.0.113.7", &format!("g{n}@x.fr"), WRONG).await;
    }
    for _ in 0..20 {
        assert_throttled(&attempt(&app, "203.0.113.7", TEAM, WRONG).await);
    }
    // Had those counted, the account would be "under attack" from the start.
    for _ in 0..5 {
        let reply = attempt(&app, "198.51.100.5", TEAM, WRONG).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    }
    assert_throttled(&attempt(&app, "198.51.100.5", TEAM, WRONG).await);
}

#[sqlx::test(migrations = "../migrations")]
async fn one_normalisation_for_the_limit_and_the_lookup(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start_with(db, BEHIND_PROXY).await;
    // PostgreSQL's lower() folds İ to i; the lookup must not.
    let dotted = attempt(&app, "203.0.113.1", "admİn@reciprok.fr", PASSWORD).await;
    assert_eq!(dotted.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.count(SESSIONS).await, 0);

    // Spellings of one address share one limit.
    for spelling in [
        " Camille.Martin@Reciprok.fr",
        "CAMILLE.MARTIN@RECIPROK.FR",
        "camille.martin@reciprok.fr\t",
        "Camille.martin@reciprok.FR",
        "camille.MARTIN@reciprok.fr ",
    ] {
        let reply = attempt(&app, "203.0.113.2", spelling, WRONG).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{spelling:?}");
    }
    assert_throttled(&attempt(&app, "203.0.113.2", TEAM, PASSWORD).await);
    let logged: Vec<String> = sqlx::query_scalar(
        "SELECT details->>'email' FROM audit_log WHERE action = 'auth.sign_in_failed' AND ip = '203.0.113.2'",
    )
    .fetch_all(&app.db)
    .await
    .unwrap();
    assert_eq!(
        logged,
        vec![TEAM.to_string(); 5],
        "the audit names the normalised address"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn refused_sign_ins_cannot_flood_the_audit_log(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start_with(db, BEHIND_PROXY).await;
    // Oversized e-mails get the wrong-credentials answer before any work:
    // nothing written, nothing counted (the ten failures below still pass).
    let huge = format!("{}@x.fr", "a".repeat(500));
    let reply = attempt(&app, "203.0.113.7", &huge, WRONG).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    let long = format!("{}@x.fr", "b".repeat(250));
    assert_eq!(
        attempt(&app, "203.0.113.7", &long, WRONG).await.status,
        StatusCode::UNAUTHORIZED,
        "255 characters: past RFC 5321's limit"
    );
    assert_eq!(app.count("SELECT count(*) FROM audit_log").await, 0);

    for n in 0..10 {
        let email = format!("{n}{}@x.fr", "c".repeat(240));
        assert_eq!(
            attempt(&app, "203.0.113.7", &email, WRONG).await.status,
            StatusCode::UNAUTHORIZED
        );
    }
    for _ in 0..200 {
        assert_throttled(&attempt(&app, "203.0.113.7", TEAM, WRONG).await);
    }
    assert_eq!(app.count(FAILED).await, 10);
    assert_eq!(
        app.count(THROTTLED).await,
        1,
        "one row per address and minute"
    );
    let longest: i32 = sqlx::query_scalar("SELECT max(length(details::text)) FROM audit_log")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert!(longest < 400, "details stay short: {longest}");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_burst_of_parallel_guesses_cannot_all_slip_through(db: PgPool) {
    seed_demo(&db).await;
    let app = std::sync::Arc::new(TestApp::start_with(db, BEHIND_PROXY).await);
    let guesses: Vec<_> = (0..30)
        .map(|n| {
            let app = app.clone();
            tokio::spawn(async move {
                let email = format!("g{n}@reciprok.fr");
                attempt(&app, "203.0.113.7", &email, WRONG).await.status
            })
        })
        .collect();
    let mut checked = 0;
    for guess in guesses {
        match guess.await.unwrap() {
            StatusCode::UNAUTHORIZED => checked += 1,
            StatusCode::TOO_MANY_REQUESTS => {}
            other => panic!("{other}"),
        }
    }
    assert_eq!(
        checked, 10,
        "no more passwords checked than the limit allows"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn two_servers_share_one_count(db: PgPool) {
    seed_demo(&db).await;
    let one = TestApp::start_with(db.clone(), BEHIND_PROXY).await;
    let other = TestApp::start_with(db, BEHIND_PROXY).await;
    // A guesser spreading over the servers behind the load balancer.
    for n in 0..10 {
        let server = if n % 2 == 0 { &one } else { &other };
        let reply = attempt(server, "203.0.113.7", &format!("g{n}@x.fr"), WRONG).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    }
    assert_throttled(&attempt(&one, "203.0.113.7", ADMIN, PASSWORD).await);
    assert_throttled(&attempt(&other, "203.0.113.7", ADMIN, PASSWORD).await);

    // An attacked account, attacked through both servers.
    for server in [&one, &other, &one, &other, &one] {
        let reply = attempt(server, "198.51.100.66", TEAM, WRONG).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    }
    assert_throttled(&attempt(&other, "198.51.100.66", TEAM, PASSWORD).await);
    let user = attempt(&other, "198.51.100.20", TEAM, PASSWORD).await;
    assert_eq!(user.status, StatusCode::OK, "{}", user.body);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_counts_drain_with_time_and_successes_leave_nothing(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start_with(db, BEHIND_PROXY).await;
    for _ in 0..20 {
        let reply = attempt(&app, "198.51.100.1", TEAM, PASSWORD).await;
        assert_eq!(reply.status, StatusCode::OK);
    }
    assert_eq!(
        app.count("SELECT count(*) FROM sign_in_failures").await,
        0,
        "a success takes its count back whole"
    );

    for _ in 0..5 {
        attempt(&app, "203.0.113.7", TEAM, WRONG).await;
    }
    for n in 5..10 {
        attempt(&app, "203.0.113.7", &format!("g{n}@x.fr"), WRONG).await;
    }
    assert_throttled(&attempt(&app, "203.0.113.7", TEAM, PASSWORD).await);
    // Seven seconds on, one of the block's failures has drained: it may try
    // another account, but not the one it attacked (under attack a minute).
    age(&app, 7).await;
    assert_throttled(&attempt(&app, "203.0.113.7", TEAM, PASSWORD).await);
    let reply = attempt(&app, "203.0.113.7", "other@x.fr", WRONG).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    // A minute on, the account is no longer under attack: anyone may try.
    age(&app, 61).await;
    let reply = attempt(&app, "203.0.113.7", TEAM, PASSWORD).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);

    // The hourly sweep removes what has drained, and nothing else.
    age(&app, 15 * 60).await;
    attempt(&app, "192.0.2.200", "fresh@x.fr", WRONG).await;
    let removed = server::db::sign_in_failures::delete_drained(&app.db)
        .await
        .unwrap();
    assert!(removed > 0);
    let left: Vec<String> =
        sqlx::query_scalar("SELECT key FROM sign_in_failures ORDER BY key COLLATE \"C\"")
            .fetch_all(&app.db)
            .await
            .unwrap();
    assert_eq!(
        left,
        ["192.0.2.200", "192.0.2.200 fresh@x.fr", "fresh@x.fr"],
        "only the fresh attempt's counters stay"
    );
}

/// Moves every sign-in counter `seconds` into the past, as if that much
/// time had gone by.
async fn age(app: &TestApp, seconds: i32) {
    sqlx::query("UPDATE sign_in_failures SET drained_at = drained_at - make_interval(secs => $1)")
        .bind(f64::from(seconds))
        .execute(&app.db)
        .await
        .unwrap();
}
