//! Embeddings: the provider trait, the OpenAI-compatible client, the
//! dimension canary, and the health probe of start-up and `/readyz`.
pub mod canary;
pub mod documents;
pub mod health;
pub mod openai;
pub mod pipelines;
pub mod provider;

pub use canary::DimensionCanary;
pub use health::{EmbeddingHealth, EmbeddingStatus};
pub use openai::{ClientBuildError, OpenAiEmbeddings};
pub use pipelines::Embedders;
pub use provider::{embed_as, EmbeddingError, EmbeddingProvider, InputType, Urgency};
