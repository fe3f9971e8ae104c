//! Maxy's server: configuration, database, HTTP, services and the command line.
pub mod accounts;
pub mod admin_commands;
pub mod agent;
pub mod approvals;
pub mod assistant_status;
pub mod audit;
pub mod auth;
pub mod backfill_support;
pub mod bench;
pub mod call_log;
pub mod call_record;
pub mod catalogue_builder;
pub mod cli;
pub mod config;
pub mod conversation_content;
pub mod db;
pub mod embeddings;
pub mod executors;
pub mod http;
pub mod jobs;
pub mod link_views;
pub mod llm;
pub mod mail;
pub mod measures;
pub mod memory;
pub mod memory_desk;
pub mod metrics;
pub mod outbound;
pub mod outreach;
pub mod planner;
pub mod playbooks;
pub mod request_cookies;
pub mod requests_desk;
pub mod search;
pub mod search_preferences;
pub mod serve;
pub mod services;
pub mod shutdown;
pub mod state;
pub mod telemetry;
pub mod tools;
pub mod training;
pub mod venue_embeddings;
pub mod work_queue;

/// Places of Paris and around (shared with the demo data, in `app`).
pub use app::geo;
/// The demo data generator, its own crate (ADR 0031): `maxy seed`.
pub use demo;

use anyhow::Context;
use cli::{Command, SeedArgs};
use config::Config;

/// Runs one subcommand to completion.
pub async fn run(command: Command) -> anyhow::Result<()> {
    let config = Config::from_env()?;
    match command {
        Command::Serve => serve::run(config).await,
        Command::Migrate => {
            let db = db::connect(&config.database).await?;
            db::migrate(&config.database, &db).await?;
            tracing::info!("migrations are up to date");
            Ok(())
        }
        Command::Seed(args) => seed(&config, &args).await,
        Command::User(command) => admin_commands::user(&config, command).await,
        Command::Link(command) => admin_commands::link(&config, command).await,
        Command::Embed(cli::EmbedCommand::Venues(args)) => {
            venue_embeddings::backfill::command(&config, &args).await
        }
        Command::Embed(cli::EmbedCommand::Memory(args)) => {
            memory::backfill::command(&config, &args).await
        }
        Command::Calibrate(cli::CalibrateCommand::Memory(args)) => {
            memory::calibration::command(&config, &args).await
        }
        Command::Calibrate(cli::CalibrateCommand::Playbooks(args)) => {
            playbooks::scoring::command::command(&config, &args).await
        }
        Command::Playbooks(cli::PlaybooksCommand::Mine { at }) => {
            playbooks::miner::command::run(&config, at.map(|t| t.to_utc())).await
        }
        Command::Playbooks(cli::PlaybooksCommand::Simulate) => {
            playbooks::simulate::cli::command(&config).await
        }
        Command::Bench(cli::BenchCommand::Playbooks { rounds }) => {
            bench::playbooks::run(&bench::playbooks::Options {
                rounds: usize::try_from(rounds)?,
            })
        }
        Command::Bench(cli::BenchCommand::Search { rounds }) => {
            let db = db::connect(&config.database).await?;
            db::migrate(&config.database, &db).await?;
            let embedders = embeddings::Embedders::from_settings(&config.embeddings)?;
            let options = bench::Options {
                iterations: rounds as usize,
                synthetic_dims: None,
            };
            bench::run(&db, embedders.venues.as_ref(), &options).await
        }
        Command::Bench(cli::BenchCommand::Lanes { searches, venues }) => {
            let db = db::connect(&config.database).await?;
            db::migrate(&config.database, &db).await?;
            let options = bench::lanes::Options {
                searches: usize::try_from(searches)?,
                venues: usize::try_from(venues)?,
            };
            bench::lanes::run(&db, &config.embeddings, &options).await
        }
        Command::Bench(cli::BenchCommand::Chat {
            turns,
            warmup,
            concurrent,
            pace_ms,
            think_ms,
        }) => {
            let db = db::connect(&config.database).await?;
            db::migrate(&config.database, &db).await?;
            let options = bench::chat::Options {
                turns: usize::try_from(turns)?,
                warmup: usize::try_from(warmup)?,
                concurrent: usize::try_from(concurrent)?,
                pace: std::time::Duration::from_millis(pace_ms),
                think: std::time::Duration::from_millis(think_ms),
            };
            bench::chat::run(&db, &options).await
        }
        Command::Bench(cli::BenchCommand::Load {
            streams,
            searches_per_second,
            seconds,
            pace_ms,
        }) => {
            let db = db::connect(&config.database).await?;
            db::migrate(&config.database, &db).await?;
            let embedders = embeddings::Embedders::from_settings(&config.embeddings)?;
            let options = bench::load::Options {
                streams: usize::try_from(streams)?,
                searches_per_second,
                duration: std::time::Duration::from_secs(seconds),
                pace: std::time::Duration::from_millis(pace_ms),
            };
            bench::load::run(&db, embedders.venues.clone(), &options)
                .await?
                .print();
            Ok(())
        }
        Command::Bench(cli::BenchCommand::Streams {
            streams,
            searches_per_second,
            seconds,
            pace_ms,
        }) => {
            let db = db::connect(&config.database).await?;
            db::migrate(&config.database, &db).await?;
            let options = bench::streams::Options {
                streams: usize::try_from(streams)?,
                searches_per_second,
                duration: std::time::Duration::from_secs(seconds),
                pace: std::time::Duration::from_millis(pace_ms),
                server: std::env::current_exe()?,
                cookie_name: auth::sessions::cookie_name(&config.auth),
                server_env: Vec::new(),
            };
            bench::streams::run(&db, &options).await?.print();
            Ok(())
        }
        Command::Bench(cli::BenchCommand::Memory {
            users,
            per_user,
            searches,
            hnsw,
        }) => {
            let db = db::connect(&config.database).await?;
            db::migrate(&config.database, &db).await?;
            let embedders = embeddings::Embedders::from_settings(&config.embeddings)?;
            let options = bench::memory::Options {
                users: i64::try_from(users)?,
                per_user: i64::try_from(per_user)?,
                searches: usize::try_from(searches)?,
                hnsw,
            };
            // The index build takes a session lock: PostgreSQL itself, not a pooler.
            let direct = db::direct_pool(&config.database)?;
            bench::memory::run(&db, &direct, &embedders.memory, &options).await
        }
    }
}

