//! `/metrics` (issue #30): the Prometheus text of this process, for the
//! addresses an operator lists only; latencies under route patterns, never
//! raw paths; the queue and approvals read from the database.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use reqwest::StatusCode;
use sqlx::PgPool;
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

#[sqlx::test(migrations = "../migrations")]
async fn this_machine_reads_the_metrics_by_route_pattern(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db.clone()).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let request = app.count("SELECT max(id) FROM requests").await;
    assert_eq!(
        app.get(&format!("/demandes/{request}"), Some(&team))
            .await
            .status,
        StatusCode::OK
    );
    app.get("/nimporte-quoi-8271", None).await;
    sqlx::query(
        "INSERT INTO jobs (kind, run_at) VALUES ('test.metrics', now() - interval '90 seconds')",
    )
    .execute(&db)
    .await
    .unwrap();

    let reply = app.get("/metrics", None).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(
        reply
            .header("content-type")
            .starts_with("application/openmetrics-text"),
        "{}",
        reply.header("content-type")
    );
    let text = &reply.body;
    assert!(text.ends_with("# EOF\n"), "{text}");
    assert!(
        text.contains(r#"maxy_http_request_duration_seconds_count{method="GET",route="/demandes/{id}",status="2xx"}"#)
            || text.contains(r#"maxy_http_request_duration_seconds_count{method="GET",route="/demandes/:id",status="2xx"}"#),
        "the page under its pattern: {text}"
    );
    assert!(
        text.contains(r#"route="/api/session/user""#) || text.contains(r#"route="/connexion""#)
    );
    assert!(
        !text.contains(&format!("/demandes/{request}\"")),
        "no raw path"
    );
    assert!(!text.contains("nimporte"), "unknown paths share one series");
    assert!(text.contains(r#"route="unmatched""#), "{text}");
    assert!(text.contains(r#"maxy_jobs{state="queued"}"#), "{text}");
    let oldest: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("maxy_oldest_queued_job_seconds "))
        .expect("the oldest job's age")
        .parse()
        .unwrap();
    assert!(oldest >= 90.0, "{oldest}");
    assert!(text.contains("maxy_pending_approvals "), "{text}");
    assert!(text.contains("maxy_db_pool_connections "), "{text}");
    assert!(text.contains("maxy_chat_streams_open "), "{text}");
    // The session cookie and the password never appear.
    assert!(!text.contains(&team) && !text.contains(PASSWORD));
}

#[sqlx::test(migrations = "../migrations")]
async fn an_address_not_listed_gets_the_page_not_found(db: PgPool) {
    let app = TestApp::start_with(db.clone(), &[("MAXY_METRICS_ALLOW", "10.0.0.0/8")]).await;
    let reply = app.get("/metrics", None).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert!(!reply.body.contains("maxy_"), "{}", reply.body);
    let off = TestApp::start_with(db, &[("MAXY_METRICS_ALLOW", "none")]).await;
    assert_eq!(
        off.get("/metrics", None).await.status,
        StatusCode::NOT_FOUND
    );
}
