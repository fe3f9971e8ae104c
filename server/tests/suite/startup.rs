//! The `maxy` binary at start-up: every bad input ends as one clear line on
//! stderr and a non-zero exit, never a panic; SIGTERM stops it cleanly.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use sqlx::PgPool;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const MAXY: &str = env!("CARGO_BIN_EXE_maxy");

/// A `maxy` command with a clean environment (no developer settings leak in).
fn maxy(args: &[&str], vars: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(MAXY);
    cmd.args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default());
    cmd.env(
        "MAXY_LEPTOS_CONFIG",
        support::repo_root().join("Leptos.toml"),
    );
    cmd.env("MAXY_LOG", "warn");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    cmd
}

fn run(args: &[&str], vars: &[(&str, &str)]) -> Output {
    maxy(args, vars)
        .stdin(Stdio::null())
        .output()
        .expect("maxy runs")
}

/// Asserts a failed run whose stderr is exactly one `maxy: …` line containing `needle`.
fn assert_one_line_error(out: &Output, needle: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "expected a failure, got success: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "expected one line, got: {stderr}");
    assert!(lines[0].starts_with("maxy: "), "{stderr}");
    assert!(lines[0].contains(needle), "{needle:?} not in {stderr}");
}

#[test]
fn invalid_variables_are_named() {
    for (var, value) in [
        ("DATABASE_URL", "mysql://localhost/maxy"),
        ("MAXY_ADDR", "not-an-address"),
        ("MAXY_DB_MAX_CONNECTIONS", "lots"),
        ("MAXY_VENUE_EMBEDDING_DIMENSIONS", "0"),
        ("MAXY_EMBEDDING_URL", ""),
    ] {
        let out = run(&["serve"], &[(var, value)]);
        assert_one_line_error(&out, var);
    }
}

#[test]
fn a_missing_site_settings_file_is_named() {
    let out = run(
        &["serve"],
        &[("MAXY_LEPTOS_CONFIG", "/nonexistent/Leptos.toml")],
    );
    assert_one_line_error(&out, "MAXY_LEPTOS_CONFIG");
}

#[tokio::test]
async fn an_unreachable_database_is_one_line() {
    let port = support::closed_port().await;
    let url = format!("postgres://postgres:secret-pw@{port}/maxy");
    let out = run(
        &["migrate"],
        &[
            ("DATABASE_URL", &url),
            ("MAXY_DB_CONNECT_TIMEOUT_SECS", "2"),
        ],
    );
    assert_one_line_error(&out, "cannot reach the database");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("secret-pw"),
        "the password leaked: {stderr}"
    );
}

#[tokio::test]
async fn a_port_in_use_is_one_line() {
    let taken = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = taken.local_addr().expect("addr").to_string();
    let out = run(&["serve"], &[("MAXY_ADDR", &addr)]);
    assert_one_line_error(&out, &format!("cannot listen on {addr}"));
}

#[sqlx::test(migrations = false)]
async fn an_unreachable_embedding_server_is_one_line(db: PgPool) {
    let url = support::url_of(&db).await;
    let addr = support::closed_port().await.to_string();
    let embedding = format!("http://{}/v1", support::closed_port().await);
    let out = run(
        &["serve"],
        &[
            ("DATABASE_URL", &url),
            ("MAXY_ADDR", &addr),
            ("MAXY_EMBEDDING_URL", &embedding),
        ],
    );
    assert_one_line_error(&out, "MAXY_EMBEDDING_URL");
}

#[sqlx::test(migrations = false)]
async fn serve_migrates_answers_and_stops_cleanly_on_sigterm(db: PgPool) {
    let url = support::url_of(&db).await;
    let addr = support::closed_port().await;
    let embedding = format!("http://{}/v1", support::fake_embedding_server().await);
    let child = maxy(
        &["serve"],
        &[
            ("DATABASE_URL", &url),
            ("MAXY_ADDR", &addr.to_string()),
            ("MAXY_EMBEDDING_URL", &embedding),
            ("MAXY_LOG", "info"),
        ],
    )
    .stdin(Stdio::null())
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .expect("spawn");

    let client = reqwest::Client::new();
    let mut ready = None;
    for _ in 0..100 {
        if let Ok(r) = client.get(format!("http://{addr}/readyz")).send().await {
            ready = Some(r.status());
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        ready,
        Some(reqwest::StatusCode::OK),
        "the server never became ready"
    );
    let tables: i64 =
        sqlx::query_scalar("SELECT count(*) FROM pg_tables WHERE tablename = 'members'")
            .fetch_one(&db)
            .await
            .expect("count");
    assert_eq!(tables, 1, "serve applies the migrations");

    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let out = tokio::task::spawn_blocking(move || child.wait_with_output())
        .await
        .expect("join")
        .expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "exit {:?}: {stderr}", out.status);
    assert!(stderr.contains("stopped cleanly"), "{stderr}");
}
