//! `maxy bench search`: stages 1+2 of the venue search over a large seeded
//! database, against a naive baseline measured in the same run (fetch every
//! candidate's vector and rank in the application), plus the whole search.
//! Figures and how to rerun: docs/benchmarks.md. [`lanes`] measures the same
//! whole search while a backlog of embeddings runs.
use crate::db::venue_search::{self as q, HardFilter, Nearby, QueryVector};
use crate::embeddings::{EmbeddingProvider, InputType};
use crate::search::{pipeline, request};
use anyhow::Context;
use app::venue_search::SearchForm;
use pgvector::Vector;
use rand::{Rng, SeedableRng};
use sqlx::{PgPool, Postgres, QueryBuilder};
use std::time::Instant;

pub mod chat;
pub mod fake_model;
pub mod lanes;
pub mod load;
pub mod memory;
pub mod playbooks;
pub mod search_model;
pub mod streams;

/// Varied searches: pool-wide, one arrondissement, several, a radius, tight
/// and loose capacities, one or two configurations.
pub(crate) const QUERIES: &[(&str, &str)] = &[
    (
        "lieux-atypiques",
        "rooftop festif avec vue sur Paris dans le 8e pour 100 personnes en cocktail",
    ),
    (
        "lieux-atypiques",
        "loft industriel Paris 11 ou 20 pour 90 personnes",
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
    ("lieux-atypiques", "péniche pour 80 personnes en cocktail"),
    (
        "hotels",
        "petit-déjeuner d'affaires 15 personnes en réunion dans le 2e",
    ),
    (
        "lieux-atypiques",
        "n'importe où en Île-de-France pour 40 personnes",
    ),
];

pub struct Options {
    pub iterations: usize,
    pub synthetic_dims: Option<u32>,
}

pub async fn run(
    db: &PgPool,
    embedder: &dyn EmbeddingProvider,
    opts: &Options,
) -> anyhow::Result<()> {
    let members: i64 = sqlx::query_scalar("SELECT count(*) FROM members")
        .fetch_one(db)
        .await?;
    anyhow::ensure!(
        members > 0,
        "the database has no venues: run `maxy seed --members 70000` first"
    );
    let model = embedder.model().to_string();
    let dims = opts.synthetic_dims.unwrap_or(embedder.dimensions());
    fill_synthetic(db, &model, dims).await?;
    sqlx::query("ANALYZE").execute(db).await?;

    // Query vectors: the real model when it answers (the semantic part is
    // then meaningful), random unit vectors otherwise (same cost).
    let mut plans = Vec::new();
    for (pool, text) in QUERIES {
        let form = SearchForm {
            pool: (*pool).into(),
            text: (*text).into(),
            ..SearchForm::default()
        };
        let req = request::build(&form).map_err(|e| anyhow::anyhow!("{text}: {}", e.0))?;
        let vector = match embedder
            .embed(std::slice::from_ref(&req.semantic_query), InputType::Query)
            .await
        {
            Ok(mut v) if !v.is_empty() && v[0].len() == dims as usize => v.swap_remove(0),
            _ => random_unit(dims as usize, text.len() as u64),
        };
        let pool_id = q::pool_by_slug(db, &form.pool)
            .await?
            .with_context(|| format!("no pool {}", form.pool))?
            .id;
        plans.push((pool_id, req, vector));
    }

    let mut ours = Vec::new();
    // Per query: (ours, naive) times and candidate counts, for the breakdown.
    let mut per_query: Vec<(Vec<f64>, Vec<f64>, usize, usize)> =
        vec![(Vec::new(), Vec::new(), 0, 0); plans.len()];
    let mut naive = Vec::new();
    let mut whole = Vec::new();
    let mut candidates_seen = Vec::new();
    for round in 0..opts.iterations {
        for (i, (pool_id, req, vector)) in plans.iter().enumerate() {
            let configs = req.configuration_keys();
            let filter = HardFilter {
                pool_id: Some(*pool_id),
                configurations: &configs,
                min_capacity: req.min_capacity(),
                postal_codes: &req.postal_codes,
                departments: &[],
                excluded_postal_codes: &[],
                excluded_departments: &[],
                excluded_kinds: &[],
                wanted_tags: &[],
                radius: req.radius_metres(),
                reference: req
                    .near
                    .as_ref()
                    .map_or(crate::geo::PARIS_CENTRE, |n| (n.lat, n.lng)),
                limit: pipeline::MAX_CANDIDATES as i64 + 1,
            };
            let v = Vector::from(vector.clone());
            // Alternate the order so neither side always runs on a warmer cache.
            let (a, b) = if round % 2 == 0 {
                let a = stages(db, &filter, &v, &model, dims, false).await?;
                (a, stages(db, &filter, &v, &model, dims, true).await?)
            } else {
                let b = stages(db, &filter, &v, &model, dims, true).await?;
                (stages(db, &filter, &v, &model, dims, false).await?, b)
            };
            ours.push(a.0);
            naive.push(b.0);
            candidates_seen.push(a.1);
            per_query[i].0.push(a.0);
            per_query[i].1.push(b.0);
            per_query[i].2 = a.1;
            per_query[i].3 = b.1;
            let t = Instant::now();
            let _ = pipeline::run(db, Some(embedder), &crate::llm::OfflineLlm, req)
                .await
                .map_err(|_| anyhow::anyhow!("search failed"))?;
            whole.push(ms(t));
        }
    }
    let report = |name: &str, v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        println!(
            "{name:<38} p50 {:>8.2} ms   p95 {:>8.2} ms   p99 {:>8.2} ms",
            pct(v, 0.50),
            pct(v, 0.95),
            pct(v, 0.99)
        );
    };
    println!(
        "{members} venues, {} searches × {} rounds, vectors of {dims} dims ({model})",
        plans.len(),
        opts.iterations
    );
    candidates_seen.sort_unstable();
    println!(
        "candidates after stage 1: min {} / median {} / max {}",
        candidates_seen[0],
        candidates_seen[candidates_seen.len() / 2],
        candidates_seen[candidates_seen.len() - 1]
    );
    println!("per query (p50): ours / naive, candidates ours / naive");
    for ((_, text), (mut a, mut b, ca, cb)) in QUERIES.iter().zip(per_query) {
        a.sort_by(f64::total_cmp);
        b.sort_by(f64::total_cmp);
        println!(
            "  {:>7.2} ms / {:>7.2} ms  {:>4} / {:>5}  {text}",
            pct(&a, 0.5),
            pct(&b, 0.5),
            ca,
            cb
        );
    }
    report("stages 1+2 (SQL filter + SQL vector rank)", &mut ours);
    report("naive baseline (vectors ranked in app)", &mut naive);
    report("whole search (embed + 3 stages)", &mut whole);
    println!(
        "speed-up p50: {:.1}×   p95: {:.1}×",
        pct(&naive, 0.5) / pct(&ours, 0.5),
        pct(&naive, 0.95) / pct(&ours, 0.95)
    );
    Ok(())
}

