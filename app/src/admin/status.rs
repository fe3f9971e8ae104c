//! The assistant's state for the console's « Assistant » card: which
//! provider and model answer, whether the offline planner answers instead
//! and why, the month's model spend against its cap, and whether the
//! embedding servers answer.
use crate::errors::AppError;
use crate::llm_budget::LlmBudgetStatus;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// How the embedding servers answer, in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EmbeddingState {
    Ok,
    Slow,
    Down,
}

impl EmbeddingState {
    pub fn label(self) -> &'static str {
        match self {
            EmbeddingState::Ok => "Recherche par le sens disponible",
            EmbeddingState::Slow => "Recherche par le sens ralentie",
            EmbeddingState::Down => {
                "Recherche par le sens indisponible : les recherches passent par les mots-clés"
            }
        }
    }
}

/// What the card shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AssistantStatus {
    /// « Anthropic », « Serveur compatible OpenAI », « Aucun (hors ligne) ».
    pub provider: String,
    /// The model's name as the provider knows it; `None` offline.
    pub model: Option<String>,
    /// The cheaper model bulk tasks move to once the cap is reached.
    pub bulk_model: Option<String>,
    /// Whether the offline planner answers the chat.
    pub offline: bool,
    /// Why, in words, when it does.
    pub offline_reason: Option<String>,
    /// `None` when the spend cannot be read (the card says so).
    pub budget: Option<LlmBudgetStatus>,
    pub embeddings: EmbeddingState,
}

/// Reads the assistant's state (implemented by the server).
#[cfg(feature = "ssr")]
#[async_trait::async_trait]
pub trait AssistantStatusReader: Send + Sync {
    async fn status(&self) -> Result<AssistantStatus, AppError>;
}

/// The assistant's state (admins only).
#[server(endpoint = "admin/assistant-status")]
pub async fn read_assistant_status() -> Result<AssistantStatus, AppError> {
    crate::auth::access::require_admin()?;
    crate::services::service::<dyn AssistantStatusReader>()?
        .status()
        .await
}
