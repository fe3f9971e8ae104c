//! Embeddings: the provider trait, the OpenAI-compatible client, the
//! dimension canary, and the reachability probe used at start-up.
pub mod health;
pub mod provider;

pub use health::EmbeddingHealth;
pub use provider::{EmbeddingError, EmbeddingProvider, InputType};
