//! Venue embeddings: the text each venue is embedded from, the batch that
//! (re-)embeds venues, and the `maxy embed venues` backfill.
//!
//! Changes reach the vectors two ways, both through [`embed::embed_members`]:
//! the triggers of migration 0010 queue a `venue.embed` job per changed venue
//! (run by the job workers, [`job`]), and the backfill walks every venue
//! (first load, model change, recovery after an outage or a dimension
//! mismatch).
pub mod backfill;
pub mod embed;
pub mod embedding_text;
pub mod job;

use crate::embeddings::EmbeddingProvider;
use crate::jobs::Registry;
use sqlx::PgPool;
use std::sync::Arc;

/// Adds this module's job handlers to `registry`: `venue.embed`, run with
/// the venues pipeline's provider (`MAXY_VENUE_EMBEDDING_*`).
pub fn register_jobs(
    registry: Registry,
    db: &PgPool,
    embedder: Arc<dyn EmbeddingProvider>,
) -> Registry {
    registry.with(job::VenueEmbed::new(db.clone(), embedder))
}
