//! `maxy serve`: start-up checks, then the HTTP server until a shutdown signal.
use crate::auth::tokens::SigningKey;
use crate::config::Config;
use crate::embeddings::{EmbeddingHealth, EmbeddingStatus};
use crate::state::AppState;
use anyhow::Context;
use leptos::prelude::LeptosOptions;
use std::future::IntoFuture;
use std::net::SocketAddr;

/// Every job kind this server runs. The memory rows' job is interactive
/// (a person's row waits for its vector), so the registry puts it before
/// the venue batches whatever the order here (ADR 0033).
pub fn job_registry(
    db: &sqlx::PgPool,
    embedders: &crate::embeddings::Embedders,
) -> crate::jobs::Registry {
    let registry = crate::venue_embeddings::register_jobs(
        crate::jobs::Registry::default(),
        db,
        embedders.venues.clone(),
    );
    let registry = crate::memory::embed_job::run::register_jobs(
        registry,
        db,
        embedders.memory.clone(),
        embedders.training.clone(),
    );
    crate::playbooks::miner::register_jobs(registry, db)
}

/// The start-up sweep: queues the rows of each table still without a
/// vector of their pipeline's model and size (at most 10,000 per table and
/// start; `maxy embed memory` does a whole model change at once).
async fn queue_missing_embeddings(db: &sqlx::PgPool, embedders: &crate::embeddings::Embedders) {
    use crate::db::user_data_embeddings::Table;
    for table in Table::ALL {
        let provider = match table {
            Table::Memories | Table::Tasks => &embedders.memory,
            Table::TrainingSessions => &embedders.training,
        };
        match crate::memory::embed_job::enqueue_missing(db, table, provider.as_ref(), 10_000).await
        {
            Ok(0) => {}
            Ok(n) => tracing::info!(
                table = table.name(),
                rows = n,
                "rows queued for their embedding"
            ),
            Err(e) => {
                tracing::warn!(table = table.name(), error = %e, "cannot queue the missing embeddings")
            }
        }
    }
}

