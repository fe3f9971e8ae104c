//! `maxy bench streams` runs to its end on a real `maxy serve` process: a
//! few conversations sent through HTTP and followed on their SSE logs,
//! every turn timed from the send to its first words and to its end, and
//! venue searches beside them whose reading and ranking the fake model
//! answers as the search's prompts ask.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use server::bench::streams::{run, Options};
use sqlx::PgPool;
use std::time::Duration;
use support::app::seed_demo;

#[sqlx::test(migrations = "../migrations")]
async fn the_streams_bench_times_turns_through_http_and_sse(db: PgPool) {
    seed_demo(&db).await;
    let options = Options {
        streams: 3,
        searches_per_second: 5,
        duration: Duration::from_secs(2),
        pace: Duration::from_millis(1),
        server: env!("CARGO_BIN_EXE_maxy").into(),
        cookie_name: "maxy_session",
        server_env: vec![
            ("DATABASE_URL".into(), support::url_of(&db).await),
            (
                "MAXY_LEPTOS_CONFIG".into(),
                support::repo_root()
                    .join("Leptos.toml")
                    .display()
                    .to_string(),
            ),
        ],
    };
    let report = run(&db, &options).await.expect("the bench ran");
    assert_eq!(report.errors(), 0, "{:?}", report.whole_answer.first_error);
    let (first, whole) = (&report.first_words.took_ms, &report.whole_answer.took_ms);
    assert!(
        whole.len() >= 3,
        "one turn per conversation at least: {whole:?}"
    );
    assert_eq!(first.len(), whole.len());
    let sum = |v: &[f64]| v.iter().sum::<f64>();
    assert!(sum(first) < sum(whole), "first words come before the end");
    // Every turn of the run closed, none left « en cours ».
    let open: i64 = sqlx::query_scalar("SELECT count(*) FROM ai_turns WHERE status <> 'done'")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(open, 0);

    // The searches: every one answered, at the rate asked.
    assert_eq!(
        report.searches.errors, 0,
        "{:?}",
        report.searches.first_error
    );
    assert_eq!(report.searches_expected, 10);
    assert!(
        report.searches.took_ms.len() >= 10,
        "{:?}",
        report.searches.took_ms
    );
    // The model read and ranked them, and no answer of its was refused.
    let calls: Vec<(String, String, i64)> = sqlx::query_as(
        "SELECT task, status, count(*) FROM llm_calls WHERE task IN ('parse', 'rank')
          GROUP BY task, status ORDER BY task, status",
    )
    .fetch_all(&db)
    .await
    .unwrap();
    let ok = |task: &str| {
        calls
            .iter()
            .any(|(t, status, n)| t == task && status == "ok" && *n >= 10)
    };
    assert!(ok("parse") && ok("rank"), "{calls:?}");
    assert!(
        calls.iter().all(|(_, status, _)| status == "ok"),
        "{calls:?}"
    );
    // The server's memory was read.
    assert!(report.memory.idle > 0 && report.memory.after > 0);
}
