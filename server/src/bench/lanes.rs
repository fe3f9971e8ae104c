//! `maxy bench lanes`: what a person waits for on the Lieux page while a
//! backlog of venue texts is embedded (docs/adr/0007-embedding-lanes.md).
//!
//! Three measurements of the whole search (query embedding, stages 1–3, the
//! `search_runs` row), side by side in one run:
//! - **idle**: no backlog, the configured lanes;
//! - **backlog, lanes**: while `--venues` venue texts are embedded as
//!   documents through the same client, the configured lanes;
//! - **backlog, one lane**: the same moment, queries sent to the document
//!   server, as before the lanes existed (the baseline).
//!
//! The backlog embeds real venue texts with the pipeline's batch size and
//! writes nothing: the database keeps its vectors, the embedding server
//! does the same work as a backfill or the job workers.
use super::{ms, pct, QUERIES};
use crate::config::{EmbeddingPipeline, EmbeddingSettings};
use crate::embeddings::{EmbeddingProvider, InputType, OpenAiEmbeddings};
use crate::search::{pipeline, request};
use anyhow::Context;
use app::venue_search::SearchForm;
use sqlx::PgPool;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

pub struct Options {
    /// Searches per measurement, over the fixed set of queries.
    pub searches: usize,
    /// Venue texts in the backlog.
    pub venues: usize,
}

