//! The one place that maps job kinds to their handlers. Domain modules add
//! their own handlers (`venue_embeddings::register_jobs`); the registry and
//! the workers know none of them by name.
use super::{JobHandler, Priority};
use std::sync::Arc;

/// Handlers by kind, interactive kinds first, then in registration order:
/// the order workers poll them, so a worker always looks for interactive
/// jobs before it takes the next bulk batch, whatever order the domain
/// modules registered in.
#[derive(Clone, Default)]
pub struct Registry {
    handlers: Vec<Arc<dyn JobHandler>>,
}

impl Registry {
    /// Adds a handler; a second one for the same kind replaces the first.
    pub fn with(mut self, handler: impl JobHandler + 'static) -> Self {
        self.handlers.retain(|h| h.kind() != handler.kind());
        self.handlers.push(Arc::new(handler));
        // Stable: registration order within a priority.
        self.handlers.sort_by_key(|h| h.priority());
        self
    }

    /// The interactive kinds alone (what the process's interactive worker
    /// polls); empty when there is none.
    pub fn interactive(&self) -> Registry {
        Registry {
            handlers: self
                .handlers
                .iter()
                .filter(|h| h.priority() == Priority::Interactive)
                .cloned()
                .collect(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.handlers.is_empty()
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
