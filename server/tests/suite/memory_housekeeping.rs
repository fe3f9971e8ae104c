//! The memory's periodic housekeeping: the idle sweep also prunes the
//! record of memory searches (`memory_searches`) past its keeping time
//! (90 days by default), and keeps everything younger — the memory page's
//! 30-day chart reads the same rows.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use server::agent::memory_summary::{Summariser, SummarySettings};
use server::memory::MemoryStore;
use sqlx::PgPool;
use std::sync::Arc;

async fn summariser(db: &PgPool, settings: SummarySettings) -> Summariser {
    let addr = support::fake_embedding_server().await;
    let url = format!("http://{addr}/v1");
    let config = server::config::Config::from_source(&server::config::Env::from_pairs([
        ("MAXY_EMBEDDING_URL", url.as_str()),
        ("MAXY_EMBEDDING_TIMEOUT_MS", "500"),
    ]))
    .unwrap();
    let embedder = server::embeddings::Embedders::from_settings(&config.embeddings)
        .unwrap()
        .memory;
    let floor = server::memory::floor::for_model(embedder.model(), None);
    let store = Arc::new(MemoryStore::new(db.clone(), embedder, floor));
    Summariser::new(
        db.clone(),
        store,
        Arc::new(server::llm::OfflineLlm),
        settings,
    )
}

/// `n` searches by `user`, `days_ago` days old, in id order.
async fn searches(db: &PgPool, user: i64, n: i32, days_ago: i32) {
    sqlx::query(
        "INSERT INTO memory_searches (user_id, source, best_similarity, hits, created_at)
         SELECT $1, 'fts', NULL, 1, now() - make_interval(days => $3) FROM generate_series(1, $2)",
    )
    .bind(user)
    .bind(n)
    .bind(days_ago)
    .execute(db)
    .await
    .unwrap();
}

async fn ages(db: &PgPool) -> Vec<(i32, i64)> {
    sqlx::query_as(
        "SELECT (extract(day FROM now() - created_at))::int AS days, count(*)
           FROM memory_searches GROUP BY 1 ORDER BY 1",
    )
    .fetch_all(db)
    .await
    .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn the_sweep_prunes_searches_older_than_ninety_days_only(db: PgPool) {
    let user: i64 = sqlx::query_scalar(
        "INSERT INTO users (email, display_name) VALUES ('ana@reciprok.fr', 'Ana') RETURNING id",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    searches(&db, user, 7_000, 200).await;
    searches(&db, user, 3, 91).await;
    searches(&db, user, 4, 89).await;
    searches(&db, user, 5, 0).await;
    let s = summariser(&db, SummarySettings::default()).await;
    assert_eq!(s.settings.keep_searches_days, 90);

    // More than one statement's window: the pass goes on until it is done.
    assert_eq!(s.prune_searches().await.unwrap(), 7_003);
    assert_eq!(ages(&db).await, [(0, 5), (89, 4)]);
    assert_eq!(s.prune_searches().await.unwrap(), 0, "idempotent");

    // The keeping time is a setting.
    let short = summariser(
        &db,
        SummarySettings {
            keep_searches_days: 30,
            ..SummarySettings::default()
        },
    )
    .await;
    assert_eq!(short.prune_searches().await.unwrap(), 4);
    assert_eq!(ages(&db).await, [(0, 5)]);
}
