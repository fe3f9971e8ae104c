//! `maxy user …` and `maxy link …` from the command line, on a real database.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use sqlx::PgPool;
use std::io::Write;
use std::process::{Command, Output, Stdio};
use support::app::{seed_demo, TestApp, ADMIN, PASSWORD, TEAM};

fn maxy(db_url: &str, args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_maxy"))
        .args(args)
        .env_clear()
        .env("DATABASE_URL", db_url)
        .env("MAXY_SECRET_KEY", support::SECRET_KEY)
        .env("MAXY_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[sqlx::test(migrations = "../migrations")]
async fn the_first_admin_is_created_from_the_command_line(db: PgPool) {
    let url = support::url_of(&db).await;
    let password = "a long enough password";
    let out = maxy(
        &url,
        &[
            "user",
            "create",
            "--email",
            "Boss@Example.org",
            "--name",
            "La Patronne",
            "--role",
            "admin",
            "--password-stdin",
        ],
        Some(password),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("created boss@example.org (admin)"));
    assert!(
        !stdout(&out).contains(password),
        "a given password is not echoed"
    );

    let app = TestApp::start(db.clone()).await;
    let session = app.sign_in("boss@example.org", password).await;
    assert_eq!(
        app.get("/console", Some(&session)).await.status,
        StatusCode::OK
    );

    // Reset: a generated password is printed once and every session ends.
    let reset = maxy(
        &url,
        &["user", "reset-password", "--email", "boss@example.org"],
        None,
    );
    assert!(reset.status.success(), "{}", stderr(&reset));
    let printed = stdout(&reset);
    let new_password = printed
        .lines()
        .find_map(|l| l.strip_prefix("password: "))
        .unwrap()
        .to_string();
    assert!(printed.contains("1 session(s) ended"), "{printed}");
    assert_eq!(
        app.get("/console", Some(&session)).await.status,
        StatusCode::SEE_OTHER
    );
    app.sign_in("boss@example.org", &new_password).await;
}

#[sqlx::test(migrations = "../migrations")]
async fn bad_arguments_are_one_clear_line_and_write_nothing(db: PgPool) {
    let url = support::url_of(&db).await;
    for (args, stdin, needle) in [
        (
            vec![
                "user",
                "create",
                "--email",
                "x@example.org",
                "--name",
                "X",
                "--role",
                "boss",
            ],
            None,
            "--role must be team or admin",
        ),
        (
            vec!["user", "create", "--email", "not-an-email", "--name", "X"],
            None,
            "--email must be an e-mail address",
        ),
        (
            vec![
                "user",
                "create",
                "--email",
                "x@example.org",
                "--name",
                "X",
                "--password-stdin",
            ],
            Some("short"),
            "at least 12 characters",
        ),
        (
            vec![
                "user",
                "create",
                "--email",
                "admİn@example.org",
                "--name",
                "X",
            ],
            None,
            "--email must be a plain ASCII e-mail address",
        ),
        (
            vec!["user", "reset-password", "--email", "ghost@example.org"],
            None,
            "no user has the e-mail",
        ),
        (
            vec!["link", "catalogue", "999999"],
            None,
            "no catalogue has the id 999999",
        ),
        (
            vec!["link", "revoke", "999999"],
            None,
            "no active link has the id 999999",
        ),
    ] {
        let out = maxy(&url, &args, stdin);
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let users: i64 = sqlx::query_scalar("SELECT count(*) FROM users")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(users, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn creating_an_existing_user_again_ends_their_sessions(db: PgPool) {
    seed_demo(&db).await;
    let url = support::url_of(&db).await;
    let app = TestApp::start(db.clone()).await;
    let session = app.sign_in(TEAM, PASSWORD).await;
    let other = app.sign_in(ADMIN, PASSWORD).await;
    let password = "another long password";
    let out = maxy(
        &url,
        &[
            "user",
            "create",
            "--email",
            " Camille.Martin@Reciprok.fr",
            "--name",
            "Camille Martin",
            "--role",
            "admin",
            "--password-stdin",
        ],
        Some(password),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("updated camille.martin@reciprok.fr (admin); 1 session(s) ended"),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        app.get("/chat", Some(&session)).await.status,
        StatusCode::SEE_OTHER,
        "a session opened under the old password and role is over"
    );
    assert_eq!(app.get("/chat", Some(&other)).await.status, StatusCode::OK);
    let audited: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM audit_log WHERE action = 'user.updated' AND details->>'sessions_ended' = '1'",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(audited, 1);
    let fresh = app.sign_in(TEAM, password).await;
    assert_eq!(
        app.get("/console", Some(&fresh)).await.status,
        StatusCode::OK
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn links_are_issued_and_revoked_from_the_command_line(db: PgPool) {
    seed_demo(&db).await;
    let url = support::url_of(&db).await;
    let catalogue: i64 =
        sqlx::query_scalar("SELECT id FROM catalogues WHERE status = 'sent' LIMIT 1")
            .fetch_one(&db)
            .await
            .unwrap();
    let out = maxy(&url, &["link", "catalogue", &catalogue.to_string()], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = stdout(&out);
    let path = printed
        .split("http://127.0.0.1:3000")
        .nth(1)
        .unwrap()
        .trim()
        .to_string();
    let id = printed.split_whitespace().nth(1).unwrap().to_string();

    let app = TestApp::start(db.clone()).await;
    assert_eq!(app.get(&path, None).await.status, StatusCode::OK);
    let revoke = maxy(&url, &["link", "revoke", &id], None);
    assert!(revoke.status.success(), "{}", stderr(&revoke));
    assert_eq!(app.get(&path, None).await.status, StatusCode::NOT_FOUND);
}
