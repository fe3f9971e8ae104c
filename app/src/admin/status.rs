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

/// An amount in euros as the team writes it: « 1 234,56 € ».
pub fn euros(amount: f64) -> String {
    let cents = (amount * 100.0).round() as i64;
    let (whole, cents) = (cents.abs() / 100, cents.abs() % 100);
    let digits = whole.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            // A narrow no-break space, as fr-FR groups thousands.
            grouped.push('\u{202f}');
        }
        grouped.push(c);
    }
    let sign = if cents_negative(amount) { "-" } else { "" };
    format!("{sign}{grouped},{cents:02}\u{a0}€")
}

fn cents_negative(amount: f64) -> bool {
    (amount * 100.0).round() < 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euros_read_the_french_way() {
        assert_eq!(euros(0.0), "0,00\u{a0}€");
        assert_eq!(euros(12.345), "12,35\u{a0}€");
        assert_eq!(euros(1234.5), "1\u{202f}234,50\u{a0}€");
        assert_eq!(euros(200.0), "200,00\u{a0}€");
    }
}
