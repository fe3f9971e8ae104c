//! The `playbooks.mine` job: once a day, at 00:30 Paris, the miner runs
//! over the week of the day that just ended (so a week's Sunday is counted
//! on Monday night) and over the current week when that is another one.
//!
//! Each run queues the next one before it mines, under a key naming the
//! day it is for (`playbooks.mine:2025-03-31`): the queue keeps one
//! queued-or-running job per key, so the server's start-up
//! ([`schedule_next`]), the run before and any number of processes never
//! pile up two runs for the same night. (One key for every run would not
//! do: queued while the previous run is still running, it would ask that
//! run to start again at once.)
use super::week::paris_midnight;
use super::{mine, week_ending};
use crate::jobs::{FailMode, Job, JobHandler, Outcome, Registry};
use crate::memory::dates::paris_date;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use sqlx::PgPool;

/// The job kind (its French label is in the audit labels).
pub const JOB_KIND: &str = "playbooks.mine";

/// Minutes after Paris midnight a run is due.
const RUN_MINUTE: i64 = 30;

/// Adds the miner's handler.
pub fn register_jobs(registry: Registry, db: &PgPool) -> Registry {
    registry.with(MineJob { db: db.clone() })
}

/// The first run due strictly after `after`, and the Paris day it is for.
pub fn next_run(after: DateTime<Utc>) -> (NaiveDate, DateTime<Utc>) {
    let today = paris_date(after);
    let at = |day: NaiveDate| paris_midnight(day) + Duration::minutes(RUN_MINUTE);
    if at(today) > after {
        (today, at(today))
    } else {
        let tomorrow = today + Duration::days(1);
        (tomorrow, at(tomorrow))
    }
}

/// One queued-or-running job per night.
pub fn dedupe_key(day: NaiveDate) -> String {
    format!("{JOB_KIND}:{day}")
}

/// Queues the first run due after `after` unless it is queued already;
/// true when this call queued it.
pub async fn schedule_next(db: &PgPool, after: DateTime<Utc>) -> sqlx::Result<bool> {
    let (day, run_at) = next_run(after);
    let id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO jobs (kind, payload, dedupe_key, run_at) VALUES ($1, '{}', $2, $3)
         ON CONFLICT (dedupe_key) WHERE status IN ('queued', 'running') DO NOTHING
         RETURNING id",
    )
    .bind(JOB_KIND)
    .bind(dedupe_key(day))
    .bind(run_at)
    .fetch_optional(db)
    .await?;
    Ok(id.is_some())
}

/// Runs the miner as described in the module docs.
pub async fn run_once(db: &PgPool, now: DateTime<Utc>) -> sqlx::Result<()> {
    let ended = week_ending(now - Duration::hours(1));
    let current = week_ending(now);
    let mut windows = vec![ended];
    if current != ended {
        windows.push(current);
    }
    for window in windows {
        let report = mine(db, &window).await?;
        tracing::info!(
            window.start = %window.start,
            patterns = report.patterns,
            suggested = report.suggested,
            "playbook patterns mined"
        );
    }
    Ok(())
}

struct MineJob {
    db: PgPool,
}

#[async_trait::async_trait]
impl JobHandler for MineJob {
    fn kind(&self) -> &'static str {
        JOB_KIND
    }

    async fn run(&self, jobs: Vec<Job>) -> Vec<(i64, Outcome)> {
        let now = Utc::now();
        let outcome = match schedule_next(&self.db, now).await {
            Err(e) => Outcome::failed(FailMode::Retry, format!("cannot queue the next run: {e}")),
            Ok(_) => match run_once(&self.db, now).await {
                Ok(()) => Outcome::Done,
                Err(e) => Outcome::failed(FailMode::Retry, e),
            },
        };
        jobs.iter().map(|j| (j.id, outcome.clone())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    #[test]
    fn the_next_run_is_at_half_past_midnight_paris() {
        let d = |m, day| NaiveDate::from_ymd_opt(2025, m, day).unwrap();
        // 10:00 Paris in winter: tomorrow 00:30 Paris = 23:30 UTC today.
        assert_eq!(
            next_run(utc("2025-01-15T09:00:00Z")),
            (d(1, 16), utc("2025-01-15T23:30:00Z"))
        );
        // 00:10 Paris in summer: tonight's run is still ahead.
        assert_eq!(
            next_run(utc("2025-07-01T22:10:00Z")),
            (d(7, 2), utc("2025-07-01T22:30:00Z"))
        );
        // Exactly at a run: the next one.
        assert_eq!(next_run(utc("2025-07-01T22:30:00Z")).0, d(7, 3));
    }

    #[test]
    fn each_night_has_its_own_key() {
        let day = NaiveDate::from_ymd_opt(2025, 3, 31).unwrap();
        assert_eq!(dedupe_key(day), "playbooks.mine:2025-03-31");
    }
}
