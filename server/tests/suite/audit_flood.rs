//! The audit log under a flood from many addresses (finding: 220 failed
//! sign-ins from 220 IPv6 /64 blocks in 7.4 s filled the console's whole
//! 200-row view, and the admin's own sign-in dropped out of it).
//!
//! Reproduced as found: each address stays under its own cap, so only the
//! cap per action across all addresses bounds the log; the excess is one
//! summary row per minute with its count, and the console's team view still
//! shows the admin.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use server::audit::throttle::GLOBAL_ROWS_PER_MINUTE;
use sqlx::PgPool;
use support::app::{catalogue_link, seed_demo, Reply, TestApp, ADMIN, PASSWORD};

const BEHIND_PROXY: &[(&str, &str)] = &[("MAXY_TRUSTED_PROXIES", "127.0.0.1")];

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

/// Rows of `action` written one by one, and what its summary rows stand for.
async fn written_and_summarised(db: &PgPool, action: &str) -> (i64, i64, i64) {
    sqlx::query_as(
        "SELECT count(*) FILTER (WHERE summary_of IS NULL),
                count(*) FILTER (WHERE summary_of IS NOT NULL),
                coalesce(sum((details->>'summarised')::bigint), 0)::bigint
           FROM audit_log WHERE action = $1",
    )
    .bind(action)
    .fetch_one(db)
    .await
    .unwrap()
}

/// The bounds a flood of `total` rows of one action must keep. The test may
/// straddle a minute: then two windows, each with its cap and its summary.
fn assert_bounded(total: i64, (written, summaries, summarised): (i64, i64, i64)) {
    let cap = i64::from(GLOBAL_ROWS_PER_MINUTE);
    assert_eq!(
        written + summarised,
        total,
        "every attempt is accounted for"
    );
    assert!(
        (cap..=2 * cap).contains(&written),
        "{written} rows written one by one"
    );
    assert!((1..=2).contains(&summaries), "{summaries} summary rows");
}

