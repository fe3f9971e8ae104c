//! PostgreSQL restarted under load, on a private cluster of its own (the
//! shared test server is never touched): while it is down, pages and
//! server functions fail cleanly (503 in French, never a 500 or a hung
//! request), and once it is back the same server process answers again,
//! sessions included, without being restarted.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use reqwest::StatusCode;
use sqlx::postgres::PgPoolOptions;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

/// A PostgreSQL cluster in a temporary folder, stopped and removed on drop.
struct Cluster {
    bin: PathBuf,
    data: PathBuf,
    port: u16,
}

fn as_postgres(program: &std::path::Path) -> Command {
    // initdb and postgres refuse to run as root: CI runs the tests as root.
    if nix_root() {
        let mut cmd = Command::new("runuser");
        cmd.args(["-u", "postgres", "--"]).arg(program);
        cmd
    } else {
        Command::new(program)
    }
}

fn nix_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

impl Cluster {
    async fn start() -> Cluster {
        // The binaries of the shared test server's major version.
        let shared = sqlx::PgPool::connect(&std::env::var("DATABASE_URL").expect("DATABASE_URL"))
            .await
            .unwrap();
        let major: i32 =
            sqlx::query_scalar("SELECT current_setting('server_version_num')::int / 10000")
                .fetch_one(&shared)
                .await
                .unwrap();
        let bin = PathBuf::from(format!("/usr/lib/postgresql/{major}/bin"));
        assert!(
            bin.join("pg_ctl").exists(),
            "no PostgreSQL {major} server binaries in {bin:?}"
        );
        let port = support::closed_port().await.port();
        let data =
            std::env::temp_dir().join(format!("maxy-pg-restart-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&data).unwrap();
        if nix_root() {
            assert!(Command::new("chown")
                .args(["postgres:postgres"])
                .arg(&data)
                .status()
                .unwrap()
                .success());
        }
        let cluster = Cluster { bin, data, port };
        let out = as_postgres(&cluster.bin.join("initdb"))
            .args([
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C.UTF-8",
                "-D",
            ])
            .arg(&cluster.data)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "initdb: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        cluster.ctl(&["start"]);
        cluster
    }

    fn ctl(&self, action: &[&str]) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            self.port,
            self.data.display()
        );
        let out = as_postgres(&self.bin.join("pg_ctl"))
            .args(action)
            .args(["-w", "-m", "fast", "-t", "30", "-D"])
            .arg(&self.data)
            .args(["-o", &options, "-l"])
            .arg(self.data.join("log"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "pg_ctl {action:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = as_postgres(&self.bin.join("pg_ctl"))
            .args(["stop", "-w", "-m", "immediate", "-D"])
            .arg(&self.data)
            .output();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

/// The statuses of `path` fetched by `app` every 50 ms for `run` (a GET,
/// or a POST for a server function).
async fn hammer(
    app: &TestApp,
    session: &str,
    path: &str,
    run: Duration,
) -> Vec<(Duration, StatusCode, String)> {
    let started = Instant::now();
    let mut seen = Vec::new();
    while started.elapsed() < run {
        let reply = if path.starts_with("/api/") {
            app.post_form(path, &[], Some(session)).await
        } else {
            app.get(path, Some(session)).await
        };
        seen.push((started.elapsed(), reply.status, reply.body));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_fails_requests_cleanly_and_the_server_recovers_alone() {
    let cluster = Cluster::start().await;
    let admin = sqlx::PgPool::connect(&cluster.url("postgres"))
        .await
        .unwrap();
    sqlx::query("CREATE DATABASE maxy")
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
    // A short connect timeout: requests during the outage answer quickly.
    let db = PgPoolOptions::new()
        .max_connections(8)
        .acquire_timeout(Duration::from_secs(2))
        .connect(&cluster.url("maxy"))
        .await
        .unwrap();
    sqlx::migrate!("../migrations").run(&db).await.unwrap();
    seed_demo(&db).await;
    let app = TestApp::start(db.clone()).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    assert_eq!(
        app.get("/demandes", Some(&team)).await.status,
        StatusCode::OK
    );

    // Load on a page and a server function while PostgreSQL restarts.
    let load = {
        let (app, team) = (&app, team.clone());
        async move {
            tokio::join!(
                hammer(app, &team, "/demandes", Duration::from_secs(8)),
                hammer(app, &team, "/api/session/user", Duration::from_secs(8)),
            )
        }
    };
    let restart = async {
        tokio::time::sleep(Duration::from_secs(1)).await;
        // Down for a while (stop, wait, start), as a crash and a restart.
        tokio::task::block_in_place(|| cluster.ctl(&["stop"]));
        tokio::time::sleep(Duration::from_secs(2)).await;
        tokio::task::block_in_place(|| cluster.ctl(&["start"]));
    };
    let ((page, function), ()) = tokio::join!(load, restart);

    for (label, seen) in [("page", &page), ("server function", &function)] {
        for (at, status, body) in seen.iter() {
            assert!(
                *status == StatusCode::OK || *status == StatusCode::SERVICE_UNAVAILABLE,
                "{label} at {at:?}: {status} {body}"
            );
            if *status == StatusCode::SERVICE_UNAVAILABLE {
                assert!(
                    body.contains("momentanément indisponible"),
                    "{label}: {body}"
                );
            }
        }
        assert!(
            seen.iter()
                .any(|(_, s, _)| *s == StatusCode::SERVICE_UNAVAILABLE),
            "{label}: the outage was seen"
        );
        // Back without restarting the server: the last second answers.
        let tail: Vec<_> = seen
            .iter()
            .filter(|(at, _, _)| *at > Duration::from_secs(7))
            .collect();
        assert!(
            !tail.is_empty() && tail.iter().all(|(_, s, _)| *s == StatusCode::OK),
            "{label}: {tail:?}"
        );
    }
    // The session lived in the database: still signed in.
    let after = app.post_form("/api/session/user", &[], Some(&team)).await;
    assert!(after.body.contains("Camille"), "{}", after.body);
    db.close().await;
}
