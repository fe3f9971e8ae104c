//! Every service the server functions call, built and provided in one place.
//!
//! Adding a service is one field here and its construction in
//! [`Services::new`]; [`Services::provide`] destructures the struct, so the
//! compiler points at the one line left to write. `AppState` holds a
//! `Services` and the router provides it to every page and server function.
use crate::audit::AuditReader;
use crate::auth::tokens::SigningKey;
use crate::embeddings::EmbeddingProvider;
use crate::link_views::LinkViewsService;
use crate::llm::LlmProvider;
use crate::search::SearchService;
use app::admin::AuditLog;
use app::links::LinkViews;
use app::venue_search::VenueSearch;
use leptos::prelude::provide_context;
use sqlx::PgPool;
use std::sync::Arc;

/// The services, as the trait objects server functions ask for
/// (`app::services::service::<dyn Trait>()`).
#[derive(Clone)]
pub struct Services {
    pub link_views: Arc<dyn LinkViews>,
    pub audit_log: Arc<dyn AuditLog>,
    pub venue_search: Arc<dyn VenueSearch>,
}

/// What the services are built from.
pub struct Dependencies {
    pub db: PgPool,
    pub signing_key: SigningKey,
    /// The venue pipeline's embedder; `None` searches without vectors.
    pub venue_embedder: Option<Arc<dyn EmbeddingProvider>>,
    /// The venue ranker; `None` ranks deterministically.
    pub llm: Option<Arc<dyn LlmProvider>>,
}

impl Services {
    pub fn new(deps: Dependencies) -> Self {
        let Dependencies {
            db,
            signing_key,
            venue_embedder,
            llm,
        } = deps;
        Services {
            link_views: Arc::new(LinkViewsService {
                db: db.clone(),
                key: signing_key,
            }),
            audit_log: Arc::new(AuditReader { db: db.clone() }),
            venue_search: Arc::new(SearchService {
                db,
                embedder: venue_embedder,
                llm,
            }),
        }
    }

    /// Puts every service in the Leptos context of the current request.
    pub fn provide(&self) {
        let Services {
            link_views,
            audit_log,
            venue_search,
        } = self.clone();
        provide_context(link_views);
        provide_context(audit_log);
        provide_context(venue_search);
    }
}