/// The console's journal `journal` as JSON, read by `session`.
async fn journal(app: &TestApp, session: &str, journal: &str) -> Vec<serde_json::Value> {
    let reply = app
        .post_form("/api/admin/audit", &[("journal", journal)], Some(session))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.json().as_array().cloned().unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn failed_sign_ins_from_many_blocks_are_summarised_and_the_team_stays_visible(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start_with(db, BEHIND_PROXY).await;
    let admin = attempt(&app, "198.51.100.1", ADMIN, PASSWORD).await;
    assert_eq!(admin.status, StatusCode::OK, "{}", admin.body);
    let admin = admin.session_cookie().unwrap();

    // As found: 220 /64 blocks, one failure each (no block reaches its cap).
    for n in 1..=220 {
        let from = format!("2001:db8:{n:x}::1");
        let reply = attempt(&app, &from, &format!("g{n}@x.fr"), "not-the-password").await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{}", reply.body);
    }
    // Read at once: the burst has stopped, no later row carries its count.
    assert_bounded(
        220,
        written_and_summarised(&app.db, "auth.sign_in_failed").await,
    );
    let (kind, ip): (String, Option<String>) = sqlx::query_as(
        "SELECT actor_kind, host(ip) FROM audit_log
          WHERE action = 'auth.sign_in_failed' AND summary_of IS NOT NULL LIMIT 1",
    )
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert_eq!((kind.as_str(), ip), ("anonymous", None));

    // The team's view: the admin's sign-in, and no outsider.
    let name: String = sqlx::query_scalar("SELECT display_name FROM users WHERE email = $1")
        .bind(ADMIN)
        .fetch_one(&app.db)
        .await
        .unwrap();
    let team = journal(&app, &admin, "equipe").await;
    assert!(
        team.iter()
            .any(|e| e["action"] == "auth.sign_in" && e["actor"] == name.as_str()),
        "{team:?}"
    );
    assert!(
        team.iter()
            .all(|e| e["actor"] != "anonyme" && e["actor"] != "lien magique"),
        "{team:?}"
    );

    // The outsiders' view: the summary, readable.
    let outsiders = journal(&app, &admin, "exterieurs").await;
    let summaries: Vec<&str> = outsiders
        .iter()
        .filter_map(|e| e["summary"].as_str())
        .collect();
    assert!(
        summaries
            .iter()
            .all(|s| s.ends_with("autres échecs de connexion cette minute")
                || s.ends_with("autre échec de connexion cette minute")),
        "{summaries:?}"
    );
    assert!(!summaries.is_empty());
    // The whole journal is bounded too: the admin's sign-in is still in it.
    let all = journal(&app, &admin, "").await;
    assert!(all.len() <= 2 * GLOBAL_ROWS_PER_MINUTE as usize + 3);
    assert!(all.iter().any(|e| e["action"] == "auth.sign_in"));

    // The page, without JavaScript: the team's view and its filter links.
    let page = app.get("/console?journal=equipe", Some(&admin)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("auth.sign_in"), "{}", page.body);
    assert!(page.body.contains(r#"href="/console?journal=exterieurs""#));
    assert!(
        page.body
            .contains(r#"href="/console?journal=equipe" aria-current="page""#),
        "the current view is marked"
    );
    let page = app.get("/console?journal=exterieurs", Some(&admin)).await;
    assert!(page
        .body
        .contains("autres échecs de connexion cette minute"));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_link_opened_from_many_blocks_is_summarised_and_bad_links_write_nothing(db: PgPool) {
    seed_demo(&db).await;
    let link = catalogue_link(&db).await;
    let app = TestApp::start_with(db, BEHIND_PROXY).await;
    for n in 1..=60 {
        let from = format!("2001:db8:{n:x}::1");
        let page = app
            .get_with(&link.path, None, &[("x-forwarded-for", from.as_str())])
            .await;
        assert_eq!(page.status, StatusCode::OK);
    }
    assert_bounded(60, written_and_summarised(&app.db, "magic_link.used").await);

    let rows = app.count("SELECT count(*) FROM audit_log").await;
    for n in 1..=60 {
        let from = format!("2001:db8:1:{n:x}::1");
        let reply = app
            .get_with(
                &format!("/c/bad{n}.link"),
                None,
                &[("x-forwarded-for", from.as_str())],
            )
            .await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND);
    }
    assert_eq!(
        app.count("SELECT count(*) FROM audit_log").await,
        rows,
        "a bad link writes no row"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn each_view_has_its_own_rows_and_an_unknown_one_is_refused(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let admin = app.sign_in(ADMIN, PASSWORD).await;
    // More outsider rows than a view holds, all newer than the sign-in (as
    // several processes, each with its own cap, could write over an hour).
    sqlx::query(
        "INSERT INTO audit_log (actor_kind, action, at)
         SELECT 'anonymous', 'auth.sign_in_failed', now() + n * interval '1 second'
           FROM generate_series(1, 300) n",
    )
    .execute(&app.db)
    .await
    .unwrap();
    let all = journal(&app, &admin, "tout").await;
    assert_eq!(all.len(), 200);
    assert!(
        all.iter().all(|e| e["action"] != "auth.sign_in"),
        "pushed out of the whole journal"
    );
    let team = journal(&app, &admin, "equipe").await;
    assert!(
        team.iter().any(|e| e["action"] == "auth.sign_in"),
        "{team:?}"
    );
    assert!(journal(&app, &admin, "systeme")
        .await
        .iter()
        .all(|e| e["actor"] == "système"));

    let refused = app
        .post_form("/api/admin/audit", &[("journal", "admins")], Some(&admin))
        .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        refused.json()["message"],
        "Ce journal n'existe pas : choisissez Tout, Équipe, Extérieurs ou Système."
    );
    let page = app.get("/console?journal=admins", Some(&admin)).await;
    assert_eq!(page.status, StatusCode::BAD_REQUEST);
    assert!(
        page.body.contains("existe pas : choisissez Tout"),
        "{}",
        page.body
    );
    // Reading a view writes nothing.
    let before = app.count("SELECT count(*) FROM audit_log").await;
    app.get("/console?journal=equipe", Some(&admin)).await;
    assert_eq!(app.count("SELECT count(*) FROM audit_log").await, before);
}
