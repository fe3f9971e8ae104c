//! Venue embeddings end to end on a real PostgreSQL: the triggers of
//! migration 0010 queue `venue.embed` jobs, the job handler and the
//! `maxy embed venues` backfill embed through the real OpenAI-compatible
//! client, against a fake `/v1/embeddings` server (the only fake, at the
//! network edge) whose vectors are derived from each text's sha256.
//!
//! Needs DATABASE_URL: each test gets its own database, migrated from ../migrations.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};
use server::config::{Config, Env};
use server::embeddings::{Embedders, EmbeddingProvider};
use server::jobs::worker::{run_once, WorkerOptions};
use server::jobs::Registry;
use server::venue_embeddings::backfill::{backfill, BackfillOptions};
use server::venue_embeddings::embedding_text::text_hash;
use server::venue_embeddings::job as venue_embed;
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

// ---------------------------------------------------------------------------
// The fake embedding server.

#[derive(Default)]
struct FakeState {
    dims: usize,
    /// Answer 503 to everything.
    down: bool,
    /// Answer 503 once this many requests have succeeded.
    fail_after: Option<usize>,
    /// The bodies of the requests answered with vectors.
    calls: Vec<Value>,
}

#[derive(Clone)]
struct Fake {
    addr: SocketAddr,
    state: Arc<Mutex<FakeState>>,
}

/// A deterministic vector per text, so tests can tell which text was embedded.
fn fake_vector(text: &str, dims: usize) -> Vec<f32> {
    let digest = Sha256::digest(text.as_bytes());
    (0..dims)
        .map(|i| f32::from(digest[i % 32]) / 255.0 - 0.5 + (i / 32) as f32 / 1024.0)
        .collect()
}

