//! The console's « Assistant » card (`app::admin::AssistantStatusReader`):
//! the configured provider and models, whether the offline planner answers
//! and why (no provider configured, or the provider's last calls failing),
//! the month's spend against the cap (the budget service's own reading),
//! and the embedding servers' state (the readiness probe, cached).
use crate::config::{LlmBackend, LlmSettings};
use crate::embeddings::{EmbeddingHealth, EmbeddingStatus};
use app::admin::{AssistantStatus, AssistantStatusReader, EmbeddingState};
use app::errors::AppError;
use app::llm_budget::LlmBudget;
use chrono::{DateTime, Utc};
use sqlx::PgPool;
use std::sync::Arc;

pub struct AssistantStatusService {
    pub db: PgPool,
    pub llm: LlmSettings,
    pub budget: Arc<dyn LlmBudget>,
    pub embeddings: EmbeddingHealth,
}

/// The provider in words.
fn provider(backend: &LlmBackend) -> &'static str {
    match backend {
        LlmBackend::Offline => "Aucun (hors ligne)",
        LlmBackend::Anthropic(_) => "Anthropic",
        LlmBackend::OpenAi(_) => "Serveur compatible OpenAI",
    }
}

/// Whether the provider's recent calls all failed: the chat then answers
/// with the offline planner. Only the last quarter of an hour counts, so a
/// provider that came back shows as such at its first good call.
async fn failing_since(db: &PgPool) -> sqlx::Result<Option<DateTime<Utc>>> {
    let (failed, last_ok): (Option<DateTime<Utc>>, Option<DateTime<Utc>>) = sqlx::query_as(
        "SELECT max(created_at) FILTER (WHERE status = 'error'),
                max(created_at) FILTER (WHERE status = 'ok')
           FROM llm_calls WHERE created_at > now() - interval '15 minutes'",
    )
    .fetch_one(db)
    .await?;
    Ok(match (failed, last_ok) {
        (Some(failed), None) => Some(failed),
        (Some(failed), Some(ok)) if failed > ok => Some(failed),
        _ => None,
    })
}

#[async_trait::async_trait]
impl AssistantStatusReader for AssistantStatusService {
    async fn status(&self) -> Result<AssistantStatus, AppError> {
        let (budget, (embeddings, _), failing) = tokio::join!(
            self.budget.status(),
            self.embeddings.check(),
            failing_since(&self.db)
        );
        let offline_reason = match &self.llm.backend {
            LlmBackend::Offline => Some(
                "Aucun fournisseur de modèle n'est configuré : le planificateur hors ligne répond aux messages, sans frais."
                    .to_string(),
            ),
            _ => failing.map_err(crate::db::app_error)?.map(|at| {
                format!(
                    "Le fournisseur ne répond pas (dernier échec le {}) : le planificateur hors ligne prend le relais.",
                    crate::playbooks::console::paris::time(at)
                )
            }),
        };
        let online = !matches!(self.llm.backend, LlmBackend::Offline);
        Ok(AssistantStatus {
            provider: provider(&self.llm.backend).to_string(),
            model: online.then(|| self.llm.model.clone()),
            bulk_model: self.llm.bulk_model.clone().filter(|_| online),
            offline: offline_reason.is_some(),
            offline_reason,
            budget: budget.ok(),
            embeddings: match embeddings {
                EmbeddingStatus::Ok => EmbeddingState::Ok,
                EmbeddingStatus::Busy => EmbeddingState::Slow,
                EmbeddingStatus::Unavailable => EmbeddingState::Down,
            },
        })
    }
}
