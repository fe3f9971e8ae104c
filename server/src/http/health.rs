//! `/healthz`: the process is up. `/readyz`: its dependencies answer too.
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

async fn healthz() -> &'static str {
    "ok"
}

#[derive(Serialize)]
pub struct Readiness {
    pub ready: bool,
    pub database: String,
    pub embeddings: String,
}

/// 200 when the database and the embedding server answer, 503 otherwise.
/// The body says which one failed, without internals (no credentials, no SQL).
async fn readyz(State(state): State<AppState>) -> (StatusCode, Json<Readiness>) {
    let (database, embeddings) =
        tokio::join!(crate::db::ping(&state.db), state.embedding_health.check());
    if let Err(e) = &database {
        tracing::warn!(error = %e, "readiness: database check failed");
    }
    if let Err(e) = &embeddings {
        tracing::warn!(error = %e, "readiness: embedding check failed");
    }
    let ready = database.is_ok() && embeddings.is_ok();
    let body = Readiness {
        ready,
        database: if database.is_ok() {
            "ok".into()
        } else {
            "unreachable".into()
        },
        embeddings: embeddings.map(|()| "ok".to_string()).unwrap_or_else(|e| e),
    };
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, Json(body))
}
