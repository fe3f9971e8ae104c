//! The one place that maps job kinds to their handlers.
use super::venue_embed::VenueEmbed;
use super::JobHandler;
use crate::embeddings::EmbeddingProvider;
use sqlx::PgPool;
use std::sync::Arc;

/// Handlers by kind, in registration order (the order workers poll them).
#[derive(Clone, Default)]
pub struct Registry {
    handlers: Vec<Arc<dyn JobHandler>>,
}

/// What the standard handlers need.
#[derive(Clone)]
pub struct JobContext {
    pub db: PgPool,
    /// The venues pipeline's provider (`MAXY_VENUE_EMBEDDING_*`).
    pub venue_embedder: Arc<dyn EmbeddingProvider>,
}

impl Registry {
    /// Every kind this version runs.
    pub fn standard(ctx: &JobContext) -> Self {
        Registry::default().with(VenueEmbed::new(ctx.db.clone(), ctx.venue_embedder.clone()))
    }

    /// Adds a handler; a second one for the same kind replaces the first.
    pub fn with(mut self, handler: impl JobHandler + 'static) -> Self {
        self.handlers.retain(|h| h.kind() != handler.kind());
        self.handlers.push(Arc::new(handler));
        self
    }

    pub fn handlers(&self) -> &[Arc<dyn JobHandler>] {
        &self.handlers
    }

    pub fn get(&self, kind: &str) -> Option<&Arc<dyn JobHandler>> {
        self.handlers.iter().find(|h| h.kind() == kind)
    }

    pub fn kinds(&self) -> Vec<&'static str> {
        self.handlers.iter().map(|h| h.kind()).collect()
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.kinds()).finish()
    }
}