async fn seed(config: &Config, args: &SeedArgs) -> anyhow::Result<()> {
    let db = db::connect(&config.database).await?;
    db::migrate(&config.database, &db).await?;
    if args.if_empty
        && !demo::database_is_empty(&db)
            .await
            .context("cannot count venues")?
    {
        tracing::info!("the database already has data: nothing seeded");
        return Ok(());
    }
    let options = demo::SeedOptions {
        seed: args.seed,
        members: usize::try_from(args.members).context("--members is too large")?,
        progress: !args.quiet,
    };
    let s = demo::seed(&db, &options).await?;
    let playbooks = playbooks::demo::install(&db).await?;
    println!(
        "demo data loaded in {:.1} s (seed {}, digest {}): {} pools, {} venues, {} rooms, \
         {} capacities, {} requests, {} catalogues ({} picks), {} training sessions, {} users",
        s.elapsed.as_secs_f64(),
        args.seed,
        s.digest,
        s.pools,
        s.members,
        s.rooms,
        s.room_capacities,
        s.requests,
        s.catalogues,
        s.catalogue_picks,
        s.training_sessions,
        s.users,
    );
    println!(
        "playbooks: {} shipped, the team chat in enforce; {} demo observations, {} suggested playbook(s)",
        playbooks.playbooks, playbooks.observations, playbooks.suggested
    );
    println!(
        "demo accounts (password {}): admin@reciprok.fr (admin), camille.martin@reciprok.fr (team)",
        demo::DEMO_PASSWORD
    );
    Ok(())
}
