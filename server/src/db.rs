//! The PostgreSQL pool, the embedded migrations, and the queries (one
//! module per table, checked at compile time by `sqlx::query!`).
/// `INSERT INTO llm_calls` of the rows in the JSON array `$param`, as
/// [`llm_calls::rows`] builds it: the one place that maps a call record to
/// the table (`llm_calls::insert`).
macro_rules! insert_llm_calls_from_json {
    ($param:literal) => {
        concat!(
            "INSERT INTO llm_calls (task, provider, model, input_tokens, output_tokens,
                                    cache_write_tokens, cache_read_tokens, cost_usd, latency_ms,
                                    status, error, conversation_id, user_id, request_id,
                                    search_run_id)
             SELECT c.task, c.provider, c.model, c.input_tokens, c.output_tokens,
                    c.cache_write_tokens, c.cache_read_tokens, c.cost_usd, c.latency_ms,
                    c.status, c.error, c.conversation_id, c.user_id, c.request_id,
                    c.search_run_id
               FROM jsonb_to_recordset(",
            $param,
            "::jsonb) AS c(task text, provider text, model text, input_tokens int,
                           output_tokens int, cache_write_tokens int, cache_read_tokens int,
                           cost_usd float8, latency_ms int, status text, error text,
                           conversation_id bigint, user_id bigint, request_id bigint,
                           search_run_id bigint)"
        )
    };
}

pub mod ai_context;
pub mod ai_conversations;
pub mod ai_events;
pub mod ai_memories;
pub mod ai_messages;
pub mod ai_pending_approvals;
pub mod ai_send;
pub mod ai_turns;
pub mod approved_writes;
pub mod audit_log;
pub mod availability_checks;
pub mod catalogue_drafts;
pub mod catalogue_feedback;
pub mod catalogue_outreach;
pub mod catalogues;
pub mod jobs;
pub mod knowledge_entries;
pub mod links_view;
pub mod llm_calls;
pub mod magic_links;
pub mod measures;
pub mod member_embeddings;
pub mod member_search;
pub mod member_signals;
pub mod members;
pub mod memory_candidates;
pub mod memory_searches;
pub mod memory_summaries;
pub mod memory_vectors;
pub mod memory_words;
pub mod notifications;
pub mod operations;
pub mod request_catalogues;
pub mod request_emails;
pub mod requests;
pub mod search_preferences;
pub mod search_runs;
pub mod sessions;
pub mod sign_in_failures;
pub mod tasks;
pub mod training_sessions;
pub mod user_data_embeddings;
pub mod users;
pub mod venue_facts;
pub mod venue_search;
pub mod work_queue;
pub mod write_targets;

use crate::config::{redact_url, DatabaseSettings};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{Connection, PgPool};

/// The migrations of `migrations/`, compiled into the binary.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

/// Connections the direct pool opens at most: the three `LISTEN`s (jobs,
/// chat, organizer pages), the memory index build, one to spare.
const DIRECT_MAX_CONNECTIONS: u32 = 5;

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("cannot reach the database at {url} ({var}): {source}")]
    Unreachable {
        url: String,
        var: &'static str,
        source: sqlx::Error,
    },
    #[error("{var} cannot be used ({url}): {source}")]
    BadUrl {
        url: String,
        var: &'static str,
        source: sqlx::Error,
    },
    #[error("database migrations failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

/// Opens the pool and proves the database answers, within the connect timeout.
pub async fn connect(settings: &DatabaseSettings) -> Result<PgPool, DbError> {
    let unreachable = |source| DbError::Unreachable {
        url: redact_url(&settings.url),
        var: "DATABASE_URL",
        source,
    };
    let pool = PgPoolOptions::new()
        .max_connections(settings.max_connections)
        .acquire_timeout(settings.connect_timeout)
        // No ping before handing out a connection: it doubled the round
        // trips of every query (a chat turn makes a dozen). A connection
        // the server closed fails its next query once (a 503 the caller may
        // retry) and is dropped from the pool.
        .test_before_acquire(false)
        .connect(&settings.url)
        .await
        .map_err(unreachable)?;
    Ok(pool)
}

/// The pool reads that may lag go to: the replica of `read_url`, connected
/// lazily and read-only (a write sent there by mistake fails instead of
/// diverging), or `primary` itself when no replica is configured. A URL
/// the driver cannot read falls back to the primary, with an error logged.
pub fn read_pool(settings: &DatabaseSettings, primary: &PgPool) -> PgPool {
    let Some(url) = &settings.read_url else {
        return primary.clone();
    };
    match url.parse::<PgConnectOptions>() {
        Ok(options) => PgPoolOptions::new()
            .max_connections(settings.max_connections)
            .acquire_timeout(settings.connect_timeout)
            .test_before_acquire(false)
            .connect_lazy_with(options.options([("default_transaction_read_only", "on")])),
        Err(e) => {
            tracing::error!(url = %redact_url(url), error = %e, "MAXY_DATABASE_READ_URL cannot be used; reading from the primary");
            primary.clone()
        }
    }
}

