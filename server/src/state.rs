//! What every request handler can reach.
use crate::config::Config;
use crate::embeddings::EmbeddingHealth;
use axum::extract::FromRef;
use leptos::prelude::LeptosOptions;
use sqlx::PgPool;
use std::sync::Arc;

#[derive(Clone, FromRef)]
pub struct AppState {
    pub leptos_options: LeptosOptions,
    pub db: PgPool,
    pub config: Arc<Config>,
    pub embedding_health: EmbeddingHealth,
}
