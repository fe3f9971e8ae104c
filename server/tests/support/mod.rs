//! Shared test helpers: fake embedding and Anthropic servers at the network
//! edge, app state on a test database, and the paths the binary needs.
#![allow(dead_code, clippy::expect_used)]

pub mod anthropic;
pub mod app;
pub mod busy_pool;
pub mod logs;

use axum::routing::post;
use axum::{Json, Router};
use server::auth::tokens::SigningKey;
use server::config::{Config, Env};
use server::embeddings::EmbeddingHealth;
use server::state::AppState;
use sqlx::PgPool;
use std::net::SocketAddr;

/// The repository root (tests run from `server/`).
pub fn repo_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Serves OpenAI's `/v1/embeddings` wire format with constant 384-d vectors.
pub async fn fake_embedding_server() -> SocketAddr {
    async fn embeddings(Json(body): Json<serde_json::Value>) -> Json<serde_json::Value> {
        let n = body["input"].as_array().map_or(1, Vec::len);
        let data: Vec<_> = (0..n)
            .map(|i| serde_json::json!({"object": "embedding", "index": i, "embedding": vec![0.05_f32; 384]}))
            .collect();
        Json(serde_json::json!({"object": "list", "data": data, "model": body["model"]}))
    }
    let app = Router::new().route("/v1/embeddings", post(embeddings));
    serve_in_background(app).await
}

/// An address where nothing listens.
pub async fn closed_port() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    drop(listener);
    addr
}

pub async fn serve_in_background(app: Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

/// The magic-link key of test servers.
pub const SECRET_KEY: &str = "test-secret-key-that-is-long-enough-0123456789";

/// App state on `db` with the embedding server at `embedding_addr`.
pub fn app_state(db: PgPool, embedding_addr: SocketAddr) -> AppState {
    app_state_with(db, embedding_addr, &[])
}

/// The same, with more settings (`MAXY_PUBLIC_URL`…).
pub fn app_state_with(
    db: PgPool,
    embedding_addr: SocketAddr,
    settings: &[(&str, &str)],
) -> AppState {
    let leptos_options = leptos::prelude::LeptosOptions::builder()
        .output_name("maxy")
        .build();
    app_state_with_site(db, embedding_addr, settings, leptos_options)
}

/// The same, serving the site described by `leptos_options` (a built site
/// in a temporary directory).
pub fn app_state_with_site(
    db: PgPool,
    embedding_addr: SocketAddr,
    settings: &[(&str, &str)],
    leptos_options: leptos::prelude::LeptosOptions,
) -> AppState {
    let url = format!("http://{embedding_addr}/v1");
    let mut pairs = vec![
        ("MAXY_EMBEDDING_URL", url.as_str()),
        ("MAXY_SECRET_KEY", SECRET_KEY),
    ];
    pairs.extend_from_slice(settings);
    let config = Config::from_source(&Env::from_pairs(pairs)).expect("config");
    let key = SigningKey::new(SECRET_KEY.as_bytes().to_vec());
    let embedders =
        server::embeddings::Embedders::from_settings(&config.embeddings).expect("embedders");
    let embedding_health = EmbeddingHealth::new(&embedders);
    let venues = Some(embedders.venues.clone());
    let llm = server::llm::for_server(&config.llm, db.clone()).expect("llm");
    let memory = std::sync::Arc::new(server::memory::MemoryStore::new(
        db.clone(),
        embedders.memory.clone(),
        server::memory::floor::for_model(embedders.memory.model(), None),
    ));
    AppState::new(
        leptos_options,
        db,
        config,
        embedding_health,
        key,
        venues,
        llm,
        memory,
    )
}

/// The URL of the database `db` is connected to (same server as DATABASE_URL).
pub async fn url_of(db: &PgPool) -> String {
    let name: String = sqlx::query_scalar("SELECT current_database()")
        .fetch_one(db)
        .await
        .expect("name");
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL");
    let (server, _) = base
        .rsplit_once('/')
        .expect("a database URL ends with /name");
    format!("{server}/{name}")
}

/// Sends one request through `app` in process; status, headers and body text.
pub async fn send(
    app: &Router,
    request: axum::http::Request<axum::body::Body>,
) -> (axum::http::StatusCode, axum::http::HeaderMap, String) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let response = app.clone().oneshot(request).await.expect("response");
    let status = response.status();
    let headers = response.headers().clone();
    let body = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    (status, headers, String::from_utf8_lossy(&body).into_owned())
}