/// The pool for what needs a PostgreSQL session of its own (`LISTEN`, a
/// session advisory lock held across statements): PostgreSQL itself at
/// `direct_url` when `url` goes through a transaction pooler (ADR 0040),
/// `url` otherwise; connected lazily, at most [`DIRECT_MAX_CONNECTIONS`].
/// Never the requests' pool: each `LISTEN` holds its connection for the
/// life of the process, and three of them would take three of the ten
/// connections requests share. Never falls back to `url` when `direct_url`
/// is set: a `LISTEN` through a transaction pooler hears nothing, and a
/// session lock taken there stays with a server connection another client
/// gets next.
pub fn direct_pool(settings: &DatabaseSettings) -> Result<PgPool, DbError> {
    let (url, var) = match &settings.direct_url {
        Some(url) => (url, "MAXY_DATABASE_DIRECT_URL"),
        None => (&settings.url, "DATABASE_URL"),
    };
    let options = direct_options(url, var)?;
    Ok(PgPoolOptions::new()
        .max_connections(DIRECT_MAX_CONNECTIONS)
        .acquire_timeout(settings.connect_timeout)
        .test_before_acquire(false)
        .connect_lazy_with(options))
}

fn direct_options(url: &str, var: &'static str) -> Result<PgConnectOptions, DbError> {
    url.parse().map_err(|source| DbError::BadUrl {
        url: redact_url(url),
        var,
        source,
    })
}

/// Applies the migrations that have not run yet (a no-op when all have).
///
/// sqlx holds a session advisory lock while it migrates, so two servers
/// starting together are safe. A session lock must not go through a
/// transaction pooler (its release would reach another server connection
/// and the lock stay held, ADR 0040): with `direct_url` set, the
/// migrations run on a connection of their own to PostgreSQL, closed
/// after; otherwise on `pool`.
pub async fn migrate(settings: &DatabaseSettings, pool: &PgPool) -> Result<(), DbError> {
    let Some(url) = &settings.direct_url else {
        MIGRATOR.run(pool).await?;
        return Ok(());
    };
    let unreachable = |source| DbError::Unreachable {
        url: redact_url(url),
        var: "MAXY_DATABASE_DIRECT_URL",
        source,
    };
    let options = direct_options(url, "MAXY_DATABASE_DIRECT_URL")?;
    let mut conn = tokio::time::timeout(
        settings.connect_timeout,
        sqlx::PgConnection::connect_with(&options),
    )
    .await
    .map_err(|_| {
        unreachable(sqlx::Error::Io(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!("no connection within {:?}", settings.connect_timeout),
        )))
    })?
    .map_err(unreachable)?;
    let migrated = MIGRATOR.run(&mut conn).await;
    // Closing politely is only courtesy: the session (and its lock) ends
    // with the socket either way.
    let _ = conn.close().await;
    migrated?;
    Ok(())
}

/// A query error as the caller sees it: the database not answering (closed
/// pool, no connection within the timeout, network, TLS, a server shutting
/// down or restarting, or anything [`is_transient`]) is a 503 that a retry
/// may fix; anything else is a 500. The cause goes to the log either way.
pub fn app_error(e: sqlx::Error) -> app::errors::AppError {
    use app::errors::AppError;
    match e {
        sqlx::Error::PoolClosed | sqlx::Error::Tls(_) => AppError::unavailable(e),
        _ if is_transient(&e) => AppError::unavailable(e),
        _ => AppError::internal(e),
    }
}

/// Whether the same work may succeed if tried again from its start: no
/// connection in time, a connection lost, or PostgreSQL asking for a retry
/// (serialization failure, deadlock, too many connections, a server
/// restarting; connection exceptions, class 08). Anything else would fail
/// the same way again.
pub fn is_transient(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(d) => d.code().is_some_and(|code| {
            matches!(
                code.as_ref(),
                "40001" | "40P01" | "53300" | "57P01" | "57P02" | "57P03"
            ) || code.starts_with("08")
        }),
        _ => false,
    }
}

/// A cheap round trip, for readiness checks.
pub async fn ping(pool: &PgPool) -> Result<(), sqlx::Error> {
    sqlx::query_scalar::<_, i32>("SELECT 1")
        .fetch_one(pool)
        .await
        .map(|_| ())
}
