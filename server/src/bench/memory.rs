//! `maxy bench memory`: the memory search's vector path at the issue's
//! scale — one user's 10,000 memories among 100 other users' as many
//! (1,010,000 rows) — and the whole search a person waits for, side by
//! side with its vector path ([`whole`]).
//!
//! Rows are synthetic (seeded once, deterministically, under the model name
//! [`MODEL`] so they never mix with real vectors): 1,000 random directions
//! plus one of 1,000 random offsets each, so vectors cluster like texts do.
//! Their texts are French notes built from a small vocabulary ([`seed`]),
//! so a common word (« semaine », « traiteur », « salle ») is in thousands
//! of a user's rows, as in real life, and the full-text step costs what it
//! would. Queries of the SQL comparison are other users' vectors: near some
//! of the user's rows, never equal to one.
//!
//! Measured side by side, same queries, same run:
//! - **covering index** (what the app runs, ADR 0017): an index-only scan
//!   of the user's entries in `<table>_user_vectors_<dims>`, exact;
//! - **heap scan** (baseline): the same exact query with index-only scans
//!   off, so each of the user's rows is read from its heap page;
//! - **HNSW** (`--hnsw`): pgvector's graph with `hnsw.iterative_scan =
//!   relaxed_order`, filtered to the user; its recall against the exact top 10.
use super::{ms, pct};
use crate::db::memory_vectors;
use crate::embeddings::EmbeddingProvider;
use crate::memory::vector_index;
use pgvector::Vector;
use sqlx::PgPool;
use std::sync::Arc;
use std::time::Instant;

mod seed;
mod whole;

/// The model name of the synthetic rows.
pub const MODEL: &str = "bench-synthetic";
const TOP: i64 = 10;

pub struct Options {
    pub users: i64,
    pub per_user: i64,
    pub searches: usize,
    pub hnsw: bool,
}

/// `direct`: PostgreSQL itself (`db::direct_pool`), for the index build's
/// session lock; `db` for the rest.
pub async fn run(
    db: &PgPool,
    direct: &PgPool,
    embedder: &Arc<dyn EmbeddingProvider>,
    opts: &Options,
) -> anyhow::Result<()> {
    let dims = embedder.dimensions();
    let users = seed::seed(db, opts, dims).await?;
    let target = users[0];
    let built = vector_index::ensure(direct, dims).await?;
    if !built.is_empty() {
        sqlx::query("VACUUM ANALYZE ai_memories")
            .execute(db)
            .await?;
    }
    let hnsw_index = format!("ai_memories_hnsw_{dims}");
    if opts.hnsw {
        println!("building {hnsw_index} (minutes at a million rows)…");
        let started = Instant::now();
        let mut tx = db.begin().await?;
        // The graph must fit in memory while it is built, or the build
        // takes hours on disk.
        sqlx::query("SET LOCAL maintenance_work_mem = '4GB'")
            .execute(&mut *tx)
            .await?;
        sqlx::query(&format!(
            "CREATE INDEX IF NOT EXISTS {hnsw_index} ON ai_memories
               USING hnsw ((embedding::vector({dims})) vector_cosine_ops)
             WHERE vector_dims(embedding) = {dims}"
        ))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        println!("  built in {:.0} s", started.elapsed().as_secs_f64());
    }
    let queries = queries(db, target, opts.searches, dims).await?;
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM ai_memories WHERE user_id = $1")
        .bind(target)
        .fetch_one(db)
        .await?;
    println!(
        "memory vector path, user {target} ({rows} memories) among {} users, {} searches, top {TOP}:",
        users.len(),
        queries.len()
    );

    // Warm both paths once (a first search of the day reads from disk: see
    // the cold figures in docs/benchmarks.md).
    for q in queries.iter().take(3) {
        top(db, target, q, dims, Path::Covering).await?;
        top(db, target, q, dims, Path::Heap).await?;
    }
    let mut exact = Vec::with_capacity(queries.len());
    let mut timings: Vec<(Path, Vec<f64>, f64)> = Vec::new();
    let mut paths = vec![Path::Covering, Path::Heap];
    if opts.hnsw {
        paths.push(Path::Hnsw);
    }
    for path in paths {
        let mut times = Vec::with_capacity(queries.len());
        let mut found = 0usize;
        let mut wanted = 0usize;
        for (i, q) in queries.iter().enumerate() {
            let started = Instant::now();
            let ids = top(db, target, q, dims, path).await?;
            times.push(ms(started));
            if path == Path::Covering {
                exact.push(ids);
            } else {
                wanted += exact[i].len();
                found += ids.iter().filter(|id| exact[i].contains(id)).count();
            }
        }
        times.sort_by(f64::total_cmp);
        let recall = if path == Path::Covering {
            1.0
        } else {
            found as f64 / wanted.max(1) as f64
        };
        timings.push((path, times, recall));
    }
    let baseline = pct(&timings[1].1, 0.5);
    for (path, times, recall) in &timings {
        println!(
            "  {:<16} p50 {:>6.2} ms  p95 {:>6.2} ms  p99 {:>6.2} ms  recall {:.3}  ({:.2}× the heap scan)",
            path.label(),
            pct(times, 0.5),
            pct(times, 0.95),
            pct(times, 0.99),
            recall,
            pct(times, 0.5) / baseline.max(f64::EPSILON),
        );
    }
    if opts.hnsw {
        println!("  (dropping {hnsw_index}: the app does not use it)");
        sqlx::query(&format!("DROP INDEX IF EXISTS {hnsw_index}"))
            .execute(db)
            .await?;
    }

    whole::words_plan(db, target).await?;
    whole::run(db, embedder, target, opts.searches).await
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Path {
    Covering,
    Heap,
    Hnsw,
}

impl Path {
    fn label(self) -> &'static str {
        match self {
            Path::Covering => "covering index",
            Path::Heap => "heap scan",
            Path::Hnsw => "HNSW iterative",
        }
    }
}

