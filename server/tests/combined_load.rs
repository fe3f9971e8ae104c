//! The combined load, bounded for CI: 200 conversations streaming at once
//! and kept busy, while 50 venue searches a second go through the real
//! search service, for 20 s (`maxy bench load` runs the same code for 60 s
//! and more: docs/benchmarks.md). The model and the embedding server are
//! local fakes speaking their real wire protocols; PostgreSQL is real, with
//! a pool of 20 connections. Zero errors — no refused send, no turn left
//! unfinished, no failed search — and memory flat once the load has
//! settled.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use server::bench::load::{run, Options};
use server::config::{Config, Env};
use server::embeddings::Embedders;
use server::venue_embeddings::backfill::{backfill, BackfillOptions};
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;
use std::time::Duration;

#[sqlx::test(migrations = "../migrations")]
async fn two_hundred_streams_and_fifty_searches_a_second_without_an_error(db: PgPool) {
    let options = server::demo::SeedOptions {
        seed: 7,
        members: 1000,
        progress: false,
    };
    server::demo::seed(&db, &options).await.expect("seed");
    let embedding = format!("http://{}/v1", support::fake_embedding_server().await);
    let config = Config::from_source(&Env::from_pairs([(
        "MAXY_EMBEDDING_URL",
        embedding.as_str(),
    )]))
    .unwrap();
    let venues = Embedders::from_settings(&config.embeddings).unwrap().venues;
    // Every venue has its vector, so the search's vector stage runs.
    let (_stop, running) = tokio::sync::watch::channel(false);
    let (_, embedded) = backfill(&db, venues.as_ref(), &BackfillOptions::default(), &running).await;
    embedded.unwrap();

    let pool = PgPoolOptions::new()
        .max_connections(20)
        .connect(&support::url_of(&db).await)
        .await
        .unwrap();
    let load = Options {
        streams: 200,
        searches_per_second: 50,
        duration: Duration::from_secs(20),
        pace: Duration::from_millis(20),
    };
    let mut report = run(&pool, venues, &load).await.unwrap();
    report.print();

    assert_eq!(
        report.errors(),
        0,
        "turns: {:?}; searches: {:?}",
        report.turns.first_error,
        report.searches.first_error
    );
    assert!(
        report.turns.took_ms.len() >= 200,
        "every stream finished turns"
    );
    let started = (report.searches.took_ms.len() + report.searches.errors) as u64;
    assert!(
        started * 100 >= report.searches_expected * 95,
        "{started} of {} searches started",
        report.searches_expected
    );
    assert!(
        report.memory.flat(),
        "memory grew under load: {} KiB settled, {} KiB at the end",
        report.memory.settled,
        report.memory.after
    );
    pool.close().await;
}