pub async fn run(db: &PgPool, settings: &EmbeddingSettings, opts: &Options) -> anyhow::Result<()> {
    let venue_settings = settings.pipeline(EmbeddingPipeline::Venues);
    anyhow::ensure!(
        venue_settings.query_url != venue_settings.base_url,
        "the venue pipeline has one lane ({}): start the query server (scripts/embedder.sh start) \
         or set MAXY_EMBEDDING_QUERY_URL",
        crate::config::redact_url(&venue_settings.base_url)
    );
    // Without the query cache: the fixed queries come back every round, and
    // what is measured is a new wording's wait for the model.
    let lanes: Arc<dyn EmbeddingProvider> = Arc::new(
        OpenAiEmbeddings::new(EmbeddingPipeline::Venues, venue_settings, settings.timeout)?
            .without_query_cache(),
    );
    // Before the lanes: queries on the document server, with its timeout.
    let mut single = venue_settings.clone();
    single.query_url = single.base_url.clone();
    single.query_timeout = settings.timeout;
    let one_lane = OpenAiEmbeddings::new(EmbeddingPipeline::Venues, &single, settings.timeout)?
        .without_query_cache();

    // Venues without a vector get a synthetic one, as in `bench search`:
    // stage 2 then costs what it costs in production.
    super::fill_synthetic(db, lanes.model(), lanes.dimensions()).await?;
    sqlx::query("ANALYZE").execute(db).await?;
    let backlog = backlog_texts(db, opts.venues).await?;
    let plans = QUERIES
        .iter()
        .map(|(pool, text)| {
            let form = SearchForm {
                pool: (*pool).into(),
                text: (*text).into(),
                ..SearchForm::default()
            };
            request::build(&form).map_err(|e| anyhow::anyhow!("{text}: {}", e.0))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let plan = |i: usize| &plans[i % plans.len()];

    // One warm-up pass (plans, buffers, the servers' first requests), not measured.
    for i in 0..plans.len() {
        timed_search(db, lanes.as_ref(), plan(i)).await?;
        timed_search(db, &one_lane, plan(i)).await?;
    }
    let mut idle = Vec::with_capacity(opts.searches);
    for i in 0..opts.searches {
        idle.push(timed_search(db, lanes.as_ref(), plan(i)).await?);
    }

    let stop = Arc::new(AtomicBool::new(false));
    let embedded = Arc::new(AtomicUsize::new(0));
    let batch = venue_settings.batch_size;
    let worker = tokio::spawn(embed_backlog(
        lanes.clone(),
        backlog,
        batch,
        stop.clone(),
        embedded.clone(),
    ));
    // Let the backlog reach the server before measuring.
    while embedded.load(Ordering::Relaxed) == 0 && !worker.is_finished() {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let busy_started = Instant::now();
    let (mut with_lanes, mut without) = (Vec::new(), Vec::new());
    for i in 0..opts.searches {
        if worker.is_finished() {
            break;
        }
        // Alternate which goes first, so neither always meets a fresher batch.
        if i % 2 == 0 {
            with_lanes.push(timed_search(db, lanes.as_ref(), plan(i)).await?);
            without.push(timed_search(db, &one_lane, plan(i)).await?);
        } else {
            without.push(timed_search(db, &one_lane, plan(i)).await?);
            with_lanes.push(timed_search(db, lanes.as_ref(), plan(i)).await?);
        }
    }
    let busy_secs = busy_started.elapsed().as_secs_f64();
    let backlog_done = embedded.load(Ordering::Relaxed);
    stop.store(true, Ordering::Relaxed);
    worker.await.context("the backlog task panicked")??;

    println!(
        "whole search (query embedding + 3 stages), {} searches each; backlog of {} venue texts \
         in batches of {batch} ({} embedded during the measurement, {:.1} texts/s)",
        opts.searches,
        opts.venues,
        backlog_done,
        backlog_done as f64 / busy_secs.max(f64::MIN_POSITIVE)
    );
    anyhow::ensure!(
        !with_lanes.is_empty(),
        "the backlog ended before any search: raise --venues"
    );
    if with_lanes.len() < opts.searches {
        println!(
            "(the backlog ended after {} searches: raise --venues for more)",
            with_lanes.len()
        );
    }
    let report = |name: &str, v: &[Timing]| {
        let fell_back = v.iter().filter(|t| t.fell_back).count();
        let sorted = |f: fn(&Timing) -> f64| {
            let mut x: Vec<f64> = v.iter().map(f).collect();
            x.sort_by(f64::total_cmp);
            x
        };
        let (times, embeds) = (sorted(|t| t.total_ms), sorted(|t| t.embed_ms));
        println!(
            "{name:<36} p50 {:>8.2} ms   p95 {:>8.2} ms   max {:>8.2} ms   (embedding p50 {:>7.2} ms)   keyword fall-backs {fell_back}",
            pct(&times, 0.50),
            pct(&times, 0.95),
            pct(&times, 1.0),
            pct(&embeds, 0.50),
        );
        times
    };
    let idle = report("idle embedder, lanes", &idle);
    let with_lanes = report("backlog running, lanes", &with_lanes);
    let without = report("backlog running, one lane (before)", &without);
    println!(
        "p50 under backlog: lanes {:.1}× idle; one lane {:.1}× lanes",
        pct(&with_lanes, 0.5) / pct(&idle, 0.5),
        pct(&without, 0.5) / pct(&with_lanes, 0.5)
    );
    Ok(())
}

/// One measured search.
struct Timing {
    /// The whole search, as the person waits for it.
    total_ms: f64,
    /// Its query embedding.
    embed_ms: f64,
    /// The query embedding gave up and the search ranked by keywords
    /// (what the person waited for all the same).
    fell_back: bool,
}

async fn timed_search(
    db: &PgPool,
    embedder: &dyn EmbeddingProvider,
    req: &request::SearchRequest,
) -> anyhow::Result<Timing> {
    let t = Instant::now();
    let outcome = pipeline::run(db, Some(embedder), &crate::llm::OfflineLlm, req)
        .await
        .map_err(|_| anyhow::anyhow!("search failed"))?;
    let fell_back = outcome
        .results
        .notices
        .iter()
        .any(|n| n == crate::search::pipeline::NO_VECTORS_NOTICE);
    Ok(Timing {
        total_ms: ms(t),
        embed_ms: outcome.results.stats.embed_ms.unwrap_or(0.0),
        fell_back,
    })
}

/// Embeds `texts` as documents, batch after batch, until done or stopped.
async fn embed_backlog(
    embedder: Arc<dyn EmbeddingProvider>,
    texts: Vec<String>,
    batch: usize,
    stop: Arc<AtomicBool>,
    embedded: Arc<AtomicUsize>,
) -> anyhow::Result<()> {
    for chunk in texts.chunks(batch.max(1)) {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        embedder
            .embed(chunk, InputType::Document)
            .await
            .context("the backlog's embedding failed")?;
        embedded.fetch_add(chunk.len(), Ordering::Relaxed);
    }
    Ok(())
}

/// The embedding texts of the first `n` venues (fewer when there are fewer).
async fn backlog_texts(db: &PgPool, n: usize) -> anyhow::Result<Vec<String>> {
    let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM members ORDER BY id LIMIT $1")
        .bind(i64::try_from(n).context("--venues is too large")?)
        .fetch_all(db)
        .await?;
    anyhow::ensure!(
        !ids.is_empty(),
        "the database has no venues: run `maxy seed` first"
    );
    let texts = crate::venue_embeddings::embedding_text::venue_texts(db, &ids).await?;
    Ok(texts.into_iter().map(|t| t.text).collect())
}