/// The user's top ids by cosine distance along `path`.
async fn top(
    db: &PgPool,
    user_id: i64,
    query: &Vector,
    dims: u32,
    path: Path,
) -> anyhow::Result<Vec<i64>> {
    let mut tx = db.begin().await?;
    let setting = match path {
        Path::Covering => "SET LOCAL enable_seqscan = on",
        Path::Heap => "SET LOCAL enable_indexonlyscan = off",
        Path::Hnsw => "SET LOCAL hnsw.iterative_scan = relaxed_order",
    };
    sqlx::query(setting).execute(&mut *tx).await?;
    if path == Path::Hnsw {
        // Keeps the planner off the covering index for this comparison.
        sqlx::query(&format!(
            "DROP INDEX IF EXISTS {}",
            vector_index::name("ai_memories", dims)
        ))
        .execute(&mut *tx)
        .await?;
    }
    let ids: Vec<i64> = if path == Path::Hnsw {
        // The app's query keeps off ANN indexes; this one invites it.
        sqlx::query_scalar(&format!(
            "SELECT id FROM ai_memories
              WHERE user_id = $1 AND vector_dims(embedding) = {dims} AND embedding_model = $2
              ORDER BY embedding::vector({dims}) <=> $3::vector({dims}) LIMIT {TOP}"
        ))
        .bind(user_id)
        .bind(MODEL)
        .bind(query)
        .fetch_all(&mut *tx)
        .await?
    } else {
        // What the memory search runs.
        memory_vectors::nearest(&mut *tx, user_id, query, dims, MODEL, TOP)
            .await?
            .into_iter()
            .map(|h| h.id)
            .collect()
    };
    // Never commit: the HNSW comparison dropped the covering index in here.
    tx.rollback().await?;
    Ok(ids)
}

/// `n` query vectors: other users' rows, so near but never equal to the
/// target's.
async fn queries(db: &PgPool, target: i64, n: usize, dims: u32) -> anyhow::Result<Vec<Vector>> {
    let rows: Vec<Vector> = sqlx::query_scalar(&format!(
        "SELECT embedding::vector({dims}) FROM ai_memories
          WHERE embedding_model = $1 AND user_id <> $2
          ORDER BY id LIMIT $3"
    ))
    .bind(MODEL)
    .bind(target)
    .bind(i64::try_from(n)? * 37)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().step_by(37).take(n).collect())
}
