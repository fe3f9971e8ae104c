//! The venue search ranks by meaning, with the real local model (the one
//! `scripts/embedder.sh start` runs and CI starts): a terrace at sunset over
//! the roofs of Paris answers "rooftop romantique vue Eiffel", a workshop with
//! exposed beams answers "loft industriel", though they share no word. The
//! showcase venues of the demo data (demo/src/showcase.rs) are written
//! without those keywords; a test there checks it. Fails, never skips, when
//! the model is down.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use app::venue_search::{SearchForm, SearchResults};
use server::config::{Config, Env};
use server::embeddings::Embedders;
use server::search::SearchService;
use server::venue_embeddings::backfill::{backfill, BackfillOptions};
use sqlx::PgPool;

fn local_model_url() -> String {
    std::env::var("MAXY_TEST_EMBEDDING_URL").unwrap_or_else(|_| "http://127.0.0.1:8089/v1".into())
}

/// Seeds a small demo (the showcases come first) and embeds every venue
/// with the real model, through the same backfill `maxy embed venues` runs.
async fn embedded_demo(db: &PgPool) -> SearchService {
    let options = server::demo::SeedOptions {
        seed: 11,
        members: 30,
        progress: false,
    };
    server::demo::seed(db, &options).await.unwrap();
    let url = local_model_url();
    let config = Config::from_source(&Env::from_pairs([
        ("MAXY_EMBEDDING_URL", url.as_str()),
        ("MAXY_EMBEDDING_TIMEOUT_MS", "60000"),
    ]))
    .unwrap();
    let embedders = Embedders::from_settings(&config.embeddings).unwrap();
    let (_stop_tx, stop) = tokio::sync::watch::channel(false);
    let options = BackfillOptions {
        batch: 8,
        ..BackfillOptions::default()
    };
    let (summary, outcome) = backfill(db, embedders.venues.as_ref(), &options, &stop).await;
    outcome.unwrap_or_else(|e| {
        panic!("embedding the demo venues with the local model at {url} failed ({e:#}); run `scripts/embedder.sh start`")
    });
    assert!(
        summary.embedded >= 30,
        "{} venues embedded",
        summary.embedded
    );
    SearchService {
        read_db: None,
        db: db.clone(),
        embedder: Some(embedders.venues.clone()),
        llm: std::sync::Arc::new(server::llm::OfflineLlm),
    }
}

async fn search(service: &SearchService, pool: &str, text: &str) -> SearchResults {
    let form = SearchForm {
        pool: pool.into(),
        text: text.into(),
        ..SearchForm::default()
    };
    service.search(None, &form).await.unwrap()
}

async fn pool_of(db: &PgPool, venue: &str) -> String {
    sqlx::query_scalar(
        "SELECT p.slug FROM members m JOIN pools p ON p.id = m.pool_id WHERE m.name = $1",
    )
    .bind(venue)
    .fetch_one(db)
    .await
    .unwrap_or_else(|e| panic!("the demo data has no {venue}: {e}"))
}

/// Where `venue` ranks among the picks (recommended then compatible), by name.
fn rank_of(results: &SearchResults, venue: &str) -> Option<usize> {
    results
        .recommended
        .iter()
        .chain(&results.compatible)
        .position(|p| p.name == venue)
}

/// `venue` is among the three most similar picks (stage 2) and among the
/// four best after ranking (stage 3 weighs history and fit too), with its
/// similarity and a reason shown.
fn assert_found_by_meaning(results: &SearchResults, venue: &str) {
    assert_eq!(
        results.stats.similarity_source, "vector",
        "{:?}",
        results.notices
    );
    let picks: Vec<_> = results
        .recommended
        .iter()
        .chain(&results.compatible)
        .collect();
    let described: Vec<String> = picks
        .iter()
        .map(|p| format!("{} (similarity {:?})", p.name, p.similarity))
        .collect();
    let rank = rank_of(results, venue)
        .unwrap_or_else(|| panic!("{venue} is not among the picks: {described:?}"));
    assert!(
        rank < 4,
        "{venue} should rank in the top 4, ranks {rank}: {described:?}"
    );
    let pick = picks[rank];
    let similarity = pick.similarity.expect("a vector similarity");
    let more_similar = picks
        .iter()
        .filter(|p| p.similarity.is_some_and(|s| s > similarity))
        .count();
    assert!(
        more_similar < 3,
        "{venue} should be among the 3 most similar, {more_similar} are more: {described:?}"
    );
    assert!(!pick.reason.is_empty(), "a reason is shown: {pick:?}");
}

#[sqlx::test(migrations = "../migrations")]
async fn venues_are_found_by_meaning_not_by_shared_words(db: PgPool) {
    let service = embedded_demo(&db).await;

    let terrace = "Le Belvédère Saint-Georges";
    let pool = pool_of(&db, terrace).await;
    let results = search(&service, &pool, "rooftop romantique vue Eiffel").await;
    assert_found_by_meaning(&results, terrace);

    let workshop = "Atelier Oberkampf";
    let pool = pool_of(&db, workshop).await;
    let results = search(&service, &pool, "loft industriel").await;
    assert_found_by_meaning(&results, workshop);

    // The control: the terrace does not top a query it has nothing to do with.
    let pool = pool_of(&db, terrace).await;
    let results = search(&service, &pool, "salle de réunion en sous-sol sans fenêtre").await;
    assert_ne!(
        rank_of(&results, terrace),
        Some(0),
        "the terrace must not top an unrelated query"
    );
}