/// Stage 1 then stage 2, ours (`naive = false`) or the baseline.
async fn stages(
    db: &PgPool,
    filter: &HardFilter<'_>,
    query: &Vector,
    model: &str,
    dims: u32,
    naive: bool,
) -> anyhow::Result<(f64, usize)> {
    let t = Instant::now();
    if naive {
        let rows = naive_candidate_vectors(db, filter, model).await?;
        let qv = query.as_slice();
        let mut scored: Vec<(i64, f32)> = rows
            .iter()
            .map(|(id, v)| (*id, cosine(qv, v.as_slice())))
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1));
        scored.truncate(pipeline::FINALISTS);
        let ids: Vec<i64> = scored.iter().map(|(id, _)| *id).collect();
        q::matched_rooms(
            db,
            &ids,
            filter.configurations,
            &[],
            Some(filter.min_capacity),
        )
        .await?;
        return Ok((ms(t), rows.len()));
    }
    let vector = QueryVector {
        vector: query,
        model,
        dims: dims as i32,
    };
    let mut nearby: Vec<Nearby> = q::hard_filter(db, filter, Some(vector)).await?;
    nearby.truncate(pipeline::MAX_CANDIDATES);
    let finalists: Vec<i64> = pipeline::nearest(&nearby)
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    q::matched_rooms(
        db,
        &finalists,
        filter.configurations,
        &[],
        Some(filter.min_capacity),
    )
    .await?;
    Ok((ms(t), nearby.len()))
}

