//! `maxy playbooks mine [--at RFC3339]`: the miner over one Paris week,
//! printed for a person — each pattern's French sentence, those that
//! qualify marked, and how many suggestions were written.
use super::{mine, patterns, sentence, week_ending, MIN_OCCURRENCES};
use crate::config::Config;
use chrono::{DateTime, Utc};

pub async fn run(config: &Config, at: Option<DateTime<Utc>>) -> anyhow::Result<()> {
    let db = crate::db::connect(&config.database).await?;
    crate::db::migrate(&config.database, &db).await?;
    let window = week_ending(at.unwrap_or_else(Utc::now));
    let found = patterns(&db, &window).await?;
    let report = mine(&db, &window).await?;
    println!(
        "Semaine du {} (Paris) : {} motif(s) observé(s) hors parcours.",
        window.first_day().format("%d/%m/%Y"),
        report.patterns
    );
    // Stations by their label, never their key.
    let labels: std::collections::HashMap<String, String> =
        sqlx::query_as::<_, (String, String)>("SELECT name, label FROM stations")
            .fetch_all(&db)
            .await?
            .into_iter()
            .collect();
    for pattern in &found {
        let mark = if pattern.is_suggestable() { "★" } else { " " };
        let station = labels
            .get(&pattern.station)
            .map_or("autre station", String::as_str);
        println!("{mark} {} ({station})", sentence(pattern));
    }
    println!(
        "{} suggestion(s) de playbook écrite(s) (★ : au moins {MIN_OCCURRENCES} fois, deux outils distincts).",
        report.suggested
    );
    Ok(())
}