async fn embeddings(
    State(state): State<Arc<Mutex<FakeState>>>,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    let mut state = state.lock().unwrap();
    let unavailable = state.down || state.fail_after.is_some_and(|n| state.calls.len() >= n);
    if unavailable {
        let error = json!({"error": {"message": "model is loading"}});
        return (StatusCode::SERVICE_UNAVAILABLE, Json(error));
    }
    let inputs: Vec<String> = body["input"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    if inputs.iter().any(|t| t.contains("REFUSE")) {
        let error = json!({"error": {"message": "this input is refused"}});
        return (StatusCode::BAD_REQUEST, Json(error));
    }
    let data: Vec<Value> = inputs
        .iter()
        .enumerate()
        .map(|(i, t)| json!({"object": "embedding", "index": i, "embedding": fake_vector(t, state.dims)}))
        .collect();
    state.calls.push(body.clone());
    let reply = json!({"object": "list", "data": data, "model": body["model"]});
    (StatusCode::OK, Json(reply))
}

impl Fake {
    async fn start(dims: usize) -> Fake {
        let state = Arc::new(Mutex::new(FakeState {
            dims,
            ..FakeState::default()
        }));
        let app = Router::new()
            .route("/v1/embeddings", post(embeddings))
            .with_state(state.clone());
        let addr = support::serve_in_background(app).await;
        Fake { addr, state }
    }

    /// The real venues client pointed at this server (plus extra settings).
    fn provider(&self, extra: &[(&str, &str)]) -> Arc<dyn EmbeddingProvider> {
        let url = format!("http://{}/v1", self.addr);
        let mut pairs = vec![("MAXY_EMBEDDING_URL", url.as_str())];
        pairs.extend_from_slice(extra);
        let config = Config::from_source(&Env::from_pairs(pairs)).unwrap();
        Embedders::from_settings(&config.embeddings).unwrap().venues
    }

    fn calls(&self) -> Vec<Value> {
        self.state.lock().unwrap().calls.clone()
    }

    /// Texts embedded so far, per request.
    fn inputs(&self) -> Vec<usize> {
        self.calls()
            .iter()
            .map(|c| c["input"].as_array().unwrap().len())
            .collect()
    }

    fn set(&self, change: impl FnOnce(&mut FakeState)) {
        change(&mut self.state.lock().unwrap());
    }
}

// ---------------------------------------------------------------------------
// Data and helpers.

/// Three venues; venue 1 has everything that goes into the text.
async fn catalogue(db: &PgPool) {
    sqlx::raw_sql(
        "INSERT INTO pools (id, slug, name) VALUES (1, 'hotels', 'Hôtels');
         INSERT INTO members (id, code, name, pool_id, status, description) VALUES
           (1, '#1', 'Le Grand Hôtel', 1, 'active', 'Un palace au bord de la Seine.'),
           (2, '#2', 'La Péniche', 1, 'active', 'Une péniche amarrée quai de la Gare.'),
           (3, '#3', 'Le Loft', 1, 'pending', '');
         INSERT INTO tags (id, name) VALUES (1, 'vue Seine'), (2, 'Rooftop'), (3, 'atypique');
         INSERT INTO member_tags (member_id, tag_id) VALUES (1, 1), (1, 2), (2, 3), (3, 3);
         INSERT INTO rooms (id, member_id, name, description, position) VALUES
           (1, 1, 'Salon Eiffel', 'Lumineux, parquet.', 1),
           (2, 1, 'Cave', '', 0),
           (3, 2, 'Pont supérieur', 'En plein air.', 0);
         INSERT INTO knowledge_entries (member_id, content, created_at) VALUES
           (1, 'Parking public à 100 m.', '2026-01-02'),
           (1, 'Traiteur imposé.', '2026-01-01');
         SELECT setval(pg_get_serial_sequence('rooms', 'id'), 100);
         SELECT setval(pg_get_serial_sequence('knowledge_entries', 'id'), 100);",
    )
    .execute(db)
    .await
    .unwrap();
}

/// Venue 1's text, as seed 001 builds it (rooms by position, knowledge by date).
const VENUE_1_TEXT: &str = "Le Grand Hôtel\n\nUn palace au bord de la Seine.\n\n\
    Rooftop, vue Seine\n\nCave\nSalon Eiffel: Lumineux, parquet.\n\n\
    Traiteur imposé.\nParking public à 100 m.";

async fn exec(db: &PgPool, sql: &str) {
    sqlx::raw_sql(sql).execute(db).await.unwrap();
}

/// The members with a queued or running `venue.embed` job.
async fn queued_members(db: &PgPool) -> Vec<i64> {
    sqlx::query_scalar(
        "SELECT (payload->>'member_id')::bigint FROM jobs
          WHERE kind = 'venue.embed' AND status IN ('queued', 'running') ORDER BY 1",
    )
    .fetch_all(db)
    .await
    .unwrap()
}

/// One stored venue vector.
#[derive(Debug, sqlx::FromRow)]
struct Stored {
    member_id: i64,
    model: String,
    dims: i32,
    text_hash: Vec<u8>,
    embedding: pgvector::Vector,
    embedded_at: chrono::DateTime<chrono::Utc>,
}

async fn stored(db: &PgPool) -> Vec<Stored> {
    sqlx::query_as(
        "SELECT member_id, model, dims, text_hash, embedding, embedded_at
           FROM member_embeddings ORDER BY member_id",
    )
    .fetch_all(db)
    .await
    .unwrap()
}

async fn job_states(db: &PgPool) -> Vec<(String, Option<String>)> {
    sqlx::query_as("SELECT status, last_error FROM jobs WHERE kind = 'venue.embed' ORDER BY id")
        .fetch_all(db)
        .await
        .unwrap()
}

fn registry(db: &PgPool, provider: Arc<dyn EmbeddingProvider>) -> Registry {
    server::venue_embeddings::register_jobs(Registry::default(), db, provider)
}

/// Runs worker rounds until nothing is due.
async fn drain(db: &PgPool, registry: &Registry) -> usize {
    let mut total = 0;
    loop {
        let ran = run_once(db, registry, "test:1:0", &WorkerOptions::default())
            .await
            .unwrap();
        if ran == 0 {
            return total;
        }
        total += ran;
    }
}

#[path = "venue_embeddings/cases.rs"]
mod cases;
