//! What every request handler can reach.
use crate::agent::{AgentSettings, Live};
use crate::audit::AuditThrottle;
use crate::auth::magic_links::uses::{LinkUses, FLUSH_EVERY};
use crate::auth::rate_limit::RateLimits;
use crate::auth::tokens::SigningKey;
use crate::config::Config;
use crate::embeddings::EmbeddingHealth;
use crate::embeddings::EmbeddingProvider;
use crate::llm::LlmProvider;
use crate::services::{Dependencies, Services};
use axum::extract::FromRef;
use leptos::prelude::LeptosOptions;
use sqlx::PgPool;
use std::sync::Arc;

#[derive(Clone, FromRef)]
pub struct AppState {
    pub leptos_options: LeptosOptions,
    pub db: PgPool,
    pub config: Arc<Config>,
    pub embedding_health: EmbeddingHealth,
    pub signing_key: SigningKey,
    pub rate_limits: RateLimits,
    /// Caps the audit rows outsiders can cause (refused sign-ins, link views).
    pub audit_throttle: Arc<AuditThrottle>,
    /// Magic-link uses not yet written (`serve` flushes them at shutdown).
    pub link_uses: Arc<LinkUses>,
    /// The services server functions call (provided to them as context).
    pub services: Services,
    /// Wakes the chat event streams of this process (`http::chat_events`).
    pub chat_live: Arc<Live>,
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
        let services = Services::new(Dependencies {
            db: db.clone(),
            signing_key: signing_key.clone(),
            audit_throttle: audit_throttle.clone(),
            link_uses: link_uses.clone(),
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
        });
        AppState {
            leptos_options,
            db,
            config: Arc::new(config),
            embedding_health,
            signing_key,
            rate_limits: RateLimits::default(),
            audit_throttle,
            link_uses,
            services,
            chat_live,
        }
    }
}
