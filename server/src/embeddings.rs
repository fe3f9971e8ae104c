//! Embeddings: the provider trait, the OpenAI-compatible client, the
//! dimension canary, and the reachability probe used at start-up.
pub mod canary;
pub mod health;
pub mod openai;
pub mod pipelines;
pub mod provider;

pub use canary::DimensionCanary;
pub use health::EmbeddingHealth;
pub use openai::{ClientBuildError, OpenAiEmbeddings};
pub use pipelines::Embedders;
pub use provider::{EmbeddingError, EmbeddingProvider, InputType};
