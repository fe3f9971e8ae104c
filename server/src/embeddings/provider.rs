//! What every embedding backend offers. Vendor wire types stay inside each
//! implementation; callers see texts in, vectors out.
//!
//! Two ways in: [`EmbeddingProvider::embed`] takes the lane of its input
//! type (queries on the query lane, documents on the document lane, ADR
//! 0007), and [`EmbeddingProvider::embed_interactive`] takes the query lane
//! whatever the input type, for the few short texts a person waits for: a
//! memory, a reminder or a lesson being saved is a document ("passage"),
//! yet it must not queue behind thousands of venue texts (ADR 0033).

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

/// Who waits for the vectors: the lane a document takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Urgency {
    /// Nobody: bulk work (backfills, venue batches) on its input type's lane.
    Bulk,
    /// A person: the query lane ([`EmbeddingProvider::embed_interactive`]).
    Interactive,
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

    /// Like [`Self::embed`], for a few short texts a person waits for: sent
    /// on the query lane (its timeout, retries and request slot, and its
    /// fall-back to the document lane where nothing listens), still embedded
    /// as `input_type`. A provider with one lane embeds them as usual.
    async fn embed_interactive(
        &self,
        texts: &[String],
        input_type: InputType,
    ) -> Result<Vec<Vec<f32>>, EmbeddingError> {
        self.embed(texts, input_type).await
    }
}

/// [`EmbeddingProvider::embed`] or [`EmbeddingProvider::embed_interactive`],
/// as `urgency` says.
pub async fn embed_as(
    provider: &dyn EmbeddingProvider,
    texts: &[String],
    input_type: InputType,
    urgency: Urgency,
) -> Result<Vec<Vec<f32>>, EmbeddingError> {
    match urgency {
        Urgency::Bulk => provider.embed(texts, input_type).await,
        Urgency::Interactive => provider.embed_interactive(texts, input_type).await,
    }
}
