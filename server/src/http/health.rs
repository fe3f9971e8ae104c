//! `/healthz`: the process is up. `/readyz`: it can serve requests.
use super::route_table::RouteTable;
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;

pub fn routes() -> RouteTable {
    RouteTable::default()
        .get("/healthz", healthz)
        .get("/readyz", readyz)
}

async fn healthz() -> &'static str {
    "ok"
}

#[derive(Serialize)]
pub struct Readiness {
    pub ready: bool,
    /// `ok` or `unreachable`.
    pub database: &'static str,
    /// `ok`, `busy` or `unavailable`.
    pub embeddings: &'static str,
}

/// 200 when the database answers, 503 otherwise. The embedding pipelines
/// are reported but do not decide: while they are busy or down, searches
/// fall back to keywords and writes are saved without vectors, so taking
/// every instance out of the load balancer would turn a degraded service
/// into an outage (docs/adr/0007-embedding-lanes.md). The body is public:
/// words only, no URL and no cause; those go to the log.
async fn readyz(State(state): State<AppState>) -> (StatusCode, Json<Readiness>) {
    let (database, (embeddings, cause)) =
        tokio::join!(crate::db::ping(&state.db), state.embedding_health.check());
    if let Err(e) = &database {
        tracing::warn!(error = %e, "readiness: database check failed");
    }
    if let Some(cause) = cause {
        tracing::warn!(
            status = embeddings.as_str(),
            "readiness: embeddings degraded: {cause}"
        );
    }
    let ready = database.is_ok();
    let body = Readiness {
        ready,
        database: if ready { "ok" } else { "unreachable" },
        embeddings: embeddings.as_str(),
    };
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, Json(body))
}

#[cfg(test)]
mod tests {
    #[test]
    fn statuses_are_public_words() {
        use crate::embeddings::EmbeddingStatus::*;
        assert_eq!(
            [Ok.as_str(), Busy.as_str(), Unavailable.as_str()],
            ["ok", "busy", "unavailable"]
        );
    }
}
