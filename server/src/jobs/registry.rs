//! The one place that maps job kinds to their handlers. Domain modules add
//! their own handlers (`venue_embeddings::register_jobs`); the registry and
//! the workers know none of them by name.
use super::JobHandler;
use std::sync::Arc;

/// Handlers by kind, in registration order (the order workers poll them).
#[derive(Clone, Default)]
pub struct Registry {
    handlers: Vec<Arc<dyn JobHandler>>,
}

impl Registry {
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
