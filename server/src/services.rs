//! Every service the server functions call, built and provided in one place.
//!
//! Adding a service is one line in the [`services!`] list (its field and
//! trait) and its construction in [`Services::new`] (the compiler asks for
//! it); providing it to pages and server functions follows from the list.
//! `AppState` holds a `Services` and the router provides it on every request.
use crate::agent::{Agent, AgentSettings, AssistantService, Live};
use crate::audit::AuditReader;
use crate::auth::tokens::SigningKey;
use crate::catalogue_builder::CatalogueBuilderService;
use crate::embeddings::EmbeddingProvider;
use crate::link_views::LinkViewsService;
use crate::llm::LlmProvider;
use crate::requests_desk::RequestsDeskService;
use crate::search::SearchService;
use app::admin::{Accounts, AssistantStatusReader, AuditLog};
use app::catalogue_builder::CatalogueBuilder;
use app::chat::Assistant;
use app::links::LinkViews;
use app::llm_budget::LlmBudget;
use app::measures::MeasuresReader;
use app::memory::MemoryDesk;
use app::outreach::Outreach;
use app::playbook_console::PlaybookConsole;
use app::requests::RequestsDesk;
use app::search_preferences::SearchPreferencesDesk;
use app::training::Training;
use app::venue_search::VenueSearch;
use app::work_queue::WorkQueueDesk;
use leptos::prelude::provide_context;
use sqlx::PgPool;
use std::sync::Arc;

