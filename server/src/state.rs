//! What every request handler can reach.
use crate::agent::{AgentSettings, Live};
use crate::audit::AuditThrottle;
use crate::auth::magic_links::uses::{LinkUses, FLUSH_EVERY};
use crate::auth::rate_limit::LinkLimits;
use crate::auth::tokens::SigningKey;
use crate::config::Config;
use crate::embeddings::EmbeddingHealth;
use crate::embeddings::EmbeddingProvider;
use crate::link_views::LinkViewsService;
use crate::llm::LlmProvider;
use crate::services::{Dependencies, Services};
use axum::extract::FromRef;
use leptos::prelude::LeptosOptions;
use sqlx::PgPool;
use std::ops::Deref;
use std::sync::Arc;

/// What every request handler can reach, behind one `Arc`: axum clones the
/// state for every layer of every request, and a struct of two dozen `Arc`s
/// and strings made that a measurable share of a page's cost (ADR 0022).
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

/// The fields of [`AppState`] (reached through `Deref`).
pub struct Shared {
    pub leptos_options: LeptosOptions,
    pub db: PgPool,
    pub config: Arc<Config>,
    pub embedding_health: EmbeddingHealth,
    pub signing_key: SigningKey,
    pub link_limits: LinkLimits,
    /// Caps the audit rows outsiders can cause (refused sign-ins, link views).
    pub audit_throttle: Arc<AuditThrottle>,
    /// Magic-link uses not yet written (`serve` flushes them at shutdown).
    pub link_uses: Arc<LinkUses>,
    /// The services server functions call (provided to them as context).
    pub services: Services,
    /// Wakes the chat event streams of this process (`http::chat_events`).
    pub chat_live: Arc<Live>,
    /// What magic links open (also read by `http::organizer_page`).
    pub link_views: Arc<LinkViewsService>,
}

impl AppState {
    /// Wires the services on top of a database pool and a configuration.
    // Each argument is built once per process by `serve` (and by the tests'
    // support): a builder would only rename them.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        leptos_options: LeptosOptions,
        db: PgPool,
        config: Config,
        embedding_health: EmbeddingHealth,
        signing_key: SigningKey,
        venue_embedder: Option<Arc<dyn EmbeddingProvider>>,
        llm: Arc<dyn LlmProvider>,
        memory: Arc<crate::memory::MemoryStore>,
    ) -> Self {
        let audit_throttle = Arc::new(AuditThrottle::default());
        let chat_live = Arc::new(Live::default());
        let link_uses = LinkUses::started(db.clone(), FLUSH_EVERY);
        let db_read = crate::db::read_pool(&config.database, &db);
        let link_views = Arc::new(LinkViewsService {
            db: db.clone(),
            db_read: db_read.clone(),
            has_replica: config.database.read_url.is_some(),
            key: signing_key.clone(),
            audit_throttle: audit_throttle.clone(),
            uses: link_uses.clone(),
            page_changes: Arc::default(),
        });
        let services = Services::new(Dependencies {
            db: db.clone(),
            db_read,
            signing_key: signing_key.clone(),
            link_views: link_views.clone(),
            venue_embedder,
            llm,
            chat_live: chat_live.clone(),
            agent_settings: AgentSettings {
                max_history: config.chat.max_history,
                approval_ttl: config.chat.approval_ttl,
                usd_to_eur: config.llm.usd_to_eur,
                ..AgentSettings::default()
            },
            llm_budget: (&config.llm).into(),
            memory,
            llm_settings: config.llm.clone(),
            embedding_health: embedding_health.clone(),
            outbox: crate::mail::Outbox::new(&config.mail, config.auth.public_url.as_deref()),
        });
        AppState(Arc::new(Shared {
            leptos_options,
            db,
            config: Arc::new(config),
            embedding_health,
            signing_key,
            link_limits: LinkLimits::default(),
            audit_throttle,
            link_uses,
            services,
            chat_live,
            link_views,
        }))
    }
}

impl Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// Leptos' handlers read their options from the state.
impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        state.leptos_options.clone()
    }
}
