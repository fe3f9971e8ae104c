//! Embeds a batch of documents so that one text the server refuses does not
//! sink the others: a refused batch is retried one text at a time to find
//! the culprit. Shared by the venue batch, the memory backfill (bulk) and
//! the `memory.embed` job (interactive: the query lane, ADR 0033).
use super::{embed_as, EmbeddingError, EmbeddingProvider, InputType, Urgency};

/// One vector per text (`None` for a text the server refused, whose index
/// and reason are in `rejected`).
#[derive(Debug, Default)]
pub struct Documents {
    pub vectors: Vec<Option<Vec<f32>>>,
    pub rejected: Vec<(usize, String)>,
}

/// Any error other than a refusal (outage, dimension mismatch, a wrong
/// number of vectors) ends the batch: nothing of it may be written.
pub async fn embed_documents(
    provider: &dyn EmbeddingProvider,
    texts: &[String],
) -> Result<Documents, EmbeddingError> {
    embed_documents_as(provider, texts, Urgency::Bulk).await
}

/// [`embed_documents`] on the lane `urgency` picks.
pub async fn embed_documents_as(
    provider: &dyn EmbeddingProvider,
    texts: &[String],
    urgency: Urgency,
) -> Result<Documents, EmbeddingError> {
    match embed_as(provider, texts, InputType::Document, urgency).await {
        Ok(vectors) if vectors.len() == texts.len() => {
            return Ok(Documents {
                vectors: vectors.into_iter().map(Some).collect(),
                rejected: Vec::new(),
            })
        }
        Ok(vectors) => {
            return Err(EmbeddingError::Rejected(format!(
                "{} vectors for {} texts",
                vectors.len(),
                texts.len()
            )))
        }
        Err(EmbeddingError::Rejected(_)) if texts.len() > 1 => {}
        Err(e) => return Err(e),
    }
    let mut out = Documents::default();
    for (i, text) in texts.iter().enumerate() {
        match embed_as(
            provider,
            std::slice::from_ref(text),
            InputType::Document,
            urgency,
        )
        .await
        {
            Ok(mut one) if one.len() == 1 => out.vectors.push(one.pop()),
            Ok(_) => return Err(EmbeddingError::Rejected("no vector for one text".into())),
            Err(EmbeddingError::Rejected(reason)) => {
                out.rejected.push((i, reason));
                out.vectors.push(None);
            }
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}
