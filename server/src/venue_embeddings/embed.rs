//! Embeds a batch of venues: rebuild their texts, skip those whose stored
//! vector was made from the same text by the same model, embed the others as
//! documents in one provider call, store the vectors in one statement.
//!
//! Shared by the `venue.embed` job and `maxy embed venues`, so both follow
//! the same rules: nothing is written unless every vector of the batch was
//! obtained (an outage or a dimension mismatch leaves the table untouched),
//! and one text the server refuses does not sink the other 47.
use super::embedding_text::{venue_texts, VenueText};
use crate::db::member_embeddings::{self, NewEmbedding};
use crate::embeddings::documents::embed_documents;
use crate::embeddings::{EmbeddingError, EmbeddingProvider};
use crate::jobs::{FailMode, Outcome};
use sqlx::PgPool;
use std::time::{Duration, Instant};

/// What happened to each member of a batch.
#[derive(Debug, Default)]
pub struct BatchReport {
    /// New or replaced vectors.
    pub embedded: Vec<i64>,
    /// The stored vector is current: no provider call for them.
    pub unchanged: Vec<i64>,
    /// No such member (deleted since the job was queued).
    pub missing: Vec<i64>,
    /// The embedding server refused this member's text.
    pub rejected: Vec<(i64, String)>,
    /// Time spent in provider calls.
    pub embedding_time: Duration,
}

#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Embedding(#[from] EmbeddingError),
}

/// Embeds the members among `member_ids` whose vector is missing or stale.
pub async fn embed_members(
    db: &PgPool,
    provider: &dyn EmbeddingProvider,
    member_ids: &[i64],
) -> Result<BatchReport, BatchError> {
    let mut report = BatchReport::default();
    let texts = venue_texts(db, member_ids).await?;
    report.missing = member_ids
        .iter()
        .copied()
        .filter(|id| !texts.iter().any(|t| t.member_id == *id))
        .collect();
    let model = provider.model().to_string();
    // The configuration caps dimensions at 2,000; a larger value would fail
    // the table's CHECK rather than wrap.
    let dims = i32::try_from(provider.dimensions()).unwrap_or(i32::MAX);
    let (current, stale): (Vec<VenueText>, Vec<VenueText>) =
        texts.into_iter().partition(|t| t.is_current(&model, dims));
    report.unchanged = current.iter().map(|t| t.member_id).collect();
    if stale.is_empty() {
        return Ok(report);
    }

    let started = Instant::now();
    let vectors = embed_texts(provider, &stale, &mut report.rejected).await;
    report.embedding_time = started.elapsed();
    let vectors = vectors?;

    let mut rows = Vec::with_capacity(stale.len());
    for (venue, vector) in stale.iter().zip(&vectors) {
        let Some(vector) = vector else { continue };
        // The client's canary checks this already; a vector of another size
        // must never reach the table whatever the provider.
        if vector.len() != dims as usize {
            return Err(EmbeddingError::DimensionMismatch {
                expected: provider.dimensions(),
                got: vector.len(),
            }
            .into());
        }
        rows.push(NewEmbedding {
            member_id: venue.member_id,
            text_hash: &venue.hash,
            vector,
        });
    }
    if !rows.is_empty() {
        member_embeddings::upsert(db, &rows, &model, dims).await?;
    }
    report.embedded = rows.iter().map(|r| r.member_id).collect();
    Ok(report)
}

/// One vector per venue (`None` for a text the server refused).
async fn embed_texts(
    provider: &dyn EmbeddingProvider,
    venues: &[VenueText],
    rejected: &mut Vec<(i64, String)>,
) -> Result<Vec<Option<Vec<f32>>>, EmbeddingError> {
    let texts: Vec<String> = venues.iter().map(|v| v.text.clone()).collect();
    let documents = embed_documents(provider, &texts).await?;
    rejected.extend(
        documents
            .rejected
            .into_iter()
            .filter_map(|(i, reason)| Some((venues.get(i)?.member_id, reason))),
    );
    Ok(documents.vectors)
}

/// What a batch result means for the job of `member_id`.
pub fn job_outcome(result: &Result<BatchReport, BatchError>, member_id: i64) -> Outcome {
    match result {
        Ok(report) => match report.rejected.iter().find(|(id, _)| *id == member_id) {
            Some((_, reason)) => Outcome::failed(FailMode::Retry, reason),
            None => Outcome::Done,
        },
        Err(BatchError::Db(e)) => Outcome::failed(FailMode::Retry, format!("database error: {e}")),
        Err(BatchError::Embedding(e @ EmbeddingError::Unavailable(_))) => {
            Outcome::failed(FailMode::Unavailable, e)
        }
        Err(BatchError::Embedding(e @ EmbeddingError::DimensionMismatch { .. })) => {
            Outcome::failed(
                FailMode::Permanent,
                format!(
                    "{e}: nothing written; fix MAXY_VENUE_EMBEDDING_MODEL / \
                     MAXY_VENUE_EMBEDDING_DIMENSIONS, then run `maxy embed venues`"
                ),
            )
        }
        Err(BatchError::Embedding(e @ EmbeddingError::Rejected(_))) => {
            Outcome::failed(FailMode::Retry, e)
        }
    }
}