/// Declares the `Services` struct and its `provide` from one list, so the
/// two cannot drift apart.
macro_rules! services {
    ($($(#[$doc:meta])* $field:ident: $service:ty,)*) => {
        /// The services, as the trait objects server functions ask for
        /// (`app::services::service::<dyn Trait>()`).
        #[derive(Clone)]
        pub struct Services {
            $($(#[$doc])* pub $field: Arc<$service>,)*
        }

        impl Services {
            /// Puts every service in the Leptos context of the current request.
            pub fn provide(&self) {
                $(provide_context(self.$field.clone());)*
            }
        }
    };
}

services! {
    /// Magic-link pages: an organizer's catalogue, a venue's availability check.
    link_views: dyn LinkViews,
    /// The audit log, for the admin console.
    audit_log: dyn AuditLog,
    /// Accounts and roles, for the admin console.
    accounts: dyn Accounts,
    /// The assistant's provider, model, offline state, spend and embedders, for the console.
    assistant_status: dyn AssistantStatusReader,
    /// The three-stage venue search.
    venue_search: dyn VenueSearch,
    /// The assistant's chat.
    assistant: dyn Assistant,
    /// The month's language-model spend, for the admin console.
    llm_budget: dyn LlmBudget,
    /// The team's « Demandes »: list, detail, memo / hints / status edit.
    requests_desk: dyn RequestsDesk,
    /// The catalogue builder and the training workspace.
    catalogue_builder: dyn CatalogueBuilder,
    /// What the team teaches: « Apprendre », guidelines, `/entrainement`.
    training: dyn Training,
    /// Catalogues sent to organizers, availability checks sent to venues.
    outreach: dyn Outreach,
    /// Search preferences per team member and per request (zone, favourites first, specialities).
    search_preferences: dyn SearchPreferencesDesk,
    /// The « Mémoire » page: memories, reminders, search by meaning.
    memory_desk: dyn MemoryDesk,
    /// The admin playbook console: playbooks, stations, decisions, motifs, simulator.
    playbook_console: dyn PlaybookConsole,
    /// The home page's « À faire ».
    work_queue: dyn WorkQueueDesk,
    /// The console's « Mesures »: charts and the rows behind them.
    measures: dyn MeasuresReader,
}

/// What the services are built from.
pub struct Dependencies {
    pub db: PgPool,
    /// The read replica's pool (`db::read_pool`); `db` itself without one.
    pub db_read: PgPool,
    pub signing_key: SigningKey,
    /// What magic links open (shared with the organizer page's cache).
    pub link_views: Arc<LinkViewsService>,
    /// The venue pipeline's embedder; `None` searches without vectors.
    pub venue_embedder: Option<Arc<dyn EmbeddingProvider>>,
    /// The language model (the offline provider when none is configured).
    pub llm: Arc<dyn LlmProvider>,
    /// Wakes the chat streams of this process when a turn writes events.
    pub chat_live: Arc<Live>,
    pub agent_settings: AgentSettings,
    /// The monthly cap and exchange rate of the language-model budget.
    pub llm_budget: crate::llm::budget::BudgetSettings,
    /// The team's memories and reminders (the memory pipeline's embedder).
    pub memory: Arc<crate::memory::MemoryStore>,
    /// The language-model settings, as the console's « Assistant » card shows them.
    pub llm_settings: crate::config::LlmSettings,
    /// The embedding servers' probe (cached), for the same card.
    pub embedding_health: crate::embeddings::EmbeddingHealth,
    /// Whether outreach e-mails its links (`MAXY_SMTP_URL`).
    pub outbox: crate::mail::Outbox,
}

/// What scores playbooks for a described action: the configured model, or
/// the calibrated embedding similarity offline, with the memory pipeline's
/// embedder (the one `maxy calibrate playbooks` fits the mapping with).
fn playbook_scorer(
    llm: &Arc<dyn LlmProvider>,
    embedder: Option<&Arc<dyn EmbeddingProvider>>,
) -> Option<Arc<dyn crate::playbooks::scoring::Score>> {
    let offline = llm.name() == crate::planner::Planner.name();
    let model = (!offline).then(|| llm.clone());
    embedder.map(|e| crate::playbooks::scoring::scorer(model, e.clone()))
}

impl Services {
    pub fn new(deps: Dependencies) -> Self {
        let Dependencies {
            db,
            db_read,
            signing_key,
            link_views,
            venue_embedder,
            llm,
            chat_live,
            agent_settings,
            llm_budget,
            memory,
            llm_settings,
            embedding_health,
            outbox,
        } = deps;
        let search = Arc::new(SearchService {
            read_db: Some(db_read.clone()),
            db: db.clone(),
            embedder: venue_embedder.clone(),
            llm: llm.clone(),
        });
        let scorer = playbook_scorer(&llm, Some(&memory.embedder));
        let playbook_console = Arc::new(crate::playbooks::console::PlaybookConsoleService {
            db: db.clone(),
            scorer: scorer.clone(),
        });
        let guide = Arc::new(crate::playbooks::runtime::Guide::new(db.clone(), scorer));
        let agent = Arc::new(Agent {
            guide: Some(guide),
            db: db.clone(),
            provider: llm,
            offline: Arc::new(crate::planner::Planner),
            search: search.clone(),
            embedder: venue_embedder,
            live: chat_live,
            settings: agent_settings,
            similar: Default::default(),
            summaries: Default::default(),
            known: Default::default(),
            memory: Some(memory.clone()),
        });
        Services {
            measures: Arc::new(crate::measures::MeasuresService {
                db: db_read.clone(),
                budget: llm_budget,
            }),
            playbook_console,
            work_queue: Arc::new(crate::work_queue::WorkQueueService {
                db: db.clone(),
                budget: llm_budget,
            }),
            link_views,
            audit_log: Arc::new(AuditReader { db: db.clone() }),
            accounts: Arc::new(crate::accounts::console::AccountsService { db: db.clone() }),
            assistant_status: Arc::new(crate::assistant_status::AssistantStatusService {
                db: db.clone(),
                llm: llm_settings,
                budget: Arc::new(crate::llm::budget::BudgetService {
                    log: Arc::new(db.clone()),
                    settings: llm_budget,
                }),
                embeddings: embedding_health,
            }),
            catalogue_builder: Arc::new(CatalogueBuilderService {
                db: db.clone(),
                search: search.clone(),
            }),
            venue_search: search,
            assistant: Arc::new(AssistantService {
                agent,
                links: signing_key.clone(),
                authors: Default::default(),
                outbox: outbox.clone(),
            }),
            requests_desk: Arc::new(RequestsDeskService {
                read_db: Some(db_read.clone()),
                db: db.clone(),
                pools: Default::default(),
            }),
            training: Arc::new(crate::training::TrainingService { db: db.clone() }),
            memory_desk: Arc::new(crate::memory_desk::MemoryDeskService { store: memory }),
            outreach: Arc::new(crate::outreach::OutreachService {
                db: db.clone(),
                key: signing_key.clone(),
                outbox,
            }),
            search_preferences: Arc::new(crate::search_preferences::SearchPreferencesService {
                db: db.clone(),
            }),
            llm_budget: Arc::new(crate::llm::budget::BudgetService {
                log: Arc::new(db),
                settings: llm_budget,
            }),
        }
    }
}