pub async fn run(config: Config) -> anyhow::Result<()> {
    let mut leptos_options = site_options(&config)?;
    if let Some(addr) = config.listen_addr {
        leptos_options.site_addr = addr;
    }
    let addr = leptos_options.site_addr;

    // Bind first: a port in use is the cheapest failure to report.
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr} (MAXY_ADDR or Leptos.toml site-addr)"))?;

    let db = crate::db::connect(&config.database).await?;
    crate::db::migrate(&config.database, &db).await?;
    // What needs a session of its own (the LISTENs, the memory index
    // build's lock): PostgreSQL itself when DATABASE_URL goes through a
    // transaction pooler (MAXY_DATABASE_DIRECT_URL), a small pool of its
    // own on DATABASE_URL otherwise (never `db`'s connections).
    let direct = crate::db::direct_pool(&config.database)?;

    let embedders = crate::embeddings::Embedders::from_settings(&config.embeddings)
        .context("cannot build the embedding clients")?;
    let embedding_health = EmbeddingHealth::new(&embedders);
    if config.require_embeddings {
        // Busy is fine (a backfill may be running); down or misconfigured is not.
        if let (EmbeddingStatus::Unavailable, Some(cause)) = embedding_health.check().await {
            anyhow::bail!(
                "the embedding server is unavailable: {cause} (MAXY_EMBEDDING_URL; set \
                 MAXY_REQUIRE_EMBEDDINGS=false to start without it)"
            );
        }
    }

    let signing_key = match &config.auth.secret_key {
        Some(key) => SigningKey::new(key.clone()),
        None => {
            tracing::warn!(
                "MAXY_SECRET_KEY is not set: magic links will stop working when this process stops"
            );
            SigningKey::random().context("cannot draw a random key")?
        }
    };
    tokio::spawn(sweep_expired_rows(db.clone()));
    tokio::spawn(crate::outreach::sweep::every(
        db.clone(),
        std::time::Duration::from_secs(600),
    ));
    let llm =
        crate::llm::for_server(&config.llm, db.clone()).context("cannot build the LLM client")?;
    tracing::info!(
        provider = llm.name(),
        model = llm.model(),
        "venue ranking through this language model (offline: deterministic ranking)"
    );
    let (stop_jobs, jobs_shutdown) = tokio::sync::watch::channel(false);
    // E-mail (`MAXY_SMTP_URL`): a bad URL stops the start, like any setting.
    let mail_sender = crate::mail::SmtpSender::from_settings(&config.mail)?;
    if mail_sender.is_none() {
        tracing::info!("MAXY_SMTP_URL is not set: links are shown to copy, nothing is e-mailed");
    }
    let workers = crate::jobs::start(
        &db,
        &crate::mail::register_jobs(job_registry(&db, &embedders), &db, mail_sender),
        config.job_workers,
        &crate::jobs::WorkerOptions {
            listen_db: Some(direct.clone()),
            ..Default::default()
        },
        &jobs_shutdown,
    );
    {
        // Memories, reminders and lessons without a vector of their model
        // get their job (rows written before the jobs existed, or under
        // another model).
        let (db, embedders) = (db.clone(), embedders.clone());
        tokio::spawn(async move { queue_missing_embeddings(&db, &embedders).await });
    }
    {
        // The playbook miner's next nightly run (one per night, whatever
        // the number of servers).
        let db = db.clone();
        tokio::spawn(async move {
            if let Err(e) = crate::playbooks::miner::schedule_next(&db, chrono::Utc::now()).await {
                tracing::warn!(error = %e, "cannot schedule the playbook miner");
            }
        });
    }
    {
        // The memory search's per-user index for the configured dimension
        // (ADR 0017); built in the background, searches work meanwhile,
        // on the direct pool (a session lock, ADR 0040).
        let (db, dims) = (direct.clone(), embedders.memory.dimensions());
        tokio::spawn(async move {
            if let Err(e) = crate::memory::vector_index::ensure(&db, dims).await {
                tracing::warn!(error = %e, "cannot build the memory vector index");
            }
        });
    }
    // The memory store, with the search tuned for its model (its keep floor
    // replaced by `MAXY_MEMORY_SIMILARITY_FLOOR` when set), judged by the
    // configured language model (offline: not judged).
    let memory = std::sync::Arc::new(
        crate::memory::MemoryStore::new(
            db.clone(),
            embedders.memory.clone(),
            crate::memory::floor::for_model(
                embedders.memory.model(),
                config.memory.similarity_floor,
            ),
        )
        .with_judge(llm.clone()),
    );
    let shutdown_grace = config.shutdown_grace;
    let state = AppState::new(
        leptos_options,
        db.clone(),
        config,
        embedding_health,
        signing_key,
        Some(embedders.venues.clone()),
        llm.clone(),
        memory.clone(),
    );
    tokio::spawn(crate::agent::live::follow_other_processes(
        state.chat_live.clone(),
        direct.clone(),
        jobs_shutdown.clone(),
    ));
    tokio::spawn(crate::link_views::page_changes::follow(
        state.link_views.page_changes.clone(),
        direct.clone(),
        jobs_shutdown.clone(),
    ));
    tokio::spawn(crate::agent::expiry::sweep_forever(
        db.clone(),
        state.chat_live.clone(),
    ));
    tokio::spawn(crate::agent::memory_summary::sweep_forever(
        std::sync::Arc::new(crate::agent::memory_summary::Summariser::new(
            db.clone(),
            memory,
            llm,
            Default::default(),
        )),
    ));
    let link_uses = state.link_uses.clone();
    let drain = crate::shutdown::Drain::new(state.chat_live.clone(), shutdown_grace);
    let app = crate::http::router(state);
    tracing::info!(%addr, "Maxy is listening on http://{addr}");
    let served = axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(drain.on_signal())
    .into_future();
    tokio::select! {
        served = served => served.context("the HTTP server stopped with an error")?,
        () = drain.forced() => tracing::warn!("connections still open after the turns were interrupted: closing them"),
    }
    drain.finish_turns().await;
    // Workers finish their current batch; one stuck past this is re-queued
    // by another worker's reaper later.
    if let Err(e) = link_uses.flush().await {
        tracing::warn!(error = %e, "cannot write the last magic-link use counts");
    }
    let _ = stop_jobs.send(true);
    if tokio::time::timeout(std::time::Duration::from_secs(30), workers.join())
        .await
        .is_err()
    {
        tracing::warn!("job workers did not stop within 30 s");
    }
    db.close().await;
    direct.close().await;
    tracing::info!("stopped cleanly");
    Ok(())
}

/// Deletes expired sessions and drained sign-in counters every hour
/// (lookups already ignore them; this only keeps the tables small). Several
/// servers may do it at once: harmless.
async fn sweep_expired_rows(db: sqlx::PgPool) {
    let mut every_hour = tokio::time::interval(std::time::Duration::from_secs(3600));
    loop {
        every_hour.tick().await;
        match crate::db::sessions::delete_expired(&db).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(sessions = n, "expired sessions removed"),
            Err(e) => tracing::warn!(error = %e, "cannot remove expired sessions"),
        }
        match crate::db::sign_in_failures::delete_drained(&db).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(counters = n, "drained sign-in counters removed"),
            Err(e) => tracing::warn!(error = %e, "cannot remove drained sign-in counters"),
        }
    }
}

/// The Leptos site settings (output name, site root, pkg dir) from `Leptos.toml`,
/// with the fingerprinted bundle name of the built site when it has one.
pub fn site_options(config: &Config) -> anyhow::Result<LeptosOptions> {
    let path = config.leptos_config.to_string_lossy();
    let conf = leptos::config::get_configuration(Some(&path)).map_err(|e| {
        anyhow::anyhow!("cannot read the site settings in {path} (MAXY_LEPTOS_CONFIG): {e}")
    })?;
    Ok(crate::http::static_assets::with_bundle_name(
        conf.leptos_options,
    ))
}
