//! Deterministic demo data: `maxy seed --members N --seed S`.
//!
//! [`generate`] builds the whole dataset in memory from the seed alone (no
//! clock, no hash-map order: same seed, byte-identical data); [`seed`] writes
//! it into an empty database in one transaction with COPY.

mod catalogues;
mod checks;
mod descriptions;
mod dice;
mod digest;
mod directory;
mod features;
mod french;
mod geography;
mod index;
mod knowledge;
mod load;
pub mod model;
mod names;
mod pools;
mod requests;
mod rooms;
mod showcase;
mod signals;
mod sketch;
mod tags;
mod team;
mod training;
mod venues;

#[cfg(test)]
mod tests;

use std::time::{Duration, Instant};

use anyhow::Context as _;

pub use digest::digest;
pub use model::Dataset;
pub use team::DEMO_PASSWORD;

/// Options of `maxy seed`.
#[derive(Clone, Debug)]
pub struct SeedOptions {
    pub seed: u64,
    pub members: usize,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// What `seed` wrote, for the command's report.
#[derive(Clone, Debug, Default)]
pub struct SeedSummary {
    pub pools: usize,
    pub members: usize,
    pub rooms: usize,
    pub room_capacities: usize,
    pub tags: usize,
    pub member_tags: usize,
    pub member_attributes: usize,
    pub knowledge_entries: usize,
    pub users: usize,
    pub team_favorites: usize,
    pub requests: usize,
    pub request_emails: usize,
    pub catalogues: usize,
    pub catalogue_picks: usize,
    pub availability_checks: usize,
    pub response_signals: usize,
    pub training_sessions: usize,
    /// Fingerprint of the generated data (equal seeds, equal digests).
    pub digest: String,
    pub generate_time: Duration,
    pub load_time: Duration,
    pub elapsed: Duration,
}

/// Builds the whole demo dataset for `seed` with `members` venues.
pub fn generate(seed: u64, members: usize) -> Dataset {
    let mut data = Dataset::default();
    directory::fill(&mut data, seed, members);
    let index = index::Index::new(&data);
    team::fill(&mut data, seed, &index);
    let mut favourites: Vec<i64> = data.favorites.iter().map(|f| f.member_id).collect();
    favourites.sort_unstable();
    favourites.dedup();
    let ctx = requests::Context {
        seed,
        index: &index,
        favourites,
    };
    requests::fill(&mut data, &ctx, catalogues::attach);
    signals::fill_background(&mut data, seed, &index);
    training::fill(&mut data, seed, requests::EVENTS);
    data
}

/// True when no pool, venue, user or request exists yet (the seed command
/// refuses to mix data).
pub async fn database_is_empty(pool: &sqlx::PgPool) -> sqlx::Result<bool> {
    Ok(existing_rows(pool).await? == 0)
}

/// Pools, venues, users and requests already present (demo ids would collide).
async fn existing_rows(pool: &sqlx::PgPool) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT (SELECT count(*) FROM pools) + (SELECT count(*) FROM members)
              + (SELECT count(*) FROM users) + (SELECT count(*) FROM requests) AS "existing!""#,
    )
    .fetch_one(pool)
    .await
}

/// Generates the dataset and loads it into `pool`, in one transaction.
/// Refuses a database that already holds pools, venues, users or requests:
/// the data comes with explicit ids and would collide.
pub async fn seed(pool: &sqlx::PgPool, options: &SeedOptions) -> anyhow::Result<SeedSummary> {
    let started = Instant::now();
    let existing = existing_rows(pool)
        .await
        .context("checking that the database is empty")?;
    anyhow::ensure!(
        existing == 0,
        "demo data only goes into an empty database ({existing} pools, venues, users or requests found)"
    );
    let (seed_value, members) = (options.seed, options.members);
    // Several seconds of pure CPU for 70,000 venues: keep it off the async workers.
    let data = tokio::task::spawn_blocking(move || generate(seed_value, members))
        .await
        .context("generating the demo data")?;
    let generate_time = started.elapsed();
    let loading = Instant::now();
    load::load(pool, &data, options.progress)
        .await
        .context("loading the demo data")?;
    let load_time = loading.elapsed();
    Ok(SeedSummary {
        pools: data.pools.len(),
        members: data.members.len(),
        rooms: data.rooms.len(),
        room_capacities: data.capacities.len(),
        tags: data.tags.len(),
        member_tags: data.member_tags.len(),
        member_attributes: data.member_attributes.len(),
        knowledge_entries: data.knowledge.len(),
        users: data.users.len(),
        team_favorites: data.favorites.len(),
        requests: data.requests.len(),
        request_emails: data.request_emails.len(),
        catalogues: data.catalogues.len(),
        catalogue_picks: data.picks.len(),
        availability_checks: data.availability_checks.len(),
        response_signals: data.signals.len(),
        training_sessions: data.training.len(),
        digest: digest(&data),
        generate_time,
        load_time,
        elapsed: started.elapsed(),
    })
}
