//! Writes a generated dataset into an empty database: one transaction,
//! COPY per table in foreign-key order, explicit ids, then the identity
//! sequences moved past them, then fresh planner statistics.

mod activity;
mod copy;
mod directory;

use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressStyle};
use sqlx::PgPool;

use super::model::Dataset;

/// Tables whose `id` is an identity column we filled explicitly.
const IDENTITY_TABLES: &[&str] = &[
    "pools",
    "tags",
    "attribute_types",
    "members",
    "rooms",
    "knowledge_entries",
    "users",
    "requests",
    "request_emails",
    "catalogues",
    "catalogue_picks",
    "availability_checks",
    "response_signals",
    "training_sessions",
];

/// Every table written, for ANALYZE.
const LOADED_TABLES: &str = "pools, tags, attribute_types, members, rooms, room_capacities, member_tags, \
    member_attributes, users, knowledge_entries, team_favorites, requests, request_emails, catalogues, \
    catalogue_picks, availability_checks, response_signals, training_sessions";

pub async fn load(pool: &PgPool, data: &Dataset, progress: bool) -> anyhow::Result<()> {
    let bar = progress_bar(data, progress)?;
    let mut tx = pool.begin().await.context("opening the seed transaction")?;
    // Nothing is lost if the machine crashes before the commit reaches disk:
    // the seed can be re-run; this saves a WAL flush wait at commit.
    sqlx::query("SET LOCAL synchronous_commit = off")
        .execute(&mut *tx)
        .await?;
    directory::directory(&mut tx, data, &bar).await?;
    directory::team(&mut tx, data, &bar).await?;
    activity::load(&mut tx, data, &bar).await?;
    bar.set_message("sequences");
    for table in IDENTITY_TABLES {
        // Table names are constants above, never input.
        let sql = format!(
            "SELECT setval(pg_get_serial_sequence('{table}', 'id'), coalesce(max(id), 0) + 1, false) FROM {table}"
        );
        sqlx::query(&sql)
            .execute(&mut *tx)
            .await
            .with_context(|| format!("moving the id sequence of {table}"))?;
    }
    bar.set_message("commit");
    tx.commit().await.context("committing the demo data")?;
    bar.set_message("analyze");
    sqlx::query(&format!("ANALYZE {LOADED_TABLES}"))
        .execute(pool)
        .await
        .context("ANALYZE after seeding")?;
    bar.finish_with_message("done");
    Ok(())
}

fn progress_bar(data: &Dataset, visible: bool) -> anyhow::Result<ProgressBar> {
    if !visible {
        return Ok(ProgressBar::hidden());
    }
    let total = [
        data.pools.len(),
        data.tags.len(),
        data.attribute_types.len(),
        data.members.len(),
        data.rooms.len(),
        data.capacities.len(),
        data.member_tags.len(),
        data.member_attributes.len(),
        data.users.len(),
        data.knowledge.len(),
        data.favorites.len(),
        data.requests.len(),
        data.request_emails.len(),
        data.catalogues.len(),
        data.picks.len(),
        data.availability_checks.len(),
        data.signals.len(),
        data.training.len(),
    ]
    .iter()
    .sum::<usize>();
    let bar = ProgressBar::new(total as u64);
    let style = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} rows  {msg}",
    )
    .context("progress bar template")?;
    bar.set_style(style);
    Ok(bar)
}
