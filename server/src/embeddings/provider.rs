//! What every embedding backend offers. Vendor wire types stay inside each
//! implementation; callers see texts in, vectors out.

/// Asymmetric retrieval: short queries and longer documents are embedded
/// differently by models that support it (e5's `query:` / `passage:`,
/// Gemini's `RETRIEVAL_QUERY` / `RETRIEVAL_DOCUMENT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputType {
    Query,
    Document,
}

#[derive(Debug, thiserror::Error)]
pub enum EmbeddingError {
    /// Network failure, timeout, or a 5xx/429 that outlived the retries.
    #[error("the embedding server is unavailable: {0}")]
    Unavailable(String),
    /// The server refused the request (4xx other than 429), or answered
    /// something that is not an embeddings response.
    #[error("the embedding server refused the request: {0}")]
    Rejected(String),
    /// The vectors do not have the configured dimension (the canary fired):
    /// nothing may be written with them.
    #[error("the embedding model returned {got} dimensions, {expected} are configured")]
    DimensionMismatch { expected: u32, got: usize },
}

/// A source of embeddings for one pipeline (venues, memory or training).
#[async_trait::async_trait]
pub trait EmbeddingProvider: Send + Sync {
    /// The model name, stored next to every vector it produced.
    fn model(&self) -> &str;
    /// The configured vector size; every returned vector has exactly it.
    fn dimensions(&self) -> u32;
    /// One vector per text, in order. Batches internally as needed.
    async fn embed(
        &self,
        texts: &[String],
        input_type: InputType,
    ) -> Result<Vec<Vec<f32>>, EmbeddingError>;
}
