//! The search's latency with and without training (docs/benchmarks.md):
//! the whole search (3 stages, deterministic ranking, no query embedding so
//! the embedding server's own latency stays out of the figure) over a copy
//! of the 70,000-venue demo, first with no training session, then with 20
//! of the queried kinds of event (10 guidelines, 10 verdicts).
//!
//! Ignored by default; run against your own copy (it deletes and writes
//! training sessions):
//!
//! ```sh
//! psql -c "CREATE DATABASE bench_training TEMPLATE bench"
//! TRAINING_BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:54329/bench_training \
//!   cargo test -p server --test training_bench -- --ignored --nocapture
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark fails loudly by design
use app::venue_search::SearchForm;
use server::bench::pct;
use server::search::{pipeline, request};
use sqlx::PgPool;
use std::time::Instant;

const QUERIES: &[(&str, &str)] = &[
    (
        "lieux-atypiques",
        "rooftop festif avec vue sur Paris dans le 8e pour 100 personnes en cocktail",
    ),
    (
        "restaurants",
        "dîner assis pour 60 personnes près de la tour Eiffel",
    ),
    (
        "hotels",
        "séminaire de direction 25 personnes en U à Boulogne",
    ),
    (
        "hotels",
        "soirée de gala 300 personnes en banquet dans le 16e",
    ),
    (
        "salles-seminaires",
        "conférence 200 personnes en théâtre à moins de 5 km de la gare de Lyon",
    ),
    (
        "salles-seminaires",
        "formation 30 personnes en école Paris 9",
    ),
    (
        "chateaux",
        "mariage champêtre 150 personnes en banquet avec jardin",
    ),
    ("restaurants", "cocktail 120 personnes ambiance chic"),
];

const ROUNDS: usize = 10;

async fn measure(db: &PgPool) -> (f64, f64, f64, f64) {
    let plans: Vec<_> = QUERIES
        .iter()
        .map(|(pool, text)| {
            request::build(&SearchForm {
                pool: (*pool).into(),
                text: (*text).into(),
                ..SearchForm::default()
            })
            .unwrap()
        })
        .collect();
    // Warm-up, not measured.
    for req in &plans {
        let _ = pipeline::run(db, None, &server::llm::OfflineLlm, req).await;
    }
    let (mut times, mut sql, mut rank) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        for req in &plans {
            let t = Instant::now();
            let Ok(outcome) = pipeline::run(db, None, &server::llm::OfflineLlm, req).await else {
                panic!("search failed")
            };
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            sql.push(outcome.results.stats.sql_ms);
            rank.push(outcome.results.stats.rank_ms);
        }
    }
    for v in [&mut times, &mut sql, &mut rank] {
        v.sort_by(f64::total_cmp);
    }
    // Whole search p50 and p95; SQL stages p50; ranking p50.
    (
        pct(&times, 0.5),
        pct(&times, 0.95),
        pct(&sql, 0.5),
        pct(&rank, 0.5),
    )
}

#[tokio::test]
#[ignore = "benchmark: needs TRAINING_BENCH_DATABASE_URL, a copy of the demo it may write to"]
async fn search_latency_with_and_without_training() {
    let url = std::env::var("TRAINING_BENCH_DATABASE_URL").expect("TRAINING_BENCH_DATABASE_URL");
    let db = PgPool::connect(&url).await.unwrap();
    server::db::MIGRATOR.run(&db).await.unwrap();
    // Three times each way, alternated, so a busy moment of the machine shows.
    let mut without = Vec::new();
    let mut with = Vec::new();
    for _ in 0..3 {
        sqlx::query("DELETE FROM training_sessions")
            .execute(&db)
            .await
            .unwrap();
        without.push(measure(&db).await);
        sqlx::raw_sql(include_str!("data/training_bench_sessions.sql"))
            .execute(&db)
            .await
            .unwrap();
        let n: i64 = sqlx::query_scalar("SELECT count(*) FROM training_sessions")
            .fetch_one(&db)
            .await
            .unwrap();
        assert_eq!(n, 20);
        with.push(measure(&db).await);
    }
    // The training query alone, as the search runs it.
    let req = request::build(&SearchForm {
        pool: "restaurants".into(),
        text: "cocktail 120 personnes ambiance chic".into(),
        ..SearchForm::default()
    })
    .unwrap();
    let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM members ORDER BY id LIMIT 50")
        .fetch_all(&db)
        .await
        .unwrap();
    let mut alone = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        server::search::lessons::Lessons::load(&db, &req, &ids)
            .await
            .unwrap();
        alone.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    alone.sort_by(f64::total_cmp);
    println!(
        "{} searches × {ROUNDS} rounds, (whole p50, whole p95, stages 1-2 p50, stage 3 p50) in ms: without training {without:.2?}; \
         with 20 sessions {with:.2?}; training query alone p50 {:.2} ms p95 {:.2} ms",
        QUERIES.len(),
        pct(&alone, 0.5),
        pct(&alone, 0.95)
    );
}