/// The baseline: what one writes without the design — a join of members
/// and room capacities with the same hard criteria and DISTINCT, no nearest-500
/// cut, and every candidate's vector shipped to the application.
async fn naive_candidate_vectors(
    db: &PgPool,
    f: &HardFilter<'_>,
    model: &str,
) -> sqlx::Result<Vec<(i64, Vector)>> {
    let mut q: QueryBuilder<Postgres> = QueryBuilder::new(
        "SELECT e.member_id, e.embedding FROM member_embeddings e WHERE e.model = ",
    );
    q.push_bind(model).push(
        " AND e.member_id IN (SELECT DISTINCT m.id FROM members m JOIN room_capacities rc ON rc.member_id = m.id
           WHERE m.status = 'active'",
    );
    if let Some(pool_id) = f.pool_id {
        q.push(" AND m.pool_id = ").push_bind(pool_id);
    }
    q.push(" AND rc.configuration = ANY(")
        .push_bind(f.configurations)
        .push(") AND rc.max_capacity >= ")
        .push_bind(f.min_capacity);
    if !f.postal_codes.is_empty() {
        q.push(" AND m.postal_code = ANY(")
            .push_bind(f.postal_codes)
            .push(")");
    }
    if let Some((lat, lng, metres)) = f.radius {
        q.push(" AND earth_distance(ll_to_earth(m.lat, m.lng), ll_to_earth(")
            .push_bind(lat)
            .push("::float8, ")
            .push_bind(lng)
            .push("::float8)) < ")
            .push_bind(metres)
            .push("::float8");
    }
    q.push(")");
    q.build_query_as().fetch_all(db).await
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let (mut dot, mut na, mut nb) = (0.0f32, 0.0f32, 0.0f32);
    for (x, y) in a.iter().zip(b) {
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    dot / (na.sqrt() * nb.sqrt()).max(f32::MIN_POSITIVE)
}

fn random_unit(dims: usize, seed: u64) -> Vec<f32> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let v: Vec<f32> = (0..dims).map(|_| rng.random_range(-1.0f32..1.0)).collect();
    let norm = v
        .iter()
        .map(|x| x * x)
        .sum::<f32>()
        .sqrt()
        .max(f32::MIN_POSITIVE);
    v.into_iter().map(|x| x / norm).collect()
}

/// Members without a vector of this model get a deterministic random one, so
/// scale can be measured without embedding 70,000 texts (the real pipeline:
/// `maxy embed venues`). Marked with a zero text hash: a real backfill redoes them.
async fn fill_synthetic(db: &PgPool, model: &str, dims: u32) -> anyhow::Result<()> {
    let missing: Vec<i64> = sqlx::query_scalar(
        "SELECT m.id FROM members m WHERE NOT EXISTS (SELECT 1 FROM member_embeddings e WHERE e.member_id = m.id AND e.model = $1)",
    )
    .bind(model)
    .fetch_all(db)
    .await?;
    for chunk in missing.chunks(2000) {
        let vectors: Vec<Vector> = chunk
            .iter()
            .map(|id| Vector::from(random_unit(dims as usize, *id as u64)))
            .collect();
        let mut tx = db.begin().await?;
        for (id, v) in chunk.iter().zip(vectors) {
            sqlx::query(
                "INSERT INTO member_embeddings (member_id, embedding, model, dims, text_hash)
                 VALUES ($1, $2, $3, $4, '\\x0000000000000000000000000000000000000000000000000000000000000000')
                 ON CONFLICT (member_id) DO UPDATE SET embedding = EXCLUDED.embedding, model = EXCLUDED.model,
                        dims = EXCLUDED.dims, text_hash = EXCLUDED.text_hash",
            )
            .bind(id)
            .bind(v)
            .bind(model)
            .bind(dims as i32)
            .execute(&mut *tx)
            .await
            .context("inserting synthetic vectors")?;
        }
        tx.commit().await?;
    }
    if !missing.is_empty() {
        println!("{} synthetic vectors added", missing.len());
    }
    Ok(())
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

/// The `p` quantile (0–1) of `sorted` (ascending); 0 when empty.
pub fn pct(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}
